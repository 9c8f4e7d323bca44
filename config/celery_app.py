"""The Celery application.

Workers and beat find their broker through ``CELERY_BROKER_URL`` (Django settings, namespace
``CELERY``). Tasks live in each app's ``tasks.py`` and are discovered automatically.
"""

import os

from celery import Celery
from celery.signals import after_setup_logger, after_setup_task_logger
from kombu.transport import TRANSPORT_ALIASES

from core.logging import redact_handlers
from core.worker_steps import AnnounceReconnect

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("knock")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Tells the apps when the consumer is back after losing the broker (tournaments sweeps then).
app.steps["consumer"].add(AnnounceReconnect)
# Celery replaces the root logger's handlers with its own: they redact secrets too (core.logging).
after_setup_logger.connect(redact_handlers, weak=False)
after_setup_task_logger.connect(redact_handlers, weak=False)

# The embedded broker's URLs (sqla+sqlite:///…) use kombu's SQLAlchemy transport, polled as a
# worker needs (core.broker: without it a two-process worker took at most two tasks a second).
TRANSPORT_ALIASES["sqla"] = TRANSPORT_ALIASES["sqlalchemy"] = "core.broker:EmbeddedTransport"
