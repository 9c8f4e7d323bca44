"""Writes for site-wide records."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models.functions import Coalesce
from django.utils import timezone

from core.models import BEAT_HOSTNAME_PREFIX, ApiToken, WorkerHeartbeat
from core.tokens import token_digest, token_new_key, token_prefix

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# A person keeps at most this many API tokens: making one more revokes the one unused longest
# (a script that asks for a token on every run, and never revokes it, leaves no pile behind).
TOKENS_PER_USER = 20
# How stale ``last_used`` may be before a request writes it again: one write per token per
# interval, not one per request.
TOKEN_TOUCH_EVERY = timedelta(minutes=5)


def worker_heartbeat_record(*, hostname: str, at: datetime | None = None) -> WorkerHeartbeat:
    """Record that ``hostname`` is alive (idempotent: one row per worker, moved forward)."""
    heartbeat, _ = WorkerHeartbeat.objects.update_or_create(
        hostname=hostname, defaults={"last_seen": at or timezone.now()}
    )
    return heartbeat


def beat_heartbeat_record(*, hostname: str, at: datetime | None = None) -> WorkerHeartbeat:
    """Record that the beat on ``hostname`` ticked (a row of its own, apart from the workers')."""
    return worker_heartbeat_record(hostname=f"{BEAT_HOSTNAME_PREFIX}{hostname}", at=at)


def worker_heartbeat_forget(*, hostname: str) -> None:
    """A worker that stops cleanly says so: /healthz need not wait for its beat to age."""
    WorkerHeartbeat.objects.filter(hostname=hostname).delete()


def api_token_create(*, user: User, name: str = "") -> tuple[ApiToken, str]:
    """Make an API token for ``user``; answer it and its key, which nothing keeps.

    The key is to be shown once: the database keeps only its digest and its first characters.
    """
    key = token_new_key()
    with transaction.atomic():
        token = ApiToken.objects.create(
            user=user, digest=token_digest(key), prefix=token_prefix(key), name=name
        )
        keep = (
            ApiToken.objects.filter(user=user)
            .order_by(Coalesce("last_used", "created").desc(), "-pk")
            .values_list("pk", flat=True)[:TOKENS_PER_USER]
        )
        ApiToken.objects.filter(user=user).exclude(pk__in=list(keep)).delete()
    return token, key


def api_token_revoke(*, token: ApiToken) -> None:
    """Revoke one token: it signs no one in from now on."""
    ApiToken.objects.filter(pk=token.pk).delete()


def api_token_revoke_all(*, user: User) -> int:
    """Revoke every token of ``user``; answer how many there were."""
    count, _ = ApiToken.objects.filter(user=user).delete()
    return count


def api_token_touch(*, token: ApiToken, at: datetime | None = None) -> None:
    """Note that ``token`` was used, at most once every :data:`TOKEN_TOUCH_EVERY`."""
    now = at or timezone.now()
    if token.last_used is not None and now - token.last_used < TOKEN_TOUCH_EVERY:
        return
    ApiToken.objects.filter(pk=token.pk).update(last_used=now)
    token.last_used = now
