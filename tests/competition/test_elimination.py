"""Single and double elimination brackets: seeding, byes, result flow, walkovers, reset."""

from __future__ import annotations

import random

import pytest

from competition.elimination import (
    Bracket,
    BracketError,
    BracketState,
    MatchStatus,
    Section,
    Vacancy,
    bracket_state,
    double_elimination,
    seed_order,
    single_elimination,
)


def _play_out(bracket: Bracket, rng: random.Random) -> tuple[dict[int, int], BracketState]:
    """Decide every ready match at random until nothing is ready; return the results and state."""
    results: dict[int, int] = {}
    state = bracket_state(bracket, results)
    while state.ready:
        match = state.ready[0]
        assert isinstance(match.home, int)
        assert isinstance(match.away, int)
        results[match.match.id] = rng.choice((match.home, match.away))
        state = bracket_state(bracket, results)
    return results, state


def test_seed_order_is_the_standard_one() -> None:
    assert seed_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)
    # When favourites win, every round pairs seed s with seed (survivors + 1 - s).
    order = list(seed_order(64))
    while len(order) > 1:
        pairs = list(zip(order[::2], order[1::2], strict=True))
        assert all(a + b == len(order) + 1 for a, b in pairs)
        order = [min(p) for p in pairs]
    with pytest.raises(BracketError):
        seed_order(12)


@pytest.mark.parametrize("n", range(2, 65))
def test_top_two_seeds_meet_only_in_the_final_and_byes_go_to_the_top(n: int) -> None:
    players = list(range(1, n + 1))
    bracket = single_elimination(players)
    size = 1 << (n - 1).bit_length()
    first_round = [m for m in bracket.matches if m.round == 1]
    byes = [min(m.home.ref, m.away.ref) for m in first_round if max(m.home.ref, m.away.ref) > n]
    assert sorted(byes) == list(range(1, size - n + 1))
    # Seeds 1 and 2 start in different halves, so their paths join only in the final.
    order = seed_order(size)
    assert order.index(1) < size // 2 <= order.index(2)
    # Every match except the final feeds exactly one later slot with its winner.
    final = bracket.matches[-1]
    fed = [m.home.ref for m in bracket.matches if m.home.kind == "winner"]
    fed += [m.away.ref for m in bracket.matches if m.away.kind == "winner"]
    assert sorted(fed) == [m.id for m in bracket.matches if m is not final]
    # If seeds always win, 1 and 2 meet in the final and nowhere else.
    results: dict[int, int] = {}
    state = bracket_state(bracket, results)
    while state.ready:
        for m in state.ready:
            assert {m.home, m.away} != {1, 2} or m.match is final
            assert isinstance(m.home, int)
            assert isinstance(m.away, int)
            results[m.match.id] = min(m.home, m.away)
        state = bracket_state(bracket, results)
    assert state.champion == 1
    assert {state.matches[-1].home, state.matches[-1].away} == {1, 2}


def test_third_place_match_and_byes_through_it() -> None:
    bracket = single_elimination([10, 20, 30], third_place=True)
    assert bracket.matches[-1].section is Section.THIRD_PLACE
    state = bracket_state(bracket, {2: 30})
    third = state.matches[-1]
    assert third.status is MatchStatus.BYE
    assert third.winner == 20
    assert state.matches[0].status is MatchStatus.BYE
    assert state.matches[0].winner == 10
    state = bracket_state(bracket, {2: 30, 3: 30})
    assert state.champion == 30
    assert single_elimination([1, 2], third_place=True).matches[-1].section is Section.WINNERS


