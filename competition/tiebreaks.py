"""Standings: match points, then the event's tie-breaks in its chosen order, then lots.

This module owns the arithmetic of standings. It is given every round's results as frozen
records and rebuilds the table from scratch each time (never incrementally), so the same input
always gives the same standings.

Definitions (``W`` is the points for a win, 1 by default; a draw is worth ``W/2``):

- **Game points**: the sum of the game points the caller recorded (the game margins in gin).
- **Head-to-head**: applied to a group of players still tied at that point only if every two of
  them played each other; each player's value is then the match points scored in those games.
  If the group's mini-table is incomplete, the criterion does not separate anyone.
- **Unplayed rounds** (byes, forfeits and walkovers either way, a dropped player's missed rounds)
  follow FIDE's "virtual opponent" rule (FIDE Handbook C.02, tie-break regulations as adopted by
  the 2009 Congress, in force until the 2023 revision): for a player's own unplayed round ``R`` of
  ``n``, the player is deemed to have met a virtual opponent who had the player's score before the
  round, took the opposite result in that round and drew every later round:
  ``Svon = SPR + (W - SfPR) + W/2 * (n - R)``. The player's result in the round counts as
  recorded. When an *opponent's* score is used, the opponent's own unplayed rounds count as
  draws ("all unplayed games in which players are indirectly involved are considered draws").
- **Buchholz**: the sum of the opponents' scores so adjusted (virtual opponents included);
  **cut-1** drops the lowest; **median** drops the highest and the lowest.
- **Sonneborn-Berger**: the sum over rounds of ``result / W * opponent's score`` (adjusted, and the
  virtual opponent for unplayed rounds).
- **Opponents' match-win %**: the mean, over opponents actually played, of their match points
  divided by ``W`` times the rounds they had a result in (byes and forfeits count, missed rounds
  do not), each floored at ``omw_floor``. The default floor is 1/3 as in Magic: the Gathering's
  tournament rules, so a weak opponent who dropped early does not sink a good player's
  tie-break; set it to 0 for the raw percentage that chess-minded clubs expect.
- **Lots**: a shuffle of the player ids by ``random.Random(lots_seed)``; the caller stores the seed,
  so the draw is the same every time standings are rebuilt.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from .swiss import Score

__all__ = [
    "GameSide",
    "RoundResult",
    "StandingsRow",
    "TieBreak",
    "TieBreakConfig",
    "rank",
]


class TieBreak(Enum):
    """A criterion that orders players tied on match points (and on earlier criteria)."""

    GAME_POINTS = "game_points"
    HEAD_TO_HEAD = "head_to_head"
    BUCHHOLZ = "buchholz"
    BUCHHOLZ_CUT1 = "buchholz_cut1"
    MEDIAN_BUCHHOLZ = "median_buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    HANDS_WON = "hands_won"
    GINS = "gins"
    OPPONENTS_MATCH_WIN = "opponents_match_win"
    LOTS = "lots"


@dataclass(frozen=True, slots=True)
class GameSide:
    """One player's side of a round's result: what they were awarded."""

    player: int
    match_points: Score
    game_points: Score = 0
    hands_won: int = 0
    gins: int = 0


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One round's result for one table, or one bye.

    ``second`` is ``None`` for a bye. ``played`` is ``False`` for a forfeit or walkover: points
    were awarded, but the game did not happen, so tie-breaks treat it as unplayed.
    """

    round: int
    first: GameSide
    second: GameSide | None = None
    played: bool = True


@dataclass(frozen=True, slots=True)
class TieBreakConfig:
    """Points for a win (a draw is half) and the floor of a player's match-win percentage."""

    win_points: Score = 1
    omw_floor: Fraction = Fraction(1, 3)


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One line of the standings: the rank, the match points and every tie-break value."""

    rank: int
    player: int
    match_points: Fraction
    tiebreaks: tuple[tuple[TieBreak, Fraction], ...]

    def value(self, tiebreak: TieBreak) -> Fraction:
        """The value of one tie-break (``KeyError`` if the event does not use it)."""
        for tb, v in self.tiebreaks:
            if tb is tiebreak:
                return v
        raise KeyError(tiebreak)


@dataclass(slots=True)
class _Record:
    """A player's event, round by round: opponent (None if unplayed) and points."""

    points: dict[int, Fraction]
    opponent: dict[int, int]
    game_points: Fraction = Fraction(0)
    hands_won: int = 0
    gins: int = 0


