"""Round-robin schedules (FIDE Berger tables), snake seeding into groups, and cuts to a playoff.

This module owns who meets whom and in which round; it knows nothing of results except the final
order of a group, which the caller passes in to build a playoff seeding.

Berger tables are built with the circle method in the FIDE arrangement (FIDE Handbook C.05,
Annex 1): the last number stays fixed and meets ``p(r) = ((r - 1) * n/2) mod (n - 1) + 1`` in
round ``r``, taking the first seat in even rounds; the other tables pair ``p + k`` (first seat)
against ``p - k`` (modulo ``n - 1``). For 6 players this gives the published table: round 1
1-6 2-5 3-4, round 2 6-4 5-3 1-2, round 3 2-6 3-1 4-5, round 4 6-5 1-4 2-3, round 5 3-6 4-2 5-1.
An odd field adds a phantom last number, whose opponent has the bye.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "RoundRobinGame",
    "RoundRobinRound",
    "berger_schedule",
    "playoff_seeding",
    "snake_groups",
]


@dataclass(frozen=True, slots=True)
class RoundRobinGame:
    """One game of a round: ``first`` takes the first seat."""

    table: int
    first: int
    second: int


@dataclass(frozen=True, slots=True)
class RoundRobinRound:
    """One round of the schedule, with the player who sits out when the field is odd."""

    number: int
    games: tuple[RoundRobinGame, ...]
    bye: int | None = None


def berger_schedule(players: Sequence[int], *, cycles: int = 1) -> tuple[RoundRobinRound, ...]:
    """The full schedule for ``players`` in Berger-number order (index 0 is number 1).

    Each further cycle repeats the first with the seats swapped, so over a double round robin
    everybody has each seat against each opponent once; with more than one cycle, the last two
    rounds of each odd-numbered cycle (the first, third, ...) are played in swapped order, as
    FIDE's Berger tables for double round robins prescribe.

    >>> [[(g.first, g.second) for g in r.games] for r in berger_schedule([1, 2, 3, 4])]
    [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    >>> [r.bye for r in berger_schedule([1, 2, 3])]
    [1, 3, 2]
    """
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice in the schedule")
    if cycles < 1:
        raise ValueError("a round robin has at least one cycle")
    size = len(players) + len(players) % 2
    if size < 2:
        return ()
    numbers: list[int | None] = [*players, None][:size]
    half = size // 2
    cycle: list[list[tuple[int | None, int | None]]] = []
    for r in range(1, size):
        p = (r - 1) * half % (size - 1) + 1
        last = size
        tables = [(last, p) if r % 2 == 0 else (p, last)]
        for k in range(1, half):
            first = (p + k - 1) % (size - 1) + 1
            second = (p - k - 1) % (size - 1) + 1
            tables.append((first, second))
        cycle.append([(numbers[a - 1], numbers[b - 1]) for a, b in tables])
    rounds: list[RoundRobinRound] = []
    for c in range(cycles):
        order = cycle
        if cycles > 1 and c % 2 == 0 and len(cycle) > 2:
            # FIDE C.05 Annex 1: in a double round robin the last two rounds of the first cycle
            # are swapped, so nobody keeps the same seat three rounds running where cycles join.
            order = [*cycle[:-2], cycle[-1], cycle[-2]]
        for tables_ in order:
            games: list[RoundRobinGame] = []
            bye = None
            for a, b in tables_:
                if a is None or b is None:
                    bye = a if b is None else b
                    continue
                first, second = (a, b) if c % 2 == 0 else (b, a)
                games.append(RoundRobinGame(len(games) + 1, first, second))
            rounds.append(RoundRobinRound(len(rounds) + 1, tuple(games), bye))
    return tuple(rounds)


def snake_groups(seeded: Sequence[int], groups: int) -> tuple[tuple[int, ...], ...]:
    """Deal seeded players into ``groups`` groups in snake order (1-2-3-3-2-1-1-...).

    The snake keeps the groups' strength even: the strongest group also gets the weakest of each
    later pass.

    >>> snake_groups([1, 2, 3, 4, 5, 6, 7], 3)
    ((1, 6, 7), (2, 5), (3, 4))
    """
    if groups < 1:
        raise ValueError("there must be at least one group")
    dealt: list[list[int]] = [[] for _ in range(groups)]
    for k, player in enumerate(seeded):
        lap, pos = divmod(k, groups)
        dealt[pos if lap % 2 == 0 else groups - 1 - pos].append(player)
    return tuple(tuple(g) for g in dealt)


def playoff_seeding(group_standings: Sequence[Sequence[int]], per_group: int) -> tuple[int, ...]:
    """Seed a playoff from the top ``per_group`` of each group's final order.

    Seeds go by finishing place first (every group winner before any runner-up), then by group
    order. For a single standings list this is simply the cut of its top ``per_group``.

    >>> playoff_seeding([[11, 12, 13], [21, 22, 23]], 2)
    (11, 21, 12, 22)
    """
    if per_group < 1:
        raise ValueError("the cut takes at least one player from each group")
    short = [k + 1 for k, g in enumerate(group_standings) if len(g) < per_group]
    if short:
        raise ValueError(f"group(s) {short} have fewer than {per_group} players")
    return tuple(g[place] for place in range(per_group) for g in group_standings)
