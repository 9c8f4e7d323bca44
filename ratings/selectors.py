"""Ratings: a club's current ratings, a player's ratings with history, and rating periods.

Reads only; tournaments reads them (pairing by rating, the club and player pages).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any

from clubs.models import Club, Player
from ratings.models import Rating, RatingHistory


def club_ratings(*, club: Club) -> dict[int, Rating]:
    """The club's current two-player (Glicko-2) ratings by player id."""
    return {r.player_id: r for r in Rating.objects.filter(club=club, kind=Rating.Kind.GLICKO2)}


def club_rating_values(
    *, club_id: int, player_ids: Iterable[int] | None = None
) -> dict[int, float]:
    """The club's current two-player (Glicko-2) rating numbers by player id (all players, or
    only ``player_ids``): what pairing and seeding order by."""
    qs = Rating.objects.filter(club_id=club_id, kind=Rating.Kind.GLICKO2)
    if player_ids is not None:
        qs = qs.filter(player_id__in=list(player_ids))
    return dict(qs.values_list("player_id", "rating"))


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """One point of a player's rating history: the rating after a match (or a period without
    one), dated by when that match finished."""

    kind: str
    on: date
    rating: float
    deviation: float
    match_id: int | None
    event_name: str


def _when(h: RatingHistory) -> datetime:
    if h.match is not None and h.match.finished_at is not None:
        return h.match.finished_at
    if h.period_start is not None:
        return datetime.combine(h.period_start, time.min, tzinfo=UTC)
    return h.created_at


def player_ratings(*, player: Player) -> dict[str, Any]:
    """A player's current club ratings and their history in the order it was played (by the
    finishing time of the match that moved it), oldest first, with ``points`` for the page."""
    current = list(Rating.objects.filter(player=player).order_by("kind"))
    rows = list(
        RatingHistory.objects.filter(player=player)
        .select_related("match__event")
        .order_by("-id")[:1000]
    )
    history = sorted(rows, key=lambda h: (_when(h), h.pk))
    points = [
        RatingPoint(
            kind=h.kind,
            on=_when(h).date(),
            rating=h.rating,
            deviation=h.deviation,
            match_id=h.match_id,
            event_name=h.match.event.name if h.match is not None else "",
        )
        for h in history
    ]
    return {"player": player, "current": current, "history": history, "points": points}


def club_rating_period_start(*, club: Club, day: date) -> date:
    """The first day of the club's rating period containing ``day``.

    Periods are ``rating_period_days`` long and counted from 2000-01-03 (a Monday), so a weekly
    period starts on Mondays and a 30-day period is the same for every match of the club.
    """
    epoch = date(2000, 1, 3)
    length = max(1, club.rating_period_days)
    offset = (day - epoch).days // length * length
    return date.fromordinal(epoch.toordinal() + offset)
