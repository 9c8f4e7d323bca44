"""The results snapshot: stored matches as :class:`MatchRecord` (ids only, four flat queries)
and an event's results as the :mod:`competition.tiebreaks` records
(:class:`ResultsSnapshot`), with match points, byes, walkovers and late entries translated.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import Any

from django.db.models import Q

from competition.tiebreaks import GameSide, RoundResult, TieBreakConfig
from scoring.models import Game, HandSubmission, Match, Seat
from tournaments.models import Event, Registration, Round
from tournaments.selectors.options import event_option


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A stored match as the standings, pairing and bracket code need it (ids only)."""

    id: int
    round: int | None
    bracket_key: str
    status: str
    decision: str
    winner: int | None
    players: tuple[int, ...]
    teams: tuple[int | None, ...] = ()
    winner_team: int | None = None
    game_points: tuple[int, ...] = ()
    hands_won: tuple[int, ...] = ()
    gins: tuple[int, ...] = ()
    summary: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    finished_on: date | None = None

    @property
    def finished(self) -> bool:
        return self.status == Match.Status.FINISHED

    @property
    def winners(self) -> tuple[int, ...]:
        """The players credited with the win: the winner, or both partners of the winning team."""
        if self.winner_team is not None:
            pairs = zip(self.players, self.teams, strict=True)
            return tuple(p for p, t in pairs if t == self.winner_team)
        return (self.winner,) if self.winner is not None else ()


GIN_OUTCOMES = frozenset({"gin", "big_gin"})


def event_match_records(
    *, event: Event, finished_only: bool = False, with_hands: bool = True
) -> list[MatchRecord]:
    """Every match of ``event`` with seats, net game points and (optionally) hands won and gins.

    Four flat queries whatever the size of the event, so a 1,024-player Swiss reads in well
    under a second. A partnership's games and hands are won by a team (``winner_team``): both
    partners are credited. Game points are net for two sides (two players, or two teams: the
    margins won less the margins lost) and the margins won at a table of three or more.
    """
    matches = Match.objects.filter(event=event)
    if finished_only:
        matches = matches.filter(status=Match.Status.FINISHED)
    rows = list(
        matches.order_by("id").values_list(
            "id",
            "round__number",
            "bracket_key",
            "status",
            "decision",
            "winner_id",
            "winner_team",
            "summary",
            "finished_at",
        )
    )
    seats: dict[int, list[tuple[int, int, int | None]]] = defaultdict(list)
    seat_qs = Seat.objects.filter(match__event=event)
    if finished_only:
        seat_qs = seat_qs.filter(match__status=Match.Status.FINISHED)
    for match_id, player_id, position, team in seat_qs.values_list(
        "match_id", "player_id", "position", "team"
    ):
        seats[match_id].append((position, player_id, team))
    # What a game or hand was won by, per match: ("seat", position) or ("team", team).
    margins: dict[int, dict[tuple[str, int], int]] = defaultdict(lambda: defaultdict(int))
    game_qs = Game.objects.filter(match__event=event, status=Game.Status.FINISHED).filter(
        Q(winner_position__isnull=False) | Q(winner_team__isnull=False)
    )
    for match_id, winner_pos, winner_team, margin in game_qs.values_list(
        "match_id", "winner_position", "winner_team", "margin"
    ):
        if winner_team is not None:
            margins[match_id][("team", winner_team)] += margin or 0
        elif winner_pos is not None:
            margins[match_id][("seat", winner_pos)] += margin or 0
    hands: dict[int, dict[tuple[str, int], int]] = defaultdict(lambda: defaultdict(int))
    gins: dict[int, dict[tuple[str, int], int]] = defaultdict(lambda: defaultdict(int))
    if with_hands:
        # Plain columns, filled from the verdict when it was stored: identical on every database.
        sub_qs = HandSubmission.objects.filter(
            hand__game__match__event=event, status=HandSubmission.Status.CONFIRMED
        ).filter(Q(winner_position__isnull=False) | Q(winner_team__isnull=False))
        for match_id, winner_pos, winner_team, outcome in sub_qs.values_list(
            "hand__game__match_id", "winner_position", "winner_team", "outcome"
        ):
            hand_side: tuple[str, int] = (
                ("team", winner_team) if winner_team is not None else ("seat", winner_pos or 0)
            )
            hands[match_id][hand_side] += 1
            if outcome in GIN_OUTCOMES:
                gins[match_id][hand_side] += 1
    records = []
    for match_id, rnd, key, status, decision, winner, win_team, summary, finished_at in rows:
        ordered = sorted(seats.get(match_id, []))
        sides = [("team", t) if t is not None else ("seat", p) for p, _, t in ordered]
        won = margins.get(match_id, {})
        if len(set(sides)) == 2:  # two players, or two teams: net
            total = sum(won.values())
            game_points = tuple(2 * won.get(s, 0) - total for s in sides)
        else:
            game_points = tuple(won.get(s, 0) for s in sides)
        records.append(
            MatchRecord(
                id=match_id,
                round=rnd,
                bracket_key=key,
                status=status,
                decision=decision,
                winner=winner,
                players=tuple(pid for _, pid, _ in ordered),
                teams=tuple(t for _, _, t in ordered),
                winner_team=win_team,
                game_points=game_points,
                hands_won=tuple(hands.get(match_id, {}).get(s, 0) for s in sides),
                gins=tuple(gins.get(match_id, {}).get(s, 0) for s in sides),
                summary=summary or {},
                finished_on=finished_at.date() if finished_at else None,
            )
        )
    return records


