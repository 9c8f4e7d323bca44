"""Knockout brackets: single elimination (optional third-place match) and double elimination.

This module owns the shape of a bracket and how results flow through it. A :class:`Bracket` is a
list of matches whose two slots are fed by a seed, the winner of an earlier match or the loser of
an earlier match; :func:`bracket_state` replays the results known so far and says who sits in every
slot, which matches are ready, who advanced by a bye or a walkover, and who the champion is.
Storing results and deciding what a walkover is (a player dropped) belong to the services.

Seeding is the standard one: in a bracket of 2^k slots seed ``s`` meets seed ``2^k + 1 - s`` in the
first round and the halves are nested so that seeds 1 and 2 can only meet in the final (1 v 16,
8 v 9, 5 v 12, 4 v 13, ...). A field that is not a power of two leaves the missing seeds empty,
so the byes fall to the top seeds.

Double elimination adds a losers' bracket of ``2(k-1)`` rounds: its first round pairs the
first-round losers, then it alternates rounds where winners'-bracket losers drop in and rounds
where the survivors play each other. Losers of winners' round ``r`` drop in reversed order when
``r`` is even and with their halves swapped when ``r`` is odd, the usual way of keeping early
rematches away. The grand final sets the winners'-bracket champion against the losers'-bracket
champion; if the latter wins, a reset match is played (when the event uses one), since only then
has the winners'-bracket champion lost once.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Literal, TypeAlias

__all__ = [
    "Bracket",
    "BracketError",
    "BracketMatch",
    "BracketState",
    "MatchState",
    "MatchStatus",
    "NextMatch",
    "Section",
    "Slot",
    "SlotSource",
    "Vacancy",
    "bracket_state",
    "double_elimination",
    "next_match",
    "seed_order",
    "single_elimination",
]


class BracketError(ValueError):
    """A bracket cannot be built, or a result does not fit the bracket."""


class Section(Enum):
    """Which part of the event a match belongs to."""

    WINNERS = "winners"
    LOSERS = "losers"
    THIRD_PLACE = "third_place"
    GRAND_FINAL = "grand_final"
    GRAND_FINAL_RESET = "grand_final_reset"


class Vacancy(Enum):
    """A slot without a player: nobody will come (``BYE``) or not known yet (``TBD``)."""

    BYE = "bye"
    TBD = "tbd"


Slot: TypeAlias = int | Vacancy
"""What a slot holds: a player id, or a vacancy."""


class MatchStatus(Enum):
    """Where a match stands given the results so far."""

    WAITING = "waiting"
    READY = "ready"
    PLAYED = "played"
    BYE = "bye"
    WALKOVER = "walkover"
    NOT_NEEDED = "not_needed"


@dataclass(frozen=True, slots=True)
class SlotSource:
    """What feeds a slot: seed number ``ref`` (1-based), or the winner or loser of match ``ref``."""

    kind: Literal["seed", "winner", "loser"]
    ref: int


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One match of the bracket; sources only ever point at matches with a smaller id."""

    id: int
    section: Section
    round: int
    home: SlotSource
    away: SlotSource


@dataclass(frozen=True, slots=True)
class Bracket:
    """A whole bracket: the entrants in seed order and every match, in playing order."""

    entrants: tuple[int, ...]
    matches: tuple[BracketMatch, ...]
    reset: bool = False


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match with its slots filled as far as the results allow."""

    match: BracketMatch
    home: Slot
    away: Slot
    status: MatchStatus
    winner: Slot = Vacancy.TBD
    loser: Slot = Vacancy.TBD


@dataclass(frozen=True, slots=True)
class BracketState:
    """Every match's state, the matches that can be played now, and the champion once known."""

    matches: tuple[MatchState, ...]
    champion: int | None

    @property
    def ready(self) -> tuple[MatchState, ...]:
        """Matches whose two players are known and whose result is still to come."""
        return tuple(m for m in self.matches if m.status is MatchStatus.READY)


