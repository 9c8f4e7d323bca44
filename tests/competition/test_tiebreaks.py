"""Standings and tie-breaks, with numbers worked out by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from competition.tiebreaks import (
    GameSide,
    RoundResult,
    TieBreak,
    TieBreakConfig,
    rank,
)

F = Fraction
A, B, C, D, E = 1, 2, 3, 4, 5


def _win(rnd: int, winner: int, loser: int, margin: int = 0) -> RoundResult:
    return RoundResult(rnd, GameSide(winner, 1, margin, 3, 1), GameSide(loser, 0, -margin, 1, 0))


# A constructed crosstable (we could not quote a published one exactly, so every number below is
# worked out by hand from the FIDE 2009 virtual-opponent rule the module implements). Five
# players, three rounds, win 1, draw 1/2:
#   R1: A beats B; C draws D; E has a bye (1 point, unplayed).
#   R2: A beats C; B beats E; D has a bye (1 point, unplayed).
#   R3: D beats A; C beats B; E has dropped (0 points, unplayed).
# Scores: A 2, B 1, C 1.5, D 2.5, E 1.
# Opponents' scores count their own unplayed rounds as draws: A 2, B 1, C 1.5,
#   D = 0.5 + 0.5 (bye as draw) + 1 = 2, E = 0.5 (bye as draw) + 0 + 0.5 (absence as draw) = 1.
# Virtual opponents, Svon = SPR + (1 - SfPR) + 0.5 * (n - R) with n = 3:
#   E round 1: 0 + (1 - 1) + 0.5 * 2 = 1;  E round 3: 1 + (1 - 0) + 0 = 2;
#   D round 2: 0.5 + (1 - 1) + 0.5 * 1 = 1.
# Buchholz: A = B1 + C1.5 + D2 = 4.5; B = A2 + E1 + C1.5 = 4.5; C = D2 + A2 + B1 = 5;
#   D = C1.5 + von1 + A2 = 4.5; E = von1 + B1 + von2 = 4.
# Cut-1 (drop the lowest): A 3.5, B 3.5, C 4, D 3.5, E 3.
# Median (drop highest and lowest): A 1.5, B 1.5, C 2, D 1.5, E 1.
# Sonneborn-Berger: A = 1*1 + 1*1.5 + 0*2 = 2.5; B = 0*2 + 1*1 + 0*1.5 = 1;
#   C = 0.5*2 + 0*2 + 1*1 = 2; D = 0.5*1.5 + 1*1 (bye vs von) + 1*2 = 3.75; E = 1*1 + 0 + 0*2 = 1.
RESULTS = [
    _win(1, A, B, 30),
    RoundResult(1, GameSide(C, F(1, 2), 0, 2, 0), GameSide(D, F(1, 2), 0, 2, 1)),
    RoundResult(1, GameSide(E, 1)),
    _win(2, A, C, 12),
    _win(2, B, E, 40),
    RoundResult(2, GameSide(D, 1)),
    _win(3, D, A, 25),
    _win(3, C, B, 5),
]
ALL = [
    TieBreak.BUCHHOLZ,
    TieBreak.BUCHHOLZ_CUT1,
    TieBreak.MEDIAN_BUCHHOLZ,
    TieBreak.SONNEBORN_BERGER,
]


def test_hand_checked_buchholz_and_sonneborn_berger() -> None:
    rows = {r.player: r for r in rank([A, B, C, D, E], RESULTS, ALL, lots_seed=1)}
    expected = {
        A: (F(2), F(9, 2), F(7, 2), F(3, 2), F(5, 2)),
        B: (F(1), F(9, 2), F(7, 2), F(3, 2), F(1)),
        C: (F(3, 2), F(5), F(4), F(2), F(2)),
        D: (F(5, 2), F(9, 2), F(7, 2), F(3, 2), F(15, 4)),
        E: (F(1), F(4), F(3), F(1), F(1)),
    }
    for player, (points, bh, cut1, median, sb) in expected.items():
        row = rows[player]
        assert row.match_points == points
        assert [row.value(tb) for tb in ALL] == [bh, cut1, median, sb]


def test_order_game_points_hands_gins_and_head_to_head() -> None:
    order = [TieBreak.HEAD_TO_HEAD, TieBreak.GAME_POINTS, TieBreak.HANDS_WON, TieBreak.GINS]
    rows = rank([A, B, C, D, E], RESULTS, order, lots_seed=3)
    assert [r.player for r in rows] == [D, A, C, B, E]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]
    by = {r.player: r for r in rows}
    assert by[B].value(TieBreak.HEAD_TO_HEAD) == 1
    assert by[E].value(TieBreak.HEAD_TO_HEAD) == 0
    assert by[A].value(TieBreak.GAME_POINTS) == 30 + 12 - 25
    assert by[A].value(TieBreak.HANDS_WON) == 3 + 3 + 1
    assert by[D].value(TieBreak.GINS) == 2
    assert by[D].value(TieBreak.HEAD_TO_HEAD) == 0  # alone in its score group
    with pytest.raises(KeyError):
        by[A].value(TieBreak.BUCHHOLZ)


def test_head_to_head_needs_a_complete_mini_table() -> None:
    # 1, 2, 3 and 5 on 1 point; 1 beat 2 but 3 met neither of them (5 won by forfeit), so
    # head-to-head cannot decide and the game points do: 3 (50), 2 (-10 + 25), 1 (10), 5 (0).
    results = [
        _win(1, 1, 2, 10),
        _win(1, 3, 4, 50),
        _win(2, 2, 4, 25),
        RoundResult(2, GameSide(3, 0), GameSide(5, 1), played=False),
    ]
    order = [TieBreak.HEAD_TO_HEAD, TieBreak.GAME_POINTS]
    rows = rank([1, 2, 3, 4, 5], results, order, lots_seed=0)
    tied = [r.player for r in rows if r.match_points == 1]
    assert tied == [3, 2, 1, 5]
    assert all(r.value(TieBreak.HEAD_TO_HEAD) == 0 for r in rows if r.player in (1, 2, 3))


def test_a_complete_mini_table_decides_a_three_way_tie() -> None:
    # 1, 2 and 3 finish on 2 points and all met: 1 beat 2 and 3, 2 beat 3. Mini-table 2, 1, 0.
    results = [
        _win(1, 1, 2),
        _win(1, 3, 4),
        _win(2, 2, 3),
        _win(2, 4, 1),
        _win(3, 1, 3),
        _win(3, 2, 4),
        _win(4, 3, 4),
    ]
    rows = rank([1, 2, 3, 4], results, [TieBreak.HEAD_TO_HEAD], lots_seed=9)
    assert [r.player for r in rows] == [1, 2, 3, 4]
    assert [r.value(TieBreak.HEAD_TO_HEAD) for r in rows] == [2, 1, 0, 0]


def test_opponents_match_win_percentage_floor() -> None:
    results = [_win(1, 1, 2), _win(2, 1, 3), _win(2, 2, 4)]
    rows = {
        r.player: r
        for r in rank([1, 2, 3, 4], results, [TieBreak.OPPONENTS_MATCH_WIN], lots_seed=0)
    }
    # Player 1 met 2 (1 win in 2 rounds: 1/2) and 3 (0 in 1 round, floored to 1/3).
    assert rows[1].value(TieBreak.OPPONENTS_MATCH_WIN) == (F(1, 2) + F(1, 3)) / 2
    raw = TieBreakConfig(omw_floor=F(0))
    rows = {
        r.player: r
        for r in rank([1, 2, 3, 4], results, [TieBreak.OPPONENTS_MATCH_WIN], 0, config=raw)
    }
    assert rows[1].value(TieBreak.OPPONENTS_MATCH_WIN) == F(1, 4)
    lonely = rank([9], [], [TieBreak.OPPONENTS_MATCH_WIN], 0)
    assert lonely[0].value(TieBreak.OPPONENTS_MATCH_WIN) == 0


def test_lots_are_deterministic_and_always_separate() -> None:
    players = list(range(1, 21))
    first = rank(players, [], [TieBreak.BUCHHOLZ], lots_seed=42)
    again = rank(list(reversed(players)), [], [TieBreak.BUCHHOLZ], lots_seed=42)
    other = rank(players, [], [TieBreak.BUCHHOLZ], lots_seed=43)
    assert [r.player for r in first] == [r.player for r in again]
    assert [r.player for r in first] != [r.player for r in other]
    assert sorted(r.value(TieBreak.LOTS) for r in first) == list(range(1, 21))
    explicit = rank(players, [], [TieBreak.LOTS, TieBreak.GINS], lots_seed=42)
    assert [r.player for r in explicit] == [r.player for r in first]


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="twice in the standings"):
        rank([1, 1], [], [], 0)
    with pytest.raises(ValueError, match="not in the event"):
        rank([1], [_win(1, 1, 2)], [], 0)
    with pytest.raises(ValueError, match="two results"):
        rank([1, 2, 3], [_win(1, 1, 2), _win(1, 1, 3)], [], 0)
