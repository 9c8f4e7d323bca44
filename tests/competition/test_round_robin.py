"""Berger tables, snake groups and playoff cuts."""

from __future__ import annotations

from collections import Counter

import pytest

from competition.round_robin import (
    berger_schedule,
    playoff_seeding,
    snake_groups,
)


def test_six_players_match_the_fide_berger_table() -> None:
    # FIDE Handbook C.05 Annex 1, Berger table for 5 or 6 players.
    expected = [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]
    rounds = berger_schedule([1, 2, 3, 4, 5, 6])
    assert [[(g.first, g.second) for g in r.games] for r in rounds] == expected
    assert [g.table for g in rounds[0].games] == [1, 2, 3]


@pytest.mark.parametrize("n", range(2, 17))
@pytest.mark.parametrize("cycles", [1, 2])
def test_everyone_meets_everyone_once_per_cycle(n: int, cycles: int) -> None:
    players = [100 + k for k in range(n)]
    rounds = berger_schedule(players, cycles=cycles)
    per_cycle = n - 1 if n % 2 == 0 else n
    assert len(rounds) == per_cycle * cycles
    for c in range(cycles):
        cycle = rounds[c * per_cycle : (c + 1) * per_cycle]
        meetings = Counter(frozenset((g.first, g.second)) for r in cycle for g in r.games)
        assert len(meetings) == n * (n - 1) // 2
        assert set(meetings.values()) == {1}
        for r in cycle:
            seated = [p for g in r.games for p in (g.first, g.second)]
            if r.bye is not None:
                seated.append(r.bye)
            assert sorted(seated) == players
        byes = Counter(r.bye for r in cycle if r.bye is not None)
        assert (n % 2 == 0 and not byes) or (set(byes.values()) == {1} and len(byes) == n)
    if cycles == 2:
        first = {(g.first, g.second) for r in rounds[:per_cycle] for g in r.games}
        second = {(g.second, g.first) for r in rounds[per_cycle:] for g in r.games}
        assert first == second


@pytest.mark.parametrize("n", range(3, 17))
def test_double_round_robin_swaps_the_last_two_rounds_of_the_first_cycle(n: int) -> None:
    """FIDE Handbook C.05, Annex 1 (Berger tables): "for a double round robin it is strongly
    recommended to reverse the order of the last two rounds of the first cycle", so that where
    the cycles join nobody has the same seat three rounds running."""
    single = berger_schedule(list(range(1, n + 1)))
    double = berger_schedule(list(range(1, n + 1)), cycles=2)
    per_cycle = len(single)
    tables = [[(g.first, g.second) for g in r.games] for r in double]
    plain = [[(g.first, g.second) for g in r.games] for r in single]
    assert tables[:per_cycle] == [*plain[:-2], plain[-1], plain[-2]]
    assert tables[per_cycle:] == [[(b, a) for a, b in r] for r in plain]
    for p in range(1, n + 1):
        seats = [
            next((g.first == p for g in r.games if p in (g.first, g.second)), None) for r in double
        ]
        runs = [s for s in seats if s is not None]
        assert not any(runs[k] == runs[k + 1] == runs[k + 2] for k in range(len(runs) - 2)), p


def test_seats_are_nearly_balanced_in_a_single_cycle() -> None:
    rounds = berger_schedule(list(range(1, 11)))
    firsts = Counter(g.first for r in rounds for g in r.games)
    assert max(firsts.values()) - min(firsts.values()) <= 1


def test_schedule_errors_and_degenerate_fields() -> None:
    assert berger_schedule([]) == ()
    assert berger_schedule([7])[0].bye == 7
    with pytest.raises(ValueError):
        berger_schedule([1, 1])
    with pytest.raises(ValueError):
        berger_schedule([1, 2], cycles=0)


def test_snake_groups_and_playoff_cut() -> None:
    groups = snake_groups(list(range(1, 13)), 4)
    assert groups == ((1, 8, 9), (2, 7, 10), (3, 6, 11), (4, 5, 12))
    assert snake_groups([1, 2], 1) == ((1, 2),)
    with pytest.raises(ValueError):
        snake_groups([1], 0)
    assert playoff_seeding([[5, 6, 7, 8]], 2) == (5, 6)
    with pytest.raises(ValueError, match="fewer than 3"):
        playoff_seeding([[1, 2, 3], [4, 5]], 3)
    with pytest.raises(ValueError):
        playoff_seeding([[1]], 0)