def seed_order(size: int) -> tuple[int, ...]:
    """Seeds in bracket order for ``size`` (a power of two) slots; neighbours meet first.

    >>> seed_order(8)
    (1, 8, 4, 5, 2, 7, 3, 6)
    """
    if size < 1 or size & (size - 1):
        raise BracketError(f"a bracket has a power-of-two number of slots, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return tuple(order)


def _first_round(size: int) -> list[tuple[SlotSource, SlotSource]]:
    order = seed_order(size)
    return [
        (SlotSource("seed", order[k]), SlotSource("seed", order[k + 1])) for k in range(0, size, 2)
    ]


def _validate(seeded: Sequence[int]) -> int:
    if len(seeded) < 2:
        raise BracketError("a bracket needs at least two players")
    if len(set(seeded)) != len(seeded):
        raise BracketError("a player appears twice in the bracket")
    size = 1
    while size < len(seeded):
        size *= 2
    return size


class _Builder:
    """Appends matches with consecutive ids."""

    def __init__(self) -> None:
        self.matches: list[BracketMatch] = []

    def add(self, section: Section, rnd: int, home: SlotSource, away: SlotSource) -> int:
        match_id = len(self.matches) + 1
        self.matches.append(BracketMatch(match_id, section, rnd, home, away))
        return match_id

    def round(
        self, section: Section, rnd: int, slots: list[tuple[SlotSource, SlotSource]]
    ) -> list[int]:
        return [self.add(section, rnd, h, a) for h, a in slots]


def _winners(ids: Sequence[int]) -> list[tuple[SlotSource, SlotSource]]:
    return [
        (SlotSource("winner", ids[k]), SlotSource("winner", ids[k + 1]))
        for k in range(0, len(ids), 2)
    ]


def _winners_bracket(builder: _Builder, size: int) -> list[list[int]]:
    rounds = [builder.round(Section.WINNERS, 1, _first_round(size))]
    while len(rounds[-1]) > 1:
        rounds.append(builder.round(Section.WINNERS, len(rounds) + 1, _winners(rounds[-1])))
    return rounds


def single_elimination(seeded: Sequence[int], *, third_place: bool = False) -> Bracket:
    """A knockout bracket for ``seeded`` (best first), with an optional third-place match.

    >>> b = single_elimination([10, 20, 30])
    >>> [(m.home, m.away) for m in b.matches][:2]
    [(SlotSource(kind='seed', ref=1), SlotSource(kind='seed', ref=4)), \
(SlotSource(kind='seed', ref=2), SlotSource(kind='seed', ref=3))]
    """
    size = _validate(seeded)
    builder = _Builder()
    rounds = _winners_bracket(builder, size)
    if third_place and len(rounds) >= 2:
        semis = rounds[-2]
        builder.add(
            Section.THIRD_PLACE,
            len(rounds),
            SlotSource("loser", semis[0]),
            SlotSource("loser", semis[1]),
        )
    return Bracket(tuple(seeded), tuple(builder.matches))


def _drop_order(losers: list[SlotSource], wb_round: int) -> list[SlotSource]:
    if wb_round % 2 == 0:
        return losers[::-1]
    half = len(losers) // 2
    return losers[half:] + losers[:half]


def double_elimination(seeded: Sequence[int], *, reset: bool = True) -> Bracket:
    """A double-elimination bracket: winners', losers', grand final and (optionally) its reset.

    >>> b = double_elimination([1, 2, 3, 4])
    >>> [(m.section.value, m.round) for m in b.matches]  # doctest: +NORMALIZE_WHITESPACE
    [('winners', 1), ('winners', 1), ('winners', 2), ('losers', 1), ('losers', 2),
     ('grand_final', 1), ('grand_final_reset', 2)]
    """
    size = _validate(seeded)
    builder = _Builder()
    wb = _winners_bracket(builder, size)
    if len(wb) == 1:
        lb_champion = SlotSource("loser", wb[0][0])
    else:
        first = [SlotSource("loser", m) for m in wb[0]]
        lb = builder.round(
            Section.LOSERS, 1, [(first[k], first[k + 1]) for k in range(0, len(first), 2)]
        )
        lb_round = 1
        for r in range(2, len(wb) + 1):
            drops = _drop_order([SlotSource("loser", m) for m in wb[r - 1]], r)
            lb_round += 1
            lb = builder.round(
                Section.LOSERS,
                lb_round,
                [(SlotSource("winner", w), d) for w, d in zip(lb, drops, strict=True)],
            )
            if len(lb) > 1:
                lb_round += 1
                lb = builder.round(Section.LOSERS, lb_round, _winners(lb))
        lb_champion = SlotSource("winner", lb[0])
    final = builder.add(Section.GRAND_FINAL, 1, SlotSource("winner", wb[-1][0]), lb_champion)
    if reset:
        builder.add(
            Section.GRAND_FINAL_RESET,
            2,
            SlotSource("winner", final),
            SlotSource("loser", final),
        )
    return Bracket(tuple(seeded), tuple(builder.matches), reset)


def bracket_state(
    bracket: Bracket, results: Mapping[int, int], dropped: Collection[int] = ()
) -> BracketState:
    """Replay ``results`` (match id → winner id) through ``bracket``.

    Byes advance automatically. A player in ``dropped`` loses every match they have not played
    yet by walkover, so their opponent advances; a recorded result always wins over a drop. A
    result for a match that is not ready, or naming someone not in it, is a :class:`BracketError`.
    """
    states: dict[int, MatchState] = {}
    known = {m.id for m in bracket.matches}
    stray = sorted(set(results) - known)
    if stray:
        raise BracketError(f"results for matches {stray}, which are not in the bracket")
    grand_final: MatchState | None = None
    champion: int | None = None
    for match in bracket.matches:
        home = _resolve(match.home, bracket.entrants, states)
        away = _resolve(match.away, bracket.entrants, states)
        if match.section is Section.GRAND_FINAL_RESET and grand_final is not None:
            state = _reset_state(match, grand_final, results, dropped)
        else:
            state = _decide(match, home, away, results, dropped)
        states[match.id] = state
        if match.section is Section.GRAND_FINAL:
            grand_final = state
    last = bracket.matches[-1]
    if grand_final is not None:
        gf = grand_final
        decided = gf.winner == gf.home or not bracket.reset or gf.status is not MatchStatus.PLAYED
        final = gf if decided else states[last.id]
    else:
        final = next(
            s for s in reversed(list(states.values())) if s.match.section is Section.WINNERS
        )
    if isinstance(final.winner, int):
        champion = final.winner
    return BracketState(tuple(states.values()), champion)


def _resolve(source: SlotSource, entrants: Sequence[int], states: Mapping[int, MatchState]) -> Slot:
    if source.kind == "seed":
        return entrants[source.ref - 1] if source.ref <= len(entrants) else Vacancy.BYE
    state = states[source.ref]
    return state.winner if source.kind == "winner" else state.loser


def _decide(
    match: BracketMatch,
    home: Slot,
    away: Slot,
    results: Mapping[int, int],
    dropped: Collection[int],
) -> MatchState:
    if home is Vacancy.TBD or away is Vacancy.TBD:
        if match.id in results:
            raise BracketError(f"match {match.id} has a result but its players are not known yet")
        return MatchState(match, home, away, MatchStatus.WAITING)
    if not isinstance(home, int) or not isinstance(away, int):
        if match.id in results:
            raise BracketError(f"match {match.id} is a bye and cannot have a result")
        winner = home if isinstance(home, int) else away
        return MatchState(match, home, away, MatchStatus.BYE, winner, Vacancy.BYE)
    if match.id in results:
        winner = results[match.id]
        if winner not in (home, away):
            raise BracketError(f"player {winner} is not in match {match.id}")
        loser = away if winner == home else home
        return MatchState(match, home, away, MatchStatus.PLAYED, winner, loser)
    gone = [p for p in (home, away) if p in dropped]
    if len(gone) == 2:
        return MatchState(match, home, away, MatchStatus.WALKOVER, Vacancy.BYE, Vacancy.BYE)
    if gone:
        winner = away if gone[0] == home else home
        return MatchState(match, home, away, MatchStatus.WALKOVER, winner, gone[0])
    return MatchState(match, home, away, MatchStatus.READY)


def _reset_state(
    match: BracketMatch,
    grand_final: MatchState,
    results: Mapping[int, int],
    dropped: Collection[int],
) -> MatchState:
    """The reset is played only when the losers'-bracket champion won the first grand final."""
    winner, loser = grand_final.winner, grand_final.loser
    if grand_final.status is MatchStatus.PLAYED and winner == grand_final.away:
        return _decide(match, winner, loser, results, dropped)
    if match.id in results:
        raise BracketError(f"match {match.id} (the reset) is not to be played")
    if grand_final.status in (MatchStatus.WAITING, MatchStatus.READY):
        return MatchState(match, Vacancy.TBD, Vacancy.TBD, MatchStatus.WAITING)
    return MatchState(match, Vacancy.TBD, Vacancy.TBD, MatchStatus.NOT_NEEDED)


@dataclass(frozen=True, slots=True)
class NextMatch:
    """A player's next match in the bracket while it is not made: the opponent once known, else
    the match whose winner (or loser) they meet and the players known in it so far."""

    match: int
    opponent: int | None
    source: Literal["winner", "loser"] | None = None
    feeder: int | None = None
    feeder_players: tuple[int, ...] = ()


def next_match(state: BracketState, player: int) -> NextMatch | None:
    """The first match still to be played that ``player`` sits in (ready, or waiting for its
    other slot), or None: out of the bracket, or their next match is decided already.

    >>> b = single_elimination([1, 2, 3, 4])
    >>> next_match(bracket_state(b, {1: 1}), 1)
    NextMatch(match=3, opponent=None, source='winner', feeder=2, feeder_players=(2, 3))
    >>> next_match(bracket_state(b, {1: 1, 2: 3}), 1)
    NextMatch(match=3, opponent=3, source=None, feeder=None, feeder_players=())
    >>> next_match(bracket_state(b, {1: 4}), 1) is None
    True
    """
    by_id = {ms.match.id: ms for ms in state.matches}
    for ms in state.matches:
        if ms.status not in (MatchStatus.WAITING, MatchStatus.READY) or player not in (
            ms.home,
            ms.away,
        ):
            continue
        other, source = (ms.away, ms.match.away) if ms.home == player else (ms.home, ms.match.home)
        if isinstance(other, int):
            return NextMatch(ms.match.id, other)
        if other is not Vacancy.TBD or source.kind == "seed":
            continue
        feeder = by_id[source.ref]
        known = tuple(p for p in (feeder.home, feeder.away) if isinstance(p, int))
        return NextMatch(ms.match.id, None, source.kind, source.ref, known)
    return None
