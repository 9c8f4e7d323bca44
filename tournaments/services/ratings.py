"""Writes for club ratings: Glicko-2 for two-player matches, OpenSkill for 3-6 players and teams.

Glicko-2 rates a period at once from everybody's rating at its start. Knock keeps each club
rating *provisionally current* during a period: ``Rating.base_*`` is the player's rating at the
start of the current period and ``Rating.rating`` the result of rating every game they have played
in this period so far from that base. Each finished match re-rates its two players' period (the
other players' ratings do not depend on it), so the value shown is always what Glicko-2 would
give if the period closed now, and running an update twice gives the same numbers. A period
without games grows the deviation (Glicko-2 step 6) when the player next plays. A match from a
period before the player's current one counts in the current one.

OpenSkill (Plackett-Luce) rates match by match, so a rating depends on every earlier match.
A newly final match is applied on top of the stored ratings; a correction (a match rated
already, re-opened or changed) rebuilds the club's OpenSkill ratings and history by replaying
its stored multi-player results in (finished_at, id) order from the initial rating
(:func:`ratings_openskill_rebuild`), which gives the numbers the corrected results would have
given from the start. Both paths give the same numbers, and running either twice changes nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import date, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone

from scoring.models import Game, Match, Seat
from tournaments.algorithms.ratings import (
    Glicko2Rating,
    RatedGame,
    RatingState,
    glicko2_update,
    rate_multiplayer,
    rate_period,
)
from tournaments.models import Club, Event, Rating, RatingHistory
from tournaments.selectors import club_rating_period_start

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


def _openskill_sides(
    seats: Sequence[tuple[int, int, int | None]],
    winner_id: int | None,
    winner_team: int | None,
    results: Iterable[dict[str, Any] | None],
) -> tuple[list[list[int]], list[int]]:
    """The sides of a multi-player match (players by seat) and their ranks, 1 = winner.

    A game's ``final_totals`` are per seat, or per team in a partnership (the engine's sides);
    the winner ranks first, the others by their summed totals (equal totals tie).
    """
    teams: dict[object, list[tuple[int, int]]] = {}
    for pos, pid, team in sorted(seats):
        teams.setdefault(team if team is not None else f"seat{pos}", []).append((pos, pid))
    totals: dict[int, int] = defaultdict(int)
    for result in results:
        for pos, value in enumerate((result or {}).get("final_totals") or []):
            totals[pos] += int(value)
    scores = []
    for key, members in teams.items():
        pids = [pid for _, pid in members]
        if isinstance(key, int):
            score = totals.get(key, 0)
            won = winner_team == key or (winner_id is not None and winner_id in pids)
        else:
            score = sum(totals.get(pos, 0) for pos, _ in members)
            won = winner_id is not None and winner_id in pids
        scores.append(10**9 if won else score)
    distinct = sorted(set(scores), reverse=True)
    ranks = [distinct.index(s) + 1 for s in scores]
    return [[pid for _, pid in members] for members in teams.values()], ranks


def _is_openskill(seats: Sequence[tuple[int, int, int | None]]) -> bool:
    """Whether a match of these seats is rated by OpenSkill (3-6 seats, or any partnership)."""
    n = len(seats)
    return 2 <= n <= 6 and not (n == 2 and all(t is None for _, _, t in seats))


def _openskill_final_matches(club: Club) -> QuerySet[Match]:
    """The club's final, played matches with 2-6 seats (the two-seat ones filtered later)."""
    return (
        Match.objects.filter(
            event__club=club, status=Match.Status.FINISHED, decision=Match.Decision.PLAYED
        )
        .annotate(n=Count("seats"))
        .filter(n__gte=2, n__lte=6)
    )


def _openskill_replay(
    club: Club,
) -> tuple[dict[int, tuple[RatingState, int]], dict[tuple[int, int], RatingState]]:
    """Rate every final multi-player match of ``club`` from the initial rating, in the order
    (finished_at, id): each player's rating and match count, and each (match, player)'s rating
    after that match. Three queries, then pure arithmetic."""
    matches = _openskill_final_matches(club)
    order = list(
        matches.order_by(F("finished_at").asc(nulls_first=True), "pk").values_list(
            "pk", "winner_id", "winner_team"
        )
    )
    ids = matches.values("pk")
    seats: dict[int, list[tuple[int, int, int | None]]] = defaultdict(list)
    for mid, pos, pid, team in Seat.objects.filter(match_id__in=ids).values_list(
        "match_id", "position", "player_id", "team"
    ):
        seats[mid].append((pos, pid, team))
    results: dict[int, list[dict[str, Any] | None]] = defaultdict(list)
    for mid, result in (
        Game.objects.filter(match_id__in=ids, status=Game.Status.FINISHED)
        .order_by("match_id", "number")
        .values_list("match_id", "result")
    ):
        results[mid].append(result)
    current: dict[int, tuple[RatingState, int]] = {}
    after: dict[tuple[int, int], RatingState] = {}
    for mid, winner_id, winner_team in order:
        if not _is_openskill(seats[mid]):
            continue
        sides, ranks = _openskill_sides(seats[mid], winner_id, winner_team, results[mid])
        if len(sides) < 2:
            continue
        before = [[current.get(pid, (RatingState(), 0))[0] for pid in side] for side in sides]
        for side, states in zip(sides, rate_multiplayer(before, ranks), strict=True):
            for pid, state in zip(side, states, strict=True):
                current[pid] = (state, current.get(pid, (state, 0))[1] + 1)
                after[(mid, pid)] = state
    return current, after


