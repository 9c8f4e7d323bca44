"""Glicko-2 club ratings for two-player matches: a player's current period, re-rated from its
base."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date, timedelta

from django.db.models import Count, Q

from clubs.models import Club
from scoring.models import Match, Seat
from tournaments.algorithms.ratings import (
    Glicko2Rating,
    RatedGame,
    glicko2_update,
    rate_period,
)
from tournaments.models import Rating, RatingHistory

_NEW = Glicko2Rating()


def _as_glicko(r: Rating) -> Glicko2Rating:
    return Glicko2Rating(r.rating, r.deviation, r.volatility or _NEW.volatility)


def _period_base(r: Rating | None, period: date, length: int) -> Glicko2Rating:
    """The player's Glicko-2 rating at the start of ``period`` (with idle periods' RD growth)."""
    if r is None:
        return _NEW
    if r.period_start is None or r.base_rating is None:
        return _as_glicko(r)
    if r.period_start >= period:
        return Glicko2Rating(
            r.base_rating, r.base_deviation or _NEW.rd, r.base_volatility or _NEW.volatility
        )
    rating = _as_glicko(r)  # the closed period's result
    idle = (period - r.period_start).days // length - 1
    for _ in range(max(0, min(idle, 1000))):
        rating = glicko2_update(rating, [])
    return rating


def _two_player_matches(club: Club, start: date, end: date, players: Iterable[int]) -> list[int]:
    return list(
        Match.objects.filter(
            event__club=club,
            status=Match.Status.FINISHED,
            decision=Match.Decision.PLAYED,
            finished_at__date__gte=start,
            finished_at__date__lt=end,
        )
        .annotate(n=Count("seats", distinct=True))
        .filter(n=2, seats__player_id__in=list(players))
        .values_list("pk", flat=True)
        .distinct()
    )


def _games(match_ids: list[int]) -> list[RatedGame]:
    seats: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for mid, pid, pos in Seat.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "player_id", "position"
    ):
        seats[mid].append((pos, pid))
    winners = dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "winner_id"))
    games = []
    for mid in sorted(match_ids):
        (_, a), (_, b) = sorted(seats[mid])
        w = winners.get(mid)
        games.append(RatedGame(a, b, 0.5 if w is None else (1.0 if w == a else 0.0)))
    return games


def _glicko_rate(
    *, club: Club, period: date, affected: set[int], last_match: dict[int, int | None]
) -> None:
    """Re-rate ``affected`` players' games in ``period`` and store their ratings and history."""
    length = max(1, club.rating_period_days)
    end = period + timedelta(days=length)
    match_ids = _two_player_matches(club, period, end, affected)
    games = [g for g in _games(match_ids) if g.first in affected or g.second in affected]
    involved = affected | {g.first for g in games} | {g.second for g in games}
    stored = {
        r.player_id: r
        for r in Rating.objects.select_for_update().filter(
            club=club, kind=Rating.Kind.GLICKO2, player_id__in=involved
        )
    }
    bases = {pid: _period_base(stored.get(pid), period, length) for pid in involved}
    new = rate_period(bases, games)
    counts: dict[int, int] = defaultdict(int)
    for g in games:
        counts[g.first] += 1
        counts[g.second] += 1
    totals = dict(
        Seat.objects.filter(
            player_id__in=affected,
            match__event__club=club,
            match__status=Match.Status.FINISHED,
            match__decision=Match.Decision.PLAYED,
        )
        .values("player_id")
        .annotate(n=Count("id"))
        .values_list("player_id", "n")
    )
    to_create, to_update = [], []
    for pid in affected:
        value, base = new[pid], bases[pid]
        r = stored.get(pid)
        if r is None:
            r = Rating(club=club, player_id=pid, kind=Rating.Kind.GLICKO2)
            to_create.append(r)
        else:
            to_update.append(r)
        if r.period_start is None or r.period_start < period:
            r.period_start = period
        r.base_rating, r.base_deviation, r.base_volatility = base.rating, base.rd, base.volatility
        r.rating, r.deviation, r.volatility = value.rating, value.rd, value.volatility
        r.games = totals.get(pid, counts[pid])
    Rating.objects.bulk_create(to_create)
    Rating.objects.bulk_update(
        to_update,
        [
            "period_start",
            "base_rating",
            "base_deviation",
            "base_volatility",
            "rating",
            "deviation",
            "volatility",
            "games",
        ],
    )
    keys = Q()
    for pid in affected:
        keys |= Q(player_id=pid, match_id=last_match.get(pid))
    RatingHistory.objects.filter(keys, club=club, kind=Rating.Kind.GLICKO2).delete()
    RatingHistory.objects.bulk_create(
        [
            RatingHistory(
                club=club,
                player_id=pid,
                kind=Rating.Kind.GLICKO2,
                rating=new[pid].rating,
                deviation=new[pid].rd,
                volatility=new[pid].volatility,
                match_id=last_match.get(pid),
                period_start=period,
            )
            for pid in affected
        ]
    )
