"""gunicorn's logger, with every line of its error and access logs redacted (:mod:`core.logging`).

gunicorn writes its logs through its own handlers, set up before the application (and Django's
``LOGGING``) is loaded, so the filter cannot be attached from the settings. ``manage.py serve``
starts gunicorn with ``--logger-class core.gunicorn_logging.RedactingLogger``, and so does the
command in docs/deploy.md: a request for ``/l/<secret>/`` or ``/checkin/<token>/`` is then logged
as ``/l/...`` and ``/checkin/...``, in the request line, the path, the query and the ``Referer``.
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from core.logging import RedactSecrets


class RedactingLogger(Logger):
    """gunicorn's own logger, with :class:`core.logging.RedactSecrets` on both its loggers."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            if not any(isinstance(f, RedactSecrets) for f in log.filters):
                log.addFilter(RedactSecrets())