def ratings_openskill_rebuild(*, club: Club) -> int:
    """Rebuild ``club``'s OpenSkill ratings and history by replaying its stored results.

    Every final multi-player or partnership match is rated again in (finished_at, id) order from
    the initial rating, so a corrected, re-opened or removed match counts as it stands now.
    Only what differs is written: a rating or history row whose numbers still hold is kept (with
    its time), a history row whose numbers changed is replaced by the rebuilt one, rows of
    matches that no longer count are deleted, and a player left without any rated match loses
    the OpenSkill rating. Running it twice writes nothing the second time. Returns the number
    of rows written or deleted.
    """
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)  # one rebuild per club at a time
        current, after = _openskill_replay(club)
        kind = Rating.Kind.OPENSKILL
        written = 0
        stored = {r.player_id: r for r in Rating.objects.filter(club=club, kind=kind)}
        create, update = [], []
        for pid, (state, games) in current.items():
            r = stored.pop(pid, None)
            if r is None:
                create.append(
                    Rating(
                        club=club,
                        player_id=pid,
                        kind=kind,
                        rating=state.mu,
                        deviation=state.sigma,
                        games=games,
                    )
                )
            elif (r.rating, r.deviation, r.games) != (state.mu, state.sigma, games):
                r.rating, r.deviation, r.games = state.mu, state.sigma, games
                update.append(r)
        Rating.objects.bulk_create(create, batch_size=500)
        Rating.objects.bulk_update(update, ["rating", "deviation", "games"], batch_size=500)
        if stored:
            Rating.objects.filter(pk__in=[r.pk for r in stored.values()]).delete()
        written += len(create) + len(update) + len(stored)
        # History: a row whose numbers still hold stays; any other row is replaced (deleting
        # and inserting is several times faster than a bulk UPDATE of thousands of rows).
        gone: list[int] = []
        kept: set[tuple[int, int]] = set()
        for pk, mid, pid, mu, sigma in RatingHistory.objects.filter(
            club=club, kind=kind
        ).values_list("pk", "match_id", "player_id", "rating", "deviation"):
            key = (mid or 0, pid)
            rebuilt = after.get(key)
            if rebuilt is None or key in kept or (mu, sigma) != (rebuilt.mu, rebuilt.sigma):
                gone.append(pk)
            else:
                kept.add(key)
        for start in range(0, len(gone), 500):
            RatingHistory.objects.filter(pk__in=gone[start : start + 500]).delete()
        new_rows = [
            RatingHistory(
                club=club,
                player_id=pid,
                kind=kind,
                rating=state.mu,
                deviation=state.sigma,
                match_id=mid,
            )
            for (mid, pid), state in after.items()  # in match order, so ids follow the matches
            if (mid, pid) not in kept
        ]
        RatingHistory.objects.bulk_create(new_rows, batch_size=500)
        return written + len(gone) + len(new_rows)


def _openskill_rate(match: Match, seats: list[tuple[int, int, int | None]]) -> None:
    """Rate one final multi-player or partnership match.

    A match newer than every rated one (the usual case) is applied on top of the stored
    ratings, which is what a replay would give; anything else (the match already rated, so a
    correction or a repeat, or an older match rated late) rebuilds the club's OpenSkill ratings
    from the stored results (:func:`ratings_openskill_rebuild`), so the numbers never depend on
    the order the updates ran in.
    """
    club = Club.objects.select_for_update().get(pk=match.event.club_id)
    kind = Rating.Kind.OPENSKILL
    history = RatingHistory.objects.filter(club=club, kind=kind)
    f = match.finished_at
    if (
        f is None
        or history.filter(match=match).exists()
        or history.filter(
            Q(match__isnull=True)
            | Q(match__finished_at__isnull=True)
            | Q(match__finished_at__gt=f)
            | Q(match__finished_at=f, match_id__gt=match.pk)
        ).exists()
    ):
        ratings_openskill_rebuild(club=club)
        return
    sides, ranks = _openskill_sides(
        seats,
        match.winner_id,
        match.winner_team,
        Game.objects.filter(match=match, status=Game.Status.FINISHED)
        .order_by("number")
        .values_list("result", flat=True),
    )
    if len(sides) < 2:
        return
    players = [pid for side in sides for pid in side]
    stored = {
        r.player_id: r
        for r in Rating.objects.select_for_update().filter(
            club=club, kind=kind, player_id__in=players
        )
    }
    before = [
        [
            RatingState(stored[pid].rating, stored[pid].deviation)
            if pid in stored
            else RatingState()
            for pid in side
        ]
        for side in sides
    ]
    rows = []
    for side, states in zip(sides, rate_multiplayer(before, ranks), strict=True):
        for pid, state in zip(side, states, strict=True):
            r = stored.get(pid) or Rating(club=club, player_id=pid, kind=kind)
            r.rating, r.deviation, r.games = state.mu, state.sigma, r.games + 1
            r.save()
            rows.append(
                RatingHistory(
                    club=club,
                    player_id=pid,
                    kind=kind,
                    rating=state.mu,
                    deviation=state.sigma,
                    match=match,
                )
            )
    RatingHistory.objects.bulk_create(rows)


