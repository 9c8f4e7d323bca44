"""Ratings: a club's current ratings, a player's ratings with history, and rating periods."""

from __future__ import annotations

from datetime import date
from typing import Any

from clubs.models import Club, Player
from tournaments.models import Rating, RatingHistory


def club_ratings(*, club: Club) -> dict[int, Rating]:
    """The club's current two-player (Glicko-2) ratings by player id."""
    return {r.player_id: r for r in Rating.objects.filter(club=club, kind=Rating.Kind.GLICKO2)}


def player_ratings(*, player: Player) -> dict[str, Any]:
    """A player's current club ratings and their history, newest last."""
    current = list(Rating.objects.filter(player=player).order_by("kind"))
    history = list(RatingHistory.objects.filter(player=player).order_by("created_at", "id")[:1000])
    return {"player": player, "current": current, "history": history}


def club_rating_period_start(*, club: Club, day: date) -> date:
    """The first day of the club's rating period containing ``day``.

    Periods are ``rating_period_days`` long and counted from 2000-01-03 (a Monday), so a weekly
    period starts on Mondays and a 30-day period is the same for every match of the club.
    """
    epoch = date(2000, 1, 3)
    length = max(1, club.rating_period_days)
    offset = (day - epoch).days // length * length
    return date.fromordinal(epoch.toordinal() + offset)
