"""A match's private links: opaque random secrets, one per seat and one for the table.

A link is ``https://<site>/l/#<secret>``: the secret is the URL's fragment, which browsers
never send to the server, so it appears in no access log; a small script on ``/l/`` posts it
(``/l/<secret>/`` works too, for a link typed by hand). The secret is 32 url-safe characters
(192 bits): ``HMAC-SHA256(link key, nonce)`` of a random 128-bit nonce stored with the key's row
(:class:`scoring.models.MatchKey`) and the server's link key (``KNOCK_LINK_KEY``, by default
derived from ``SECRET_KEY``). The database keeps only the nonce and ``SHA-256(secret)``: a
copy of the database alone reveals no link, a director is still shown the links, and a
presented secret is found by its digest and then compared with :func:`hmac.compare_digest`.
The secret carries no data (no match id, no seat): everything is looked up.

A secret stays the same until a director reissues it (printed slips keep working); reissuing
revokes the old row, and a revoked or unknown secret finds nothing. A key of a finished match
stops working ``KNOCK_LINK_TTL_HOURS`` after the match ended.

On the pages a secret is exchanged on first visit for a seat session (:func:`session_grant`:
the key's id kept in the signed-in-or-not Django session) and the browser is redirected to the
clean match URL, so the secret does not stay in the address bar, history, ``Referer`` or
access logs. API clients send it in the ``X-Match-Key`` header.

A valid secret always opens. Invalid ones are counted per client address
(:func:`core.net.client_ip`) in the cache shared by every process (:func:`key_open`): past
``KNOCK_LINK_FAILURE_LIMIT`` in ``KNOCK_LINK_FAILURE_WINDOW`` seconds, that address's invalid
secrets answer 429 instead of 404 until the window passes.

This module finds and derives keys; it does not decide permissions (``scoring.permissions``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from scoring.models import Match, MatchKey

logger = logging.getLogger(__name__)

LINK_HEADER = "X-Match-Key"
LINK_PARAM = "k"
SESSION_KEY = "knock.links"
SECRET_LENGTH = 32


@dataclass(frozen=True, slots=True)
class MatchLink:
    """What a valid key proves: it is ``key_id`` of ``match_id``, for ``position`` if not None."""

    key_id: int
    match_id: int
    position: int | None


def _link_key() -> bytes:
    configured = getattr(settings, "KNOCK_LINK_KEY", "") or ""
    if configured:
        return str(configured).encode()
    return hashlib.sha256(b"knock.match-link:" + settings.SECRET_KEY.encode()).digest()


def new_nonce() -> str:
    """A fresh random nonce (128 bits) for a new key."""
    return secrets.token_hex(16)


def secret_of(nonce: str) -> str:
    """The link secret of the key with ``nonce``: 32 url-safe characters, no padding."""
    mac = hmac.new(_link_key(), nonce.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")[:SECRET_LENGTH]


def digest_of(secret: str) -> str:
    """The stored digest of ``secret`` (what a presented secret is found by)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def secret_from(value: str) -> str:
    """The secret in ``value``: the secret itself, or a whole link URL (``.../l/<secret>/``)."""
    value = value.strip()
    if "/l/" in value:
        value = value.rsplit("/l/", 1)[1].lstrip("#").split("/", 1)[0].split("?", 1)[0]
    return value.lstrip("#")


def looks_like_secret(value: str) -> bool:
    """Cheap shape check before any lookup: the right length and url-safe characters only."""
    return len(value) == SECRET_LENGTH and all(
        c.isascii() and (c.isalnum() or c in "-_") for c in value
    )


def link_expired(match: Match, *, now: Any = None) -> bool:
    """True once a finished match's links have stopped working."""
    if match.status != Match.Status.FINISHED or match.finished_at is None:
        return False
    hours = float(getattr(settings, "KNOCK_LINK_TTL_HOURS", 24))
    return (now or timezone.now()) >= match.finished_at + timedelta(hours=hours)


def key_find(*, secret: str) -> MatchKey | None:
    """The active key whose secret is ``secret``, or None (unknown, revoked or malformed)."""
    if not looks_like_secret(secret):
        return None
    key = (
        MatchKey.objects.select_related("match")
        .filter(digest=digest_of(secret), revoked_at__isnull=True)
        .first()
    )
    if key is None or not hmac.compare_digest(secret_of(key.nonce), secret):
        return None
    return key


