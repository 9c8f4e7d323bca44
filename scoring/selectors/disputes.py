"""Disputed entries: the one list an event's directors work through."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from scoring.models import HandSubmission
from scoring.selectors.shapes import submission_out


def disputes_open(*, event_id: int) -> QuerySet[HandSubmission]:
    """Event ``event_id``'s disputed entries not settled yet, oldest dispute first."""
    return (
        HandSubmission.objects.filter(
            hand__game__match__event_id=event_id, status=HandSubmission.Status.DISPUTED
        )
        .select_related(
            "hand__game__match",
            "submitted_by_player",
            "submitted_by_user",
            "confirmed_by_player",
            "confirmed_by_user",
            "disputed_by_player",
            "disputed_by_user",
        )
        .prefetch_related("hand__game__match__seats__player")
        .order_by("disputed_at", "id")
    )


def dispute_out(sub: HandSubmission) -> dict[str, Any]:
    """A disputed entry as the director's list shows it: where, what, who said what."""
    match = sub.hand.game.match
    return {
        **submission_out(sub),
        "match": match.pk,
        "table_number": match.table_number,
        "players": [seat.player.name for seat in match.seats.all()],
        "disputed_at": sub.disputed_at.isoformat() if sub.disputed_at else None,
    }
