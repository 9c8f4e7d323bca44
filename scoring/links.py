"""The private per-match link: a signed token that lets players without an account act at a match.

A token signs the match id, a fingerprint of the match's ``link_secret`` (so a director can revoke
every link of a match by changing the secret) and, optionally, a seat position. A token with a
position is that player's own link ("the opponent's own link"); a token without one is the table
link, whose holder says which player they are when it matters. Tokens travel as the ``k`` query
parameter or the ``X-Match-Key`` header. This module must not decide permissions
(``scoring.permissions`` does).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.core import signing

from scoring.models import Match

_SALT = "scoring.match-link"
LINK_HEADER = "X-Match-Key"
LINK_PARAM = "k"


@dataclass(frozen=True, slots=True)
class MatchLink:
    """What a valid token proves: it was issued for ``match_id``, for ``position`` if not None."""

    match_id: int
    position: int | None


def _fingerprint(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()[:16]


def match_link_token(*, match: Match, position: int | None = None) -> str:
    """The token of ``match``'s table link, or of the player at ``position``."""
    payload: dict[str, object] = {"m": match.pk, "f": _fingerprint(match.link_secret)}
    if position is not None:
        payload["p"] = position
    return signing.dumps(payload, salt=_SALT, compress=True)


def match_link_read(*, token: str, match: Match) -> MatchLink | None:
    """The link ``token`` proves for ``match``, or None if it is forged, foreign or revoked."""
    try:
        data = signing.loads(token, salt=_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("m") != match.pk:
        return None
    if data.get("f") != _fingerprint(match.link_secret):
        return None
    position = data.get("p")
    if position is not None and not isinstance(position, int):
        return None
    return MatchLink(match_id=match.pk, position=position)
