"""Storing the matches a pairing or a bracket planned: the plan as a frozen value, and one bulk
insert of its matches, seats and first games. Used by rounds and brackets alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.utils import timezone

from scoring.models import Game, Match, Seat
from tournaments.models import Event, Round

if TYPE_CHECKING:
    pass


@dataclass(frozen=True, slots=True)
class PlannedMatch:
    """A match to store: players by seat (one player for a bye), how it is decided, its table."""

    players: tuple[int, ...]
    table: int | None = None
    decision: str = Match.Decision.PLAYED
    winner: int | None = None
    bye: str = ""
    bracket_key: str = ""


def planned_matches_store(
    event: Event, rnd: Round | None, planned: Sequence[PlannedMatch], user: object
) -> list[Match]:
    """Create the matches and seats in two bulk inserts; byes and walkovers are final at once."""
    now = timezone.now()
    matches = []
    for p in planned:
        final = p.decision != Match.Decision.PLAYED
        matches.append(
            Match(
                event=event,
                round=rnd,
                table_number=p.table,
                bracket_key=p.bracket_key,
                rules=event.rules,
                match_format=event.match_format,
                status=Match.Status.FINISHED if final else Match.Status.SCHEDULED,
                decision=p.decision,
                winner_id=p.winner,
                summary={"bye": p.bye} if p.bye else {},
                created_by=user if isinstance(user, get_user_model()) else None,
                finished_at=now if final else None,
            )
        )
    created = Match.objects.bulk_create(matches)
    Seat.objects.bulk_create(
        [
            Seat(match=m, player_id=pid, position=pos)
            for m, p in zip(created, planned, strict=True)
            for pos, pid in enumerate(p.players)
        ]
    )
    # A match to be played starts with its first game open, as scoring's ``match_start`` does.
    Game.objects.bulk_create(
        [
            Game(match=m, number=1, first_dealer=0)
            for m, p in zip(created, planned, strict=True)
            if p.decision == Match.Decision.PLAYED
        ]
    )
    return created
