"""What the live pages poll: a match's version, and the last change made to its hands.

A match's version is ``Match.live_seq``, one column read by primary key: it only grows, and every
write that changes what the match page shows bumps it in its own transaction (see
``scoring.services.common.match_lock``). The last change is read from the submissions' history
(django-simple-history keeps each move of an entry: entered, confirmed, disputed, withdrawn,
corrected), so the page can say who did what without any new bookkeeping.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

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
    """The newest move of any entry of the match (None before the first entry).

    Read as the few columns the change needs (one query, as before): a history row carries the
    entry, its payload and its verdict as JSON, which every player's fragment would otherwise
    decode only to say who did what. The player and the user are read through their joins (one
    since deleted is nobody, as it was when they were read with ``select_related``)."""
    history = HandSubmission.history.model
    username = f"history_user__{get_user_model().USERNAME_FIELD}"
    row = (
        history.objects.filter(hand__game__match_id=match_id)
        .order_by("-history_id")
        .values_list(
            "history_id",
            "status",
            "override_reason",
            "hand__number",
            "id",
            "history_player__id",
            "history_player__name",
            "history_user__id",
            username,
        )
        .first()
    )
    if row is None:
        return None
    history_id, status, override_reason, number, sub_id, player_id, player, user_id, user = row
    return MatchChange(
        id=history_id,
        action=_action(status, override_reason),
        hand_number=number,
        submission_id=sub_id,
        player_id=player_id,
        player_name=player if player_id is not None else "",
        user_id=user_id,
        user_name=str(user) if user_id is not None else "",
    )