def link_url(request: HttpRequest, key: MatchKey) -> str:
    """The absolute URL of ``key``'s link (what a QR code or a printed slip holds): the secret is
    the fragment (``/l/#<secret>``), which browsers never send to the server."""
    return request.build_absolute_uri(reverse("match-link-open")) + "#" + secret_of(key.nonce)


def key_link(key: MatchKey) -> MatchLink:
    return MatchLink(key_id=key.pk, match_id=key.match_id, position=key.position)


def keys_for(*, match: Match, secret: str | None, key_ids: list[int]) -> list[MatchLink]:
    """The still-valid links an actor holds for ``match``: a presented secret and session keys."""
    found: list[MatchLink] = []
    if link_expired(match):
        return found
    if secret:
        key = key_find(secret=secret)
        if key is not None and key.match_id == match.pk:
            found.append(key_link(key))
    if key_ids:
        seen = {link.key_id for link in found}
        for key in MatchKey.objects.filter(
            pk__in=key_ids, match_id=match.pk, revoked_at__isnull=True
        ):
            if key.pk not in seen:
                found.append(key_link(key))
    return found


# -- the seat session ----------------------------------------------------------------------------


def session_keys(session: Any) -> dict[str, int]:
    """The session's keys: match id (as text) → key id."""
    if session is None:
        return {}
    raw = session.get(SESSION_KEY) or {}
    if not isinstance(raw, dict):
        return {}
    return {str(k): v for k, v in raw.items() if isinstance(v, int)}


def session_grant(session: Any, key: MatchKey) -> None:
    """Remember in the session that this browser holds ``key`` (one key per match: the last)."""
    keys = session_keys(session)
    keys[str(key.match_id)] = key.pk
    session[SESSION_KEY] = keys
    session.cycle_key()


# -- the limit on invalid secrets -----------------------------------------------------------------
#
# A valid secret always opens, whatever anyone sent before it from any address: the limit is
# consulted only once a presented secret has been found invalid. Guessing is kept infeasible by
# the secret's 192 bits, not by the limit (docs/security.md); the limit answers a client that
# keeps sending invalid secrets with 429 and Retry-After instead of 404, so a scanner is told to
# stop and an old slip scanned by mistake says what happened. Counts live in the cache shared
# by every web process (Redis in production, core.cache's locked file cache by default), with
# an atomic add-then-increment. A cache that cannot count (Redis down) never refuses anything:
# the link answers as if unlimited and the log says so.


class LinkRefused(Exception):
    """An invalid secret: ``status`` 404, or 429 once its address is over the limit."""

    def __init__(self, *, status: int, retry_after: int | None = None) -> None:
        super().__init__(status)
        self.status = status
        self.retry_after = retry_after


def _failure_cache_key(ip: str | None) -> str:
    return f"knock:bad-link:{ip or 'unknown'}"


def failure_limit() -> int:
    return int(getattr(settings, "KNOCK_LINK_FAILURE_LIMIT", 20))


def failure_window() -> int:
    return int(getattr(settings, "KNOCK_LINK_FAILURE_WINDOW", 600))


def bad_secret_note(ip: str | None) -> int:
    """Count one invalid secret from ``ip`` and return the count in the window (0 when the
    cache cannot count). The window starts at the address's first invalid secret."""
    key = _failure_cache_key(ip)
    try:
        if cache.add(key, 1, timeout=failure_window()):
            return 1
        try:
            return int(cache.incr(key))
        except ValueError:  # expired between add and incr
            cache.add(key, 1, timeout=failure_window())
            return 1
    except Exception:  # the cache is down: never a reason to refuse a link
        logger.warning(
            "link limit: the cache cannot count invalid links; not limiting", exc_info=True
        )
        return 0


def bad_secret_blocked(ip: str | None) -> bool:
    """True while ``ip`` is over the limit of invalid secrets (False if the cache is down)."""
    try:
        return int(cache.get(_failure_cache_key(ip), 0)) >= failure_limit()
    except Exception:
        logger.warning("link limit: the cache cannot be read; not limiting", exc_info=True)
        return False


def key_open(*, secret: str, ip: str | None) -> MatchKey:
    """The active key of ``secret``; else count the failure against ``ip`` and raise
    :class:`LinkRefused` (404, or 429 past ``KNOCK_LINK_FAILURE_LIMIT`` in the window)."""
    key = key_find(secret=secret)
    if key is not None:
        return key
    if bad_secret_note(ip) > failure_limit():
        raise LinkRefused(status=429, retry_after=failure_window())
    raise LinkRefused(status=404)
