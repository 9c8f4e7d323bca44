"""Reads for site-wide state: the health of the database, the broker and the workers; API
tokens."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from celery import current_app
from django.conf import settings
from django.db import connection
from django.utils import timezone

from core.models import BEAT_HOSTNAME_PREFIX, ApiToken, WorkerHeartbeat
from core.tokens import token_digest

if TYPE_CHECKING:
    from django.contrib.auth.models import User


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


# How long /healthz waits for the broker: a health check answers in seconds, never hangs.
BROKER_PROBE_SECONDS = 2.0


def _sqlite_broker(path: str) -> Check:
    """Whether the embedded broker's file can be written now: BEGIN IMMEDIATE takes the write
    lock every send and every receive needs (and is rolled back: nothing is written). Opening
    the file alone succeeds while another process holds it locked, so it proves nothing."""
    if not os.path.exists(path):
        return Check(True, "sqlite (made at the first message)")
    try:
        db = sqlite3.connect(
            f"file:{path}?mode=rw", uri=True, timeout=BROKER_PROBE_SECONDS, isolation_level=None
        )
        try:
            db.execute("BEGIN IMMEDIATE")
            db.execute("ROLLBACK")
        finally:
            db.close()
    except sqlite3.Error as exc:
        return Check(False, f"{type(exc).__name__}: {exc} ({path})")
    return Check(True, "sqlite")


def _broker() -> Check:
    # The project's Celery app, made current when config/__init__.py imports it (as Celery's
    # Django guide does): core imports nothing of config.
    app = current_app
    url = str(app.conf.broker_write_url or app.conf.broker_url or "")
    if url.startswith("sqla+sqlite:///"):
        return _sqlite_broker(url.removeprefix("sqla+sqlite:///"))
    timeouts = {
        "socket_connect_timeout": BROKER_PROBE_SECONDS,
        "socket_timeout": BROKER_PROBE_SECONDS,
    }
    try:
        # Redis answers PING when the connection is made (kombu's channel does it): with the
        # socket timeouts, a paused or unreachable Redis fails in seconds.
        with app.connection_for_write(
            connect_timeout=BROKER_PROBE_SECONDS, transport_options=timeouts
        ) as conn:
            conn.ensure_connection(max_retries=1, timeout=BROKER_PROBE_SECONDS)
            transport = conn.transport_cls
    except Exception as exc:  # kombu raises many types; all of them mean "unreachable"
        return Check(False, f"{type(exc).__name__}: {exc}")
    return Check(True, str(transport))


def _workers(database_ok: bool) -> tuple[Check, list[dict[str, str]]]:
    if not database_ok:
        return Check(False, "unknown: the database is down"), []
    max_age = timedelta(seconds=settings.KNOCK_WORKER_HEARTBEAT_MAX_AGE)
    since = timezone.now() - max_age
    live = list(
        WorkerHeartbeat.objects.filter(last_seen__gte=since)
        .exclude(hostname__startswith=BEAT_HOSTNAME_PREFIX)
        .order_by("hostname")
    )
    rows = [{"hostname": h.hostname, "last_seen": h.last_seen.isoformat()} for h in live]
    if not live:
        # A worker beats only while it can use its broker (core.signals): a silent one is dead,
        # or alive without a broker.
        return Check(
            False,
            f"no worker heartbeat in the last {max_age.seconds} s "
            "(no worker running, or none can reach the broker)",
        ), rows
    return Check(True, f"{len(live)} live"), rows


def _beat(database_ok: bool) -> tuple[Check, str | None]:
    """Whether beat ticked lately (core.beat records every tick), and when it last did.

    A dead beat stops the sweeps that finish work a lost message left undone: nothing looks
    wrong until results stop reaching the standings, so health says so as soon as it is late.
    """
    if not database_ok:
        return Check(False, "unknown: the database is down"), None
    last = (
        WorkerHeartbeat.objects.filter(hostname__startswith=BEAT_HOSTNAME_PREFIX)
        .order_by("-last_seen")
        .first()
    )
    if last is None:
        return Check(False, "beat has never ticked (start exactly one celery beat)"), None
    age = (timezone.now() - last.last_seen).total_seconds()
    seen = last.last_seen.isoformat()
    if age > settings.KNOCK_BEAT_HEARTBEAT_MAX_AGE:
        return Check(False, f"stale: beat's last tick was {age:.0f} s ago"), seen
    return Check(True, f"ticked {age:.0f} s ago"), seen


def health_status() -> dict[str, object]:
    """The state of every service Knock needs, as /healthz reports it."""
    database = _database()
    broker = _broker()
    workers, live = _workers(database.ok)
    beat, beat_seen = _beat(database.ok)
    ok = database.ok and broker.ok and workers.ok and beat.ok
    return {
        "status": "ok" if ok else "degraded",
        "database": {"ok": database.ok, "detail": database.detail},
        "broker": {"ok": broker.ok, "detail": broker.detail},
        "workers": {"ok": workers.ok, "detail": workers.detail, "live": live},
        "beat": {"ok": beat.ok, "detail": beat.detail, "last_seen": beat_seen},
    }


def api_token_by_key(*, key: str) -> ApiToken | None:
    """The token whose key is ``key`` (found by its digest), with its user; None if none."""
    return ApiToken.objects.select_related("user").filter(digest=token_digest(key)).first()


def api_tokens_of(*, user: User) -> list[ApiToken]:
    """``user``'s tokens, newest first (never their keys: nothing keeps them)."""
    return list(ApiToken.objects.filter(user=user).order_by("-created", "-pk"))
