"""``next_match``: whom a player meets next in a bracket before that match can be made."""

from __future__ import annotations

from competition.elimination import (
    NextMatch,
    bracket_state,
    double_elimination,
    next_match,
    single_elimination,
)


def test_a_winner_waits_for_the_other_semi_final():
    b = single_elimination([1, 2, 3, 4])
    assert next_match(bracket_state(b, {}), 1) == NextMatch(1, 4)  # their match is ready
    waiting = next_match(bracket_state(b, {1: 1}), 1)
    assert waiting == NextMatch(3, None, "winner", 2, (2, 3))
    assert next_match(bracket_state(b, {1: 1, 2: 2}), 1) == NextMatch(3, 2)
    assert next_match(bracket_state(b, {1: 4}), 1) is None  # out
    assert next_match(bracket_state(b, {1: 1, 2: 2, 3: 1}), 1) is None  # champion


def test_a_deeper_feeder_names_only_the_players_known():
    b = single_elimination(list(range(1, 9)))
    state = bracket_state(b, {1: 1, 2: 5})  # quarter-finals 1 and 2 played
    semi = next_match(state, 1)
    assert semi is not None
    assert semi.opponent == 5
    final = next_match(bracket_state(b, {1: 1, 2: 5, 5: 1}), 1)
    assert final is not None
    assert final.source == "winner"
    assert len(final.feeder_players) == 0  # the other semi-final's players are not known yet


def test_double_elimination_a_loser_waits_in_the_losers_bracket():
    b = double_elimination([1, 2, 3, 4])
    state = bracket_state(b, {1: 1})
    # seed 4 lost the first match: they meet the loser of the other first-round match
    dropped = next_match(state, 4)
    assert dropped is not None
    assert dropped.opponent is None
    assert dropped.source == "loser"
    assert set(dropped.feeder_players) == {2, 3}
