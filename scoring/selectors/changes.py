"""What the live pages poll: a match's version, and the last change made to its hands.

A match's version is ``Match.live_seq``, one column read by primary key: it only grows, and every
write that changes what the match page shows bumps it in its own transaction (see
``scoring.services._common._lock``). The last change is read from the submissions' history
(django-simple-history keeps each move of an entry: entered, confirmed, disputed, withdrawn,
corrected), so the page can say who did what without any new bookkeeping.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.models import HandSubmission, Match


@dataclass(frozen=True, slots=True)
class MatchChange:
    """One move of an entry of the match, as the history recorded it."""

    id: int
    action: str  # entered | confirmed | disputed | withdrawn | corrected
    hand_number: int
    submission_id: int
    player_id: int | None
    player_name: str
    user_id: int | None
    user_name: str


def match_version(*, match_id: int) -> int | None:
    """The match's live version (None: no such match). One indexed read, nothing else."""
    row: int | None = Match.objects.filter(pk=match_id).values_list("live_seq", flat=True).first()
    return row


def match_version_stamp(*, match_id: int) -> tuple[int, Any] | None:
    """The match's live version and creation time (which tells apart two matches given the
    same id, a database restored): what a process may key what it remembers of a match by."""
    row: tuple[int, Any] | None = (
        Match.objects.filter(pk=match_id).values_list("live_seq", "created_at").first()
    )
    return row


def _action(status: str, override_reason: str) -> str:
    if status == HandSubmission.Status.PENDING:
        return "entered"
    if status == HandSubmission.Status.CONFIRMED:
        return "corrected" if override_reason else "confirmed"
    if status == HandSubmission.Status.DISPUTED:
        return "disputed"
    if status == HandSubmission.Status.WITHDRAWN:
        return "withdrawn"
    return "corrected"


def match_last_change(*, match_id: int) -> MatchChange | None:
    """The newest move of any entry of the match (None before the first entry)."""
    history = HandSubmission.history.model
    record = (
        history.objects.filter(hand__game__match_id=match_id)
        .select_related("hand", "history_player", "history_user")
        .order_by("-history_id")
        .first()
    )
    if record is None:
        return None
    player = record.history_player
    user = record.history_user
    return MatchChange(
        id=record.history_id,
        action=_action(record.status, record.override_reason),
        hand_number=record.hand.number,
        submission_id=record.id,
        player_id=player.pk if player is not None else None,
        player_name=player.name if player is not None else "",
        user_id=user.pk if user is not None else None,
        user_name=user.get_username() if user is not None else "",
    )