@dataclass(frozen=True, slots=True)
class ResultsSnapshot:
    """An event's players and results in the form :func:`tiebreaks.rank` takes."""

    players: tuple[int, ...]
    results: tuple[RoundResult, ...]
    rounds: int | None
    dropped: frozenset[int]
    config: TieBreakConfig


def option_points(event: Event, name: str) -> Fraction:
    return Fraction(str(event_option(event=event, name=name)))


def _round_result(
    record: MatchRecord, number: int, event: Event, win: Fraction
) -> RoundResult | None:
    """One finished two-seat match (or a bye) as a round result; ``None`` if it scores nothing."""
    if len(record.players) == 1:
        kind = record.summary.get("bye", "pairing")
        points = {
            "pairing": option_points(event, "bye_points"),
            "requested": option_points(event, "requested_bye_points"),
            "late_entry": option_points(event, "late_entry_points"),
        }.get(kind, Fraction(0))
        return RoundResult(number, GameSide(record.players[0], points), None, played=False)
    if len(record.players) != 2:
        return None
    a, b = record.players
    if record.decision == Match.Decision.FORFEIT:
        pa = pb = Fraction(0)
    elif record.winner is None:
        pa = pb = win / 2
    else:
        pa = win if record.winner == a else Fraction(0)
        pb = win if record.winner == b else Fraction(0)
    played = record.decision == Match.Decision.PLAYED
    return RoundResult(
        number,
        GameSide(a, pa, record.game_points[0], record.hands_won[0], record.gins[0]),
        GameSide(b, pb, record.game_points[1], record.hands_won[1], record.gins[1]),
        played=played,
    )


def _table_results(record: MatchRecord, number: int, win: Fraction) -> list[RoundResult]:
    """A finished table of three or more players (in the box, dealer-out, Rummy 2-6, a
    partnership) as one one-sided, played result per player in round ``number``.

    The winner (both partners of a winning team) scores a match win, everybody else a loss; a
    table without a winner is a draw for all. Game points, hands won and gins are the record's
    (see :func:`event_match_records`). Such a table has no single opponent, so tie-breaks that
    look at opponents (Buchholz, Sonneborn-Berger, head-to-head, opponents' win %) see the round
    as unplayed; club nights and leagues rank by match points, then game points.
    """
    if record.decision == Match.Decision.FORFEIT:
        return []
    winners = set(record.winners)
    return [
        RoundResult(
            number,
            GameSide(
                pid,
                (win if pid in winners else Fraction(0)) if winners else win / 2,
                record.game_points[k],
                record.hands_won[k],
                record.gins[k],
            ),
            None,
            played=True,
        )
        for k, pid in enumerate(record.players)
    ]


def _open_play_results(record: MatchRecord, number: int, event: Event) -> list[RoundResult]:
    """A club night's or league's finished match as round ``number``'s results (two or more)."""
    win = option_points(event, "win_points")
    if len(record.players) > 2:
        return _table_results(record, number, win)
    r = _round_result(record, number, event, win)
    return [r] if r is not None else []


def open_play_rounds(
    records: Iterable[MatchRecord], registered: set[int], event: Event
) -> list[RoundResult]:
    """A club night's or league's results: each finished match among ``registered`` players is
    a round of its own, numbered in the order given (shared by event standings and league
    tables)."""
    results: list[RoundResult] = []
    number = 0
    for rec in records:
        if not rec.finished or not set(rec.players) <= registered:
            continue
        found = _open_play_results(rec, number + 1, event)
        if found:
            number += 1
            results.extend(found)
    return results


def _uses_rounds(event: Event) -> bool:
    return event.kind not in (Event.Kind.CLUB_NIGHT, Event.Kind.LEAGUE)


def event_results_snapshot(
    *, event: Event, records: Sequence[MatchRecord] | None = None
) -> ResultsSnapshot:
    """Everybody registered (dropped players included: past results stand) and every result.

    Round-based kinds use the round numbers; club nights give each match its own round, since
    players sit down with anyone and play as many matches as they like. A late entry's missed
    rounds (those already paired before ``joined_round``) score ``late_entry_points``.

    Round-based kinds count two-player matches only (their pairings never seat more). Club
    nights count every table: a match of three or more players (or two teams) is a match win
    for the winner (both partners), a loss for everyone else, and each game's margin is the
    winner's game points (see :func:`_table_results`).
    """
    regs = list(
        Registration.objects.filter(event=event).values_list("player_id", "status", "joined_round")
    )
    players = tuple(sorted(pid for pid, _, _ in regs))
    dropped = frozenset(pid for pid, status, _ in regs if status == Registration.Status.DROPPED)
    if records is None:
        records = event_match_records(event=event, finished_only=True)
    win = option_points(event, "win_points")
    results: list[RoundResult] = []
    registered = set(players)
    rounds: int | None = None
    if _uses_rounds(event):
        numbers = list(Round.objects.filter(event=event).values_list("number", flat=True))
        rounds = max((n for n in numbers), default=0)
        for rec in records:
            if not rec.finished or rec.round is None:
                continue
            if not set(rec.players) <= registered:
                continue
            r = _round_result(rec, rec.round, event, win)
            if r is not None:
                results.append(r)
        late = option_points(event, "late_entry_points")
        has_result = {
            (side.player, r.round) for r in results for side in (r.first, r.second) if side
        }
        existing = set(numbers)
        for pid, _status, joined in regs:
            for number in range(1, joined):
                if number in existing and (pid, number) not in has_result:
                    results.append(RoundResult(number, GameSide(pid, late), None, played=False))
    else:
        results.extend(open_play_rounds(records, registered, event))
    return ResultsSnapshot(
        players=players,
        results=tuple(results),
        rounds=rounds,
        dropped=dropped,
        config=TieBreakConfig(win_points=win),
    )
