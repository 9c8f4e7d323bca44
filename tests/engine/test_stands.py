"""A match scored as it stands at time (docs/rules.md §11): every case worked by hand.

Standard rules: target 100, game bonus 100, box bonus 25 a hand won, a shutout adds the game bonus
again. A game won by one hand of 100 therefore ends 100 + 100 + 25 + 100 = 325 to 0.
"""

from __future__ import annotations

from engine.game import (
    MatchFormat,
    ScoredHand,
    score_as_it_stands,
    score_hollywood,
    score_match,
)
from engine.rules import find_rules
from engine.scoring import HandOutcome

STANDARD = find_rules("standard")
ONE_GAME = MatchFormat()
BEST_OF_3 = MatchFormat("best_of", games=3)
BEST_OF_5 = MatchFormat("best_of", games=5)
DEAD = ScoredHand(None, 0, HandOutcome.DEAD)


def stands(fmt, games, rules=STANDARD, players=None):
    return score_as_it_stands(score_match(rules, fmt, games, players=players), fmt)


def test_the_leader_wins_by_the_difference_without_any_bonus():
    # A 30 + 20 = 50, B 12: A by 38. Played out it would carry box bonuses (2 × 25 and 25).
    got = stands(ONE_GAME, [[ScoredHand(0, 30), ScoredHand(1, 12), ScoredHand(0, 20)]])
    assert got.game_totals == (50, 12)
    assert (got.winner, got.margin) == (0, 38)
    assert (got.game_winner, got.game_margin) == (0, 38)
    assert got.games_won == (0, 0)  # one game, not finished: games count only in a best-of


def test_level_points_are_a_draw():
    got = stands(ONE_GAME, [[ScoredHand(0, 20), DEAD, ScoredHand(1, 20)]])
    assert got.game_totals == (20, 20)
    assert (got.winner, got.margin, got.game_winner) == (None, 0, None)


def test_no_hand_played_is_a_draw():
    got = stands(ONE_GAME, [[]])
    assert (got.winner, got.margin) == (None, 0)


def test_a_fixed_number_of_hands_goes_to_the_higher_total():
    fmt = MatchFormat("fixed_hands", hands=6)
    got = stands(fmt, [[ScoredHand(1, 9), ScoredHand(0, 4), ScoredHand(1, 25)]])
    assert (got.winner, got.margin) == (1, 30)  # 34 - 4


def test_best_of_the_games_won_count_and_the_game_in_progress_goes_to_its_leader():
    # Game 1: A 100 (325-0). Game 2: A 40, B 10. A 2 games to 0; 325 + 30 = 355.
    got = stands(BEST_OF_3, [[ScoredHand(0, 100)], [ScoredHand(0, 40), ScoredHand(1, 10)]])
    assert got.games_won == (2, 0)
    assert (got.game_winner, got.game_margin) == (0, 30)
    assert (got.winner, got.margin) == (0, 355)


def test_best_of_level_games_are_a_draw():
    # Game 1: A 100 (325-0). Game 2 in progress: B 10, A 5: game 2 to B, one game each.
    got = stands(BEST_OF_3, [[ScoredHand(0, 100)], [ScoredHand(1, 10), ScoredHand(0, 5)]])
    assert got.games_won == (1, 1)
    assert (got.winner, got.margin) == (None, 0)


def test_best_of_a_level_game_in_progress_goes_to_nobody():
    # Game 1: A 100 (325-0). Game 2: 10 each. A 1 game to 0, by 325.
    got = stands(BEST_OF_3, [[ScoredHand(0, 100)], [ScoredHand(0, 10), ScoredHand(1, 10)]])
    assert got.games_won == (1, 0)
    assert (got.game_winner, got.winner, got.margin) == (None, 0, 325)


def test_best_of_five_the_margin_sums_each_game_as_it_stands():
    # Game 1 A 325-0, game 2 B 325-0, game 3 in progress A 25-0: A 2-1 by 325 - 325 + 25.
    got = stands(BEST_OF_5, [[ScoredHand(0, 100)], [ScoredHand(1, 100)], [ScoredHand(0, 25)]])
    assert got.games_won == (2, 1)
    assert (got.winner, got.margin) == (0, 25)


def test_teams_of_a_partnership_are_scored_as_players():
    # Team 1 scores 17 then 8, team 0 scores 20: team 1 ahead 25 to 20, by 5.
    rules = find_rules("partnership")
    got = stands(ONE_GAME, [[ScoredHand(1, 17), ScoredHand(0, 20), ScoredHand(1, 8)]], rules)
    assert got.game_totals == (20, 25)
    assert (got.winner, got.margin) == (1, 5)


def test_three_players_the_lead_must_be_alone():
    rules = find_rules("standard", table="three_dealer_out")
    # Hand 1: seat 0 deals and sits out, seat 1 wins 30; hand 2: seat 1 deals, seat 2 wins 30;
    # hand 3: seat 2 deals, seat 0 wins 10. 10/30/30: the lead is shared, a draw.
    hands = [ScoredHand(1, 30), ScoredHand(2, 30), ScoredHand(0, 10)]
    got = stands(ONE_GAME, [hands], rules, players=3)
    assert got.game_totals == (10, 30, 30)
    assert (got.winner, got.margin) == (None, 0)
    more = stands(ONE_GAME, [[*hands, ScoredHand(1, 5)]], rules, players=3)
    assert (more.winner, more.margin) == (1, 5)  # 35 against 30


def test_hollywood_sums_the_columns_as_they_stand():
    # A wins 30 (column 1), then 20 (columns 1 and 2); B wins 10, B's first score: column 1.
    # Column 1: A 50, B 10; column 2: A 20, B 0; none closed. Sums 70 and 10: A by 60.
    rules = find_rules("hollywood")
    fmt = MatchFormat("hollywood")
    hands = [ScoredHand(0, 30), ScoredHand(0, 20), ScoredHand(1, 10)]
    assert not score_hollywood(rules, hands).finished
    got = score_as_it_stands(score_match(rules, fmt, [hands]), fmt)
    assert (got.winner, got.margin) == (0, 60)
