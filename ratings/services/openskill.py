"""OpenSkill (Plackett-Luce) club ratings for three to six players and teams: applied match by
match, and replayed whole from the stored results when a rated match is corrected."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Count, F, Q, QuerySet

from clubs.models import Club
from ratings.algorithms import (
    RatingState,
    rate_multiplayer,
)
from ratings.models import Rating, RatingHistory
from scoring.models import Game, Match, Seat


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


def openskill_counts(seats: Sequence[tuple[int, int, int | None]]) -> bool:
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
        if not openskill_counts(seats[mid]):
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


def openskill_match_rate(match: Match, seats: list[tuple[int, int, int | None]]) -> None:
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
