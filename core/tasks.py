"""Site-wide background tasks."""

import socket

from celery import shared_task

from core.services import worker_heartbeat_record


@shared_task(ignore_result=True)
def heartbeat() -> None:
    """Sent by beat every 20 s: whichever worker takes it proves the broker-to-worker path."""
    from celery import current_task

    hostname = getattr(current_task.request, "hostname", None) or socket.gethostname()
    worker_heartbeat_record(hostname=str(hostname))


@shared_task(ignore_result=True, acks_late=True)
def nightly_backup() -> None:
    """Asked every 15 minutes by beat: one backup a day on the embedded SQLite, old ones pruned."""
    from core.backups import backup_nightly

    backup_nightly()
