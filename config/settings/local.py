"""Settings for ``make run``: the embedded defaults from ``base``, debug OFF.

Debug pages show a traceback (and settings) to anyone who can reach the server, and ``make run``
is reachable from the phones at the venue: debug stays off unless ``KNOCK_DEBUG=1`` is set on
purpose, on a developer's own machine (read by ``base``).
"""

from config.settings.base import *  # noqa: F403
from config.settings.base import DEBUG

# Static files straight from the source folders (no collectstatic needed on a laptop).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
