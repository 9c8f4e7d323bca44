"""Pairing input: who takes part in the next round, the Swiss snapshot (:func:`swiss_input`),
table history and seed order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import QuerySet
from django.utils.translation import ngettext

from competition.swiss import (
    ClubRule,
    Float,
    ForbiddenPair,
    SwissConfig,
    SwissPlayer,
)
from competition.swiss import Seat as SwissSeat
from core.errors import ApplicationError
from ratings.selectors import club_rating_values
from scoring.models import Match, Seat
from tournaments.models import Event, ForbiddenPairing, Registration, Round
from tournaments.selectors.options import event_option
from tournaments.selectors.results import (
    MatchRecord,
    event_match_records,
    event_results_snapshot,
    option_points,
)


@dataclass(frozen=True, slots=True)
class SwissInput:
    """Everything :func:`pair_swiss` takes for one round, built from stored rows."""

    players: tuple[SwissPlayer, ...]
    forbidden: tuple[ForbiddenPair, ...]
    config: SwissConfig


def _club_rule(value: object) -> ClubRule:
    if value in (True, "hard"):
        return ClubRule.HARD
    if value == "soft":
        return ClubRule.SOFT
    return ClubRule.ALLOW


def event_pairing_registrations(*, event: Event) -> QuerySet[Registration]:
    """Who takes part in the next round: checked in and not dropped."""
    return Registration.objects.filter(event=event, status=Registration.Status.CHECKED_IN)


def swiss_input(*, event: Event, round_number: int, allow_unfinished: bool = False) -> SwissInput:
    """The pairing snapshot for ``round_number``: scores, opponents met, byes and forfeit wins,
    seats, the floats of the last two rounds (:func:`_recent_floats`), constraints.

    Scores come from the stored results themselves (not from the standings, which may be
    behind), so a round is always paired from what was actually played. A match without a
    final result refuses the pairing (409) unless the director forced the round
    (``allow_unfinished``): then it counts as a meeting (no rematch) and scores nothing yet.
    """
    regs = list(
        event_pairing_registrations(event=event).values_list(
            "player_id", "seed", "requested_byes", "player__club_id", "player__family"
        )
    )
    ids = [r[0] for r in regs]
    records = event_match_records(event=event, with_hands=False)
    unfinished = [r for r in records if not r.finished and r.round is not None]
    if unfinished and not allow_unfinished:
        raise ApplicationError(
            ngettext(
                "Round %(number)s still has %(count)s match without a final result.",
                "Round %(number)s still has %(count)s matches without a final result.",
                len(unfinished),
            )
            % {"number": unfinished[0].round, "count": len(unfinished)},
            status=409,
        )
    snapshot = event_results_snapshot(event=event, records=records)
    score: dict[int, Fraction] = defaultdict(Fraction)
    for r in snapshot.results:
        for side in (r.first, r.second):
            if side is not None:
                score[side.player] += Fraction(side.match_points)
    # Only a game actually played is a meeting: a forfeited pair may be paired again (FIDE C.04.1
    # and C.04.3 A.5), and a forfeit win bars a later pairing bye as a bye does.
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: dict[int, int] = defaultdict(int)
    forfeit_wins: dict[int, int] = defaultdict(int)
    seats: dict[int, list[SwissSeat]] = defaultdict(list)
    for rec in sorted(records, key=lambda r: (r.round or 0, r.id)):
        if len(rec.players) == 1:
            if rec.summary.get("bye", "pairing") == "pairing":
                byes[rec.players[0]] += 1
            continue
        if len(rec.players) != 2:
            continue
        a, b = rec.players
        if rec.decision == Match.Decision.PLAYED:
            opponents[a].add(b)
            opponents[b].add(a)
            seats[a].append(SwissSeat.FIRST)
            seats[b].append(SwissSeat.SECOND)
        elif rec.decision == Match.Decision.WALKOVER and rec.winner is not None:
            forfeit_wins[rec.winner] += 1
    last_float = _recent_floats(event=event, number=round_number - 1, records=records)
    prior_float = _recent_floats(event=event, number=round_number - 2, records=records)
    ratings = club_rating_values(club_id=event.club_id, player_ids=ids)
    big_seed = 10**9
    players = tuple(
        SwissPlayer(
            id=pid,
            score=score.get(pid, Fraction(0)),
            rating=float(ratings.get(pid, 0.0)),
            seed=seed if seed is not None else big_seed,
            opponents=frozenset(opponents.get(pid, ())),
            byes=byes.get(pid, 0),
            seats=tuple(seats.get(pid, ())),
            requests_bye=round_number in (requested or []),
            club=club_id,
            forfeit_wins=forfeit_wins.get(pid, 0),
            last_float=last_float(pid),
            prior_float=prior_float(pid),
        )
        for pid, seed, requested, club_id, _family in regs
    )
    forbidden = [
        ForbiddenPair(a, b, hard)
        for a, b, hard in ForbiddenPairing.objects.filter(event=event).values_list(
            "player_a_id", "player_b_id", "hard"
        )
    ]
    family_rule = _club_rule(event_option(event=event, name="forbid_family"))
    if family_rule is not ClubRule.ALLOW:
        families: dict[str, list[int]] = defaultdict(list)
        for pid, _seed, _req, _club, family in regs:
            if family:
                families[family.strip().lower()].append(pid)
        for members in families.values():
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    forbidden.append(ForbiddenPair(a, b, family_rule is ClubRule.HARD))
    config = SwissConfig(
        order_by="seed" if event_option(event=event, name="pair_by") == "seed" else "rating",
        same_club=_club_rule(event_option(event=event, name="forbid_same_club")),
        pairing_bye_points=option_points(event, "bye_points"),
        requested_bye_points=option_points(event, "requested_bye_points"),
    )
    return SwissInput(players=players, forbidden=tuple(forbidden), config=config)


def _recent_floats(
    *, event: Event, number: int, records: list[MatchRecord]
) -> Callable[[int], Float | None]:
    """Each player's float in round ``number``, as FIDE counts it (C.04.3 A.4.b): the one the
    pairing stored (``Round.floats``) for a game played, and a downfloat for a round not played,
    whatever the reason: a pairing or requested bye, a forfeit won or lost, an absence (not in
    the round at all). None for everybody when there is no such round."""
    stored = (
        Round.objects.filter(event=event, number=number).values_list("floats", flat=True).first()
        if number >= 1
        else None
    )
    if stored is None:
        return lambda pid: None
    floats = stored if isinstance(stored, dict) else {}
    played = {
        pid
        for rec in records
        if rec.round == number and rec.decision == Match.Decision.PLAYED
        for pid in rec.players
    }
    ways = {Float.DOWN.value: Float.DOWN, Float.UP.value: Float.UP}

    def way(pid: int) -> Float | None:
        if pid not in played:
            return Float.DOWN
        return ways.get(str(floats.get(str(pid), "")))

    return way


def event_table_history(*, event: Event) -> dict[int, set[int]]:
    """The table numbers each player has sat at in this event (for "avoid the same table")."""
    out: dict[int, set[int]] = defaultdict(set)
    for pid, table in Seat.objects.filter(
        match__event=event, match__table_number__isnull=False
    ).values_list("player_id", "match__table_number"):
        if table is not None:
            out[pid].add(table)
    return out


def seeded_registrations(*, event: Event) -> list[int]:
    """Checked-in players in seed order: seed first (unseeded last), then rating, then id."""
    regs = list(event_pairing_registrations(event=event).values_list("player_id", "seed"))
    ratings = club_rating_values(club_id=event.club_id)
    regs.sort(key=lambda r: (r[1] is None, r[1] or 0, -ratings.get(r[0], 0.0), r[0]))
    return [pid for pid, _ in regs]
