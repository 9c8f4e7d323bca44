"""Settings for ``make run``: debug on, embedded defaults from ``base``."""

from config.settings.base import *  # noqa: F403

DEBUG = True
