"""Glicko-2 club ratings for two-player matches: a player's current period, re-rated from its
base."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date, timedelta

from django.db.models import Count

from clubs.models import Club
from ratings.algorithms import (
    GameOutcome,
    Glicko2Rating,
    RatedGame,
    glicko2_steps,
    glicko2_update,
    rate_period,
)
from ratings.models import Rating, RatingHistory
from scoring.models import Match, Seat

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


def _games(match_ids: list[int]) -> list[tuple[int, RatedGame]]:
    """The matches as rated games with their match ids, in the order they finished."""
    seats: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for mid, pid, pos in Seat.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "player_id", "position"
    ):
        seats[mid].append((pos, pid))
    rows = Match.objects.filter(pk__in=match_ids).values_list("pk", "winner_id", "finished_at")
    games = []
    for mid, w, _finished in sorted(rows, key=lambda r: (r[2] is None, r[2], r[0])):
        (_, a), (_, b) = sorted(seats[mid])
        games.append((mid, RatedGame(a, b, 0.5 if w is None else (1.0 if w == a else 0.0))))
    return games


def club_ratings_lock(club_id: int) -> None:
    """Take the club's row lock: every rating write of a club holds it, one writer at a time.

    Glicko-2 updates, the batch path, withdrawals and OpenSkill rebuilds all take it first,
    before any rating or history row, so concurrent workers (or a correction and a worker)
    wait in turn instead of locking rating and history rows in different orders and
    deadlocking on PostgreSQL. A transaction that also writes an event's row takes that first,
    as a correction does (its results bump, then the ratings it withdraws); nothing holds this
    lock while it waits for an event's row. Must run inside a transaction; taking it again is
    free.
    """
    list(Club.objects.select_for_update().filter(pk=club_id).values_list("pk", flat=True))


def glicko_period_rate(*, club: Club, period: date, affected: set[int]) -> None:
    """Re-rate ``affected`` players' games in ``period`` and store their ratings and history.

    The history of the period is rewritten for those players: one row per match they played
    in it, holding the provisional rating after that match (:func:`glicko2_steps`), so a
    player's history is dated by the matches that moved it; the last row is the period's
    rating. A player left with no game in the period (a match withdrawn) gets one row without
    a match: their rating back at the period's start, deviation grown. Holds the club's
    rating lock (:func:`club_ratings_lock`).
    """
    club_ratings_lock(club.pk)
    length = max(1, club.rating_period_days)
    end = period + timedelta(days=length)
    match_ids = _two_player_matches(club, period, end, affected)
    played = [
        (mid, g) for mid, g in _games(match_ids) if g.first in affected or g.second in affected
    ]
    games = [g for _mid, g in played]
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
    RatingHistory.objects.filter(
        club=club, kind=Rating.Kind.GLICKO2, player_id__in=affected, period_start=period
    ).delete()
    rows: list[RatingHistory] = []
    for pid in affected:
        mine: list[tuple[int, GameOutcome]] = []
        for mid, g in played:
            if g.first == pid:
                mine.append((mid, GameOutcome(bases[g.second], g.first_score)))
            elif g.second == pid:
                mine.append((mid, GameOutcome(bases[g.first], 1.0 - g.first_score)))
        steps = glicko2_steps(bases[pid], [o for _mid, o in mine])
        # The last step is the period's rating; the stored one is taken so that both agree.
        points: list[tuple[int | None, Glicko2Rating]] = [
            (mid, step) for (mid, _o), step in zip(mine[:-1], steps[:-1], strict=True)
        ]
        points.append((mine[-1][0] if mine else None, new[pid]))
        rows.extend(
            RatingHistory(
                club=club,
                player_id=pid,
                kind=Rating.Kind.GLICKO2,
                rating=value.rating,
                deviation=value.rd,
                volatility=value.volatility,
                match_id=mid,
                period_start=period,
            )
            for mid, value in points
        )
    RatingHistory.objects.bulk_create(rows, batch_size=500)