def test_walkovers_and_bad_results() -> None:
    bracket = single_elimination([1, 2, 3, 4])
    state = bracket_state(bracket, {}, dropped={4})
    assert state.matches[0].status is MatchStatus.WALKOVER
    assert state.matches[0].winner == 1
    state = bracket_state(bracket, {}, dropped={2, 3})
    assert state.matches[1].winner is Vacancy.BYE
    state = bracket_state(bracket, {1: 1}, dropped={2, 3})
    assert state.champion == 1
    assert state.matches[2].status is MatchStatus.BYE
    assert bracket_state(bracket, {1: 4}, dropped={4}).matches[0].winner == 4
    with pytest.raises(BracketError, match="not in match"):
        bracket_state(bracket, {1: 2})
    with pytest.raises(BracketError, match="not known yet"):
        bracket_state(bracket, {3: 1})
    with pytest.raises(BracketError, match="not in the bracket"):
        bracket_state(bracket, {99: 1})
    with pytest.raises(BracketError, match="is a bye"):
        bracket_state(single_elimination([1, 2, 3]), {1: 1})
    with pytest.raises(BracketError):
        single_elimination([1])
    with pytest.raises(BracketError):
        single_elimination([1, 1])


@pytest.mark.parametrize("n", range(2, 34))
@pytest.mark.parametrize("seed", [1, 2])
def test_double_elimination_everyone_but_the_champion_loses_twice(n: int, seed: int) -> None:
    rng = random.Random(n * 100 + seed)
    bracket = double_elimination(list(range(1, n + 1)))
    _results, state = _play_out(bracket, rng)
    assert state.champion is not None
    losses = dict.fromkeys(range(1, n + 1), 0)
    for m in state.matches:
        if m.status is MatchStatus.PLAYED:
            assert isinstance(m.loser, int)
            losses[m.loser] += 1
    for player, count in losses.items():
        if player == state.champion:
            assert count <= 1
        else:
            assert count == 2
    # Every loser of a winners'-bracket match has somewhere to go.
    dropped_to = {m.home.ref for m in bracket.matches if m.home.kind == "loser"}
    dropped_to |= {m.away.ref for m in bracket.matches if m.away.kind == "loser"}
    assert {m.id for m in bracket.matches if m.section is Section.WINNERS} <= dropped_to


def test_grand_final_reset_only_when_the_losers_side_wins() -> None:
    bracket = double_elimination([1, 2, 3, 4])
    # WB: 1 beats 4, 2 beats 3, 1 beats 2. LB: 3 beats 4, then 3 beats 2.
    base = {1: 1, 2: 2, 3: 1, 4: 3, 5: 3}
    state = bracket_state(bracket, base)
    assert state.matches[-1].status is MatchStatus.WAITING
    gf, reset = bracket.matches[-2].id, bracket.matches[-1].id
    state = bracket_state(bracket, {**base, gf: 1})
    assert state.champion == 1
    assert state.matches[-1].status is MatchStatus.NOT_NEEDED
    with pytest.raises(BracketError, match="reset"):
        bracket_state(bracket, {**base, gf: 1, reset: 1})
    state = bracket_state(bracket, {**base, gf: 3})
    assert state.champion is None
    assert state.matches[-1].status is MatchStatus.READY
    assert bracket_state(bracket, {**base, gf: 3, reset: 1}).champion == 1
    no_reset = double_elimination([1, 2, 3, 4], reset=False)
    assert bracket_state(no_reset, {**base, gf: 3}).champion == 3
    # A winners' champion who drops before the grand final loses it by walkover, without reset.
    assert bracket_state(bracket, base, dropped={1}).champion == 3


def test_two_player_double_elimination_is_a_rematch_final() -> None:
    bracket = double_elimination([1, 2])
    assert [m.section for m in bracket.matches] == [
        Section.WINNERS,
        Section.GRAND_FINAL,
        Section.GRAND_FINAL_RESET,
    ]
    state = bracket_state(bracket, {1: 2, 2: 1, 3: 1})
    assert state.champion == 1


def test_losers_bracket_drop_order_alternates() -> None:
    bracket = double_elimination(list(range(1, 17)))
    lb2 = [m for m in bracket.matches if m.section is Section.LOSERS and m.round == 2]
    wb2 = [m.id for m in bracket.matches if m.section is Section.WINNERS and m.round == 2]
    assert [m.away.ref for m in lb2] == wb2[::-1]
    lb4 = [m for m in bracket.matches if m.section is Section.LOSERS and m.round == 4]
    wb3 = [m.id for m in bracket.matches if m.section is Section.WINNERS and m.round == 3]
    assert [m.away.ref for m in lb4] == wb3[1:] + wb3[:1]