def rank(
    players: Sequence[int],
    results: Iterable[RoundResult],
    order: Sequence[TieBreak],
    lots_seed: int,
    *,
    config: TieBreakConfig = TieBreakConfig(),
    rounds: int | None = None,
) -> tuple[StandingsRow, ...]:
    """The standings, best first; lots always end the order, so no two rows share a rank.

    ``rounds`` is the number of rounds played so far (by default the highest round in
    ``results``); a player with nothing recorded in a round missed it.

    >>> rows = rank([1, 2], [RoundResult(1, GameSide(1, 0), GameSide(2, 1))], [], lots_seed=7)
    >>> [(r.rank, r.player, r.match_points) for r in rows]
    [(1, 2, Fraction(1, 1)), (2, 1, Fraction(0, 1))]
    """
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice in the standings")
    records = {p: _Record({}, {}) for p in players}
    last_round = 0
    for result in results:
        last_round = max(last_round, result.round)
        sides = [result.first] if result.second is None else [result.first, result.second]
        for side, other in zip(sides, reversed(sides), strict=True):
            record = records.get(side.player)
            if record is None:
                raise ValueError(f"player {side.player} has a result but is not in the event")
            if result.round in record.points:
                raise ValueError(f"player {side.player} has two results in round {result.round}")
            record.points[result.round] = Fraction(side.match_points)
            if result.played and other is not side:
                record.opponent[result.round] = other.player
            record.game_points += Fraction(side.game_points)
            record.hands_won += side.hands_won
            record.gins += side.gins
    table = _Table(records, last_round if rounds is None else rounds, config)
    criteria = list(dict.fromkeys([*order, TieBreak.LOTS]))
    drawn = sorted(players)
    random.Random(lots_seed).shuffle(drawn)
    lots = {p: Fraction(k) for k, p in enumerate(drawn, start=1)}
    values: dict[TieBreak, Mapping[int, Fraction]] = {}
    blocks = _refine([list(players)], table.score)
    for criterion in criteria:
        if criterion is TieBreak.LOTS:
            values[criterion] = lots
            blocks = _refine(blocks, lambda p: -lots[p])
            continue
        if criterion is TieBreak.HEAD_TO_HEAD:
            column: dict[int, Fraction] = {}
            for block in blocks:
                column.update(table.head_to_head(block))
        else:
            column = {p: table.value(criterion, p) for p in players}
        values[criterion] = column
        blocks = _refine(blocks, column.__getitem__)
    return tuple(
        StandingsRow(k, p, table.score(p), tuple((tb, values[tb][p]) for tb in criteria))
        for k, p in enumerate((p for block in blocks for p in block), start=1)
    )


def _refine(blocks: list[list[int]], key: Callable[[int], Fraction]) -> list[list[int]]:
    """Split every block of tied players by ``key`` (highest first), keeping the block order."""
    refined: list[list[int]] = []
    for block in blocks:
        start = len(refined)
        for p in sorted(block, key=key, reverse=True):
            if len(refined) > start and key(refined[-1][0]) == key(p):
                refined[-1].append(p)
            else:
                refined.append([p])
    return refined


class _Table:
    """The crosstable seen from each player, with the FIDE adjustments for unplayed rounds."""

    def __init__(self, records: Mapping[int, _Record], rounds: int, config: TieBreakConfig) -> None:
        self.records = records
        self.rounds = rounds
        self.win = Fraction(config.win_points)
        self.draw = self.win / 2
        self.floor = config.omw_floor
        self._scores = {p: sum(r.points.values(), Fraction(0)) for p, r in records.items()}
        self._adjusted = {
            p: sum(
                (r.points[k] if k in r.opponent else self.draw for k in range(1, rounds + 1)),
                Fraction(0),
            )
            for p, r in records.items()
        }
        self._faced = {p: self._opposition(p) for p in records}

    def score(self, player: int) -> Fraction:
        """Match points."""
        return self._scores[player]

    def _opposition(self, player: int) -> list[tuple[Fraction, Fraction]]:
        """For each round: the player's result and the (adjusted or virtual) opponent's score."""
        record = self.records[player]
        faced: list[tuple[Fraction, Fraction]] = []
        before = Fraction(0)
        for k in range(1, self.rounds + 1):
            result = record.points.get(k, Fraction(0))
            if k in record.opponent:
                faced.append((result, self._adjusted[record.opponent[k]]))
            else:
                virtual = before + (self.win - result) + self.draw * (self.rounds - k)
                faced.append((result, virtual))
            before += result
        return faced

    def value(self, criterion: TieBreak, player: int) -> Fraction:
        """The value of a criterion that does not depend on who else is tied."""
        record = self.records[player]
        opponents = sorted(v for _, v in self._faced[player])
        if criterion is TieBreak.GAME_POINTS:
            return record.game_points
        if criterion is TieBreak.HANDS_WON:
            return Fraction(record.hands_won)
        if criterion is TieBreak.GINS:
            return Fraction(record.gins)
        if criterion is TieBreak.BUCHHOLZ:
            return sum(opponents, Fraction(0))
        if criterion is TieBreak.BUCHHOLZ_CUT1:
            return sum(opponents[1:], Fraction(0))
        if criterion is TieBreak.MEDIAN_BUCHHOLZ:
            return sum(opponents[1:-1], Fraction(0))
        if criterion is TieBreak.SONNEBORN_BERGER:
            return sum((r / self.win * v for r, v in self._faced[player]), Fraction(0))
        return self._opponents_match_win(player)

    def _match_win(self, player: int) -> Fraction:
        points = self.records[player].points
        return max(self.floor, self._scores[player] / (self.win * len(points)))

    def _opponents_match_win(self, player: int) -> Fraction:
        opponents = list(self.records[player].opponent.values())
        if not opponents:
            return Fraction(0)
        return sum((self._match_win(o) for o in opponents), Fraction(0)) / len(opponents)

    def head_to_head(self, block: Sequence[int]) -> dict[int, Fraction]:
        """Mini-table points inside ``block`` if everyone in it played everyone, else zeros."""
        members = set(block)
        met = {p: {o for o in self.records[p].opponent.values() if o in members} for p in block}
        if len(block) < 2 or any(len(met[p]) < len(block) - 1 for p in block):
            return {p: Fraction(0) for p in block}
        return {
            p: sum(
                (
                    self.records[p].points[k]
                    for k, o in self.records[p].opponent.items()
                    if o in members
                ),
                Fraction(0),
            )
            for p in block
        }
