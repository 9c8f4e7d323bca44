"""A worker records a heartbeat the moment it is ready, so health turns green without waiting
for beat's first tick."""

from typing import Any

from celery.signals import worker_ready

from core.services import worker_heartbeat_record


@worker_ready.connect
def _worker_ready(sender: Any = None, **_: Any) -> None:
    hostname = getattr(sender, "hostname", None) or "worker"
    worker_heartbeat_record(hostname=str(hostname))
