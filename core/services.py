"""Writes for site-wide records."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from core.models import WorkerHeartbeat


def worker_heartbeat_record(*, hostname: str, at: datetime | None = None) -> WorkerHeartbeat:
    """Record that ``hostname`` is alive (idempotent: one row per worker, moved forward)."""
    heartbeat, _ = WorkerHeartbeat.objects.update_or_create(
        hostname=hostname, defaults={"last_seen": at or timezone.now()}
    )
    return heartbeat


def worker_heartbeat_forget(*, hostname: str) -> None:
    """A worker that stops cleanly says so: /healthz need not wait for its beat to age."""
    WorkerHeartbeat.objects.filter(hostname=hostname).delete()
