"""Operational records: which Celery workers are alive."""

from django.db import models


class WorkerHeartbeat(models.Model):
    """The last time a worker proved it consumes tasks from the broker.

    Written every few seconds by a thread in each worker's main process (``core.signals``), and
    by the ``core.tasks.heartbeat`` task beat sends. The database is the record, so /healthz works
    the same with any broker and any number of workers.
    """

    hostname = models.CharField(max_length=255, unique=True)
    last_seen = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.hostname} @ {self.last_seen:%Y-%m-%d %H:%M:%S}"
