"""Reads for site-wide state: the health of the database, the broker and the workers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from core.models import WorkerHeartbeat


@dataclass(frozen=True, slots=True)
class Check:
    ok: bool
    detail: str


def _database() -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down"; the message says which
        return Check(False, f"{type(exc).__name__}: {exc}")
    return Check(True, connection.vendor)


def _broker() -> Check:
    from config.celery_app import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=3)
            transport = conn.transport_cls
    except Exception as exc:  # kombu raises many types; all of them mean "unreachable"
        return Check(False, f"{type(exc).__name__}: {exc}")
    return Check(True, str(transport))


def _workers(database_ok: bool) -> tuple[Check, list[dict[str, str]]]:
    if not database_ok:
        return Check(False, "unknown: the database is down"), []
    max_age = timedelta(seconds=settings.KNOCK_WORKER_HEARTBEAT_MAX_AGE)
    since = timezone.now() - max_age
    live = list(WorkerHeartbeat.objects.filter(last_seen__gte=since).order_by("hostname"))
    rows = [{"hostname": h.hostname, "last_seen": h.last_seen.isoformat()} for h in live]
    if not live:
        return Check(False, f"no worker heartbeat in the last {max_age.seconds} s"), rows
    return Check(True, f"{len(live)} live"), rows


def health_status() -> dict[str, object]:
    """The state of every service Knock needs, as /healthz reports it."""
    database = _database()
    broker = _broker()
    workers, live = _workers(database.ok)
    ok = database.ok and broker.ok and workers.ok
    return {
        "status": "ok" if ok else "degraded",
        "database": {"ok": database.ok, "detail": database.detail},
        "broker": {"ok": broker.ok, "detail": broker.detail},
        "workers": {"ok": workers.ok, "detail": workers.detail, "live": live},
    }