def ratings_update_for_match(*, match_id: int) -> None:
    """Update the club ratings after one final match (idempotent; nothing for byes, walkovers)."""
    with transaction.atomic():
        match = Match.objects.select_related("event__club").filter(pk=match_id).first()
        if match is None:
            return
        if match.status != Match.Status.FINISHED or match.decision != Match.Decision.PLAYED:
            # No longer rated: if OpenSkill still counts it, take it out by a rebuild.
            if RatingHistory.objects.filter(match=match, kind=Rating.Kind.OPENSKILL).exists():
                ratings_openskill_rebuild(club=match.event.club)
            return
        seats = sorted(match.seats.values_list("position", "player_id", "team"))
        if len(seats) < 2:
            return
        if len(seats) == 2 and all(t is None for _, _, t in seats):
            club = match.event.club
            day = (match.finished_at or timezone.now()).date()
            period = club_rating_period_start(club=club, day=day)
            players = {pid for _, pid, _ in seats}
            current = dict(
                Rating.objects.filter(
                    club=club, kind=Rating.Kind.GLICKO2, player_id__in=players
                ).values_list("player_id", "period_start")
            )
            period = max([period, *(p for p in current.values() if p is not None)])
            _glicko_rate(
                club=club,
                period=period,
                affected=players,
                last_match=dict.fromkeys(players, match.pk),
            )
        elif _is_openskill(seats):
            _openskill_rate(match, seats)


def ratings_withdraw_match(*, match: Match, day: date) -> None:
    """Take a match that is no longer final (a correction re-opened it) out of the ratings.

    Two-player ratings re-rate the players' current period from the stored results, which no
    longer include the match, exactly as :func:`ratings_update_for_match` would: idempotent.
    A multi-player match that OpenSkill counted rebuilds the club's OpenSkill ratings from the
    stored results (:func:`ratings_openskill_rebuild`), which no longer include it.
    """
    seats = sorted(Seat.objects.filter(match=match).values_list("position", "player_id", "team"))
    if _is_openskill(seats):
        if RatingHistory.objects.filter(match=match, kind=Rating.Kind.OPENSKILL).exists():
            ratings_openskill_rebuild(club=Club.objects.get(pk=match.event.club_id))
        return
    if len(seats) != 2:
        return
    club = Club.objects.get(pk=match.event.club_id)
    players = {pid for _, pid, _ in seats}
    current = Rating.objects.filter(club=club, kind=Rating.Kind.GLICKO2, player_id__in=players)
    if not current.exists():
        return
    period = max(
        [
            club_rating_period_start(club=club, day=day),
            *(p for p in current.values_list("period_start", flat=True) if p is not None),
        ]
    )
    RatingHistory.objects.filter(match=match, kind=Rating.Kind.GLICKO2).delete()
    last: dict[int, int | None] = dict.fromkeys(players)
    _glicko_rate(club=club, period=period, affected=players, last_match=last)


def ratings_update_for_event(*, event: Event) -> int:
    """Re-rate every two-player match of ``event`` at once (the batch path); returns players rated.

    Each period the event touches is rated once for all its players, which is what makes a
    1,024-player event a single pass instead of thousands of per-match updates.
    """
    club = event.club
    rows = list(
        Match.objects.filter(
            event=event, status=Match.Status.FINISHED, decision=Match.Decision.PLAYED
        )
        .annotate(n=Count("seats", distinct=True))
        .filter(n=2)
        .values_list("pk", "finished_at")
    )
    if not rows:
        return 0
    by_period: dict[date, list[int]] = defaultdict(list)
    for mid, finished_at in rows:
        day = (finished_at or timezone.now()).date()
        by_period[club_rating_period_start(club=club, day=day)].append(mid)
    rated: set[int] = set()
    with transaction.atomic():
        for period, mids in sorted(by_period.items()):
            last: dict[int, int | None] = {}
            for mid, pid in (
                Seat.objects.filter(match_id__in=mids)
                .order_by("match_id")
                .values_list("match_id", "player_id")
            ):
                last[pid] = mid
            _glicko_rate(club=club, period=period, affected=set(last), last_match=last)
            rated |= set(last)
        Event.objects.filter(pk=event.pk).update(ratings_seq=event.results_seq)
    return len(rated)
