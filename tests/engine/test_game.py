"""Game and match scoring (docs/rules.md §4-§5): totals, end, bonuses, shutouts, dealers, Hollywood,
three-player rotations, partnership totals, match formats. Numbers worked out by hand beside each.
"""

from __future__ import annotations

import pytest

from engine.errors import RuleError, ScoreError
from engine.game import (
    BoxRoles,
    MatchFormat,
    ScoredHand,
    dealer_out_seats,
    score_game,
    score_hollywood,
    score_match,
    score_three_box,
    table_seats,
    three_box_roles,
)
from engine.rules import find_rules
from engine.scoring import (
    HandOutcome,
    dead_hand,
    score_hand_counts,
    score_partnership_hand,
)

STANDARD = find_rules("standard")
A, B = 0, 1


def win(player: int, points: int, **kw: object) -> ScoredHand:
    return ScoredHand(winner=player, points=points, **kw)


DEAD = ScoredHand.dead()


def test_standard_game_with_game_and_box_bonus_and_margin() -> None:
    # A 60, B 20, A 45: A reaches 105 in hand 3. A: 105 + 100 game + 2 × 25 box = 255;
    # B: 20 + 1 × 25 box = 45. B won a hand: no shutout. Margin 255 − 45 = 210.
    g = score_game(STANDARD, [win(A, 60), win(B, 20), win(A, 45)])
    assert g.finished
    assert g.winner == A
    assert g.loser == B
    assert g.end_hand == 3
    assert g.running_totals == ((60, 0), (60, 20), (105, 20))
    assert (g.game_bonus, g.box_bonus, g.shutout_bonus) == ((100, 0), (50, 25), (0, 0))
    assert (g.final_totals, g.margin, g.shutout) == ((255, 45), 210, False)


def test_shutout_add_game_bonus() -> None:
    # A 60, A 45: 105 + 100 + 50 + 100 (shutout: the game bonus again) = 355.
    g = score_game(STANDARD, [win(A, 60), win(A, 45)])
    assert (g.final_totals, g.shutout, g.shutout_bonus) == ((355, 0), True, (100, 0))


def test_shutout_double_total() -> None:
    # Modern: (105 + 100 + 2 × 25) × 2 = 510.
    g = score_game(find_rules("modern"), [win(A, 60), win(A, 45)])
    assert (g.final_totals, g.shutout, g.margin) == ((510, 0), True, 510)


def test_shutout_none() -> None:
    # Online table played to 100 (its option): no game, box or shutout bonus: 105.
    g = score_game(find_rules("online-table", target=100), [win(B, 60), win(B, 45)])
    assert (g.winner, g.final_totals, g.shutout) == (B, (0, 105), False)


def test_a_hand_won_with_zero_points_prevents_the_shutout() -> None:
    # B wins a tied knock with 0 points: a hand won, so no shutout; B still gets the 25 box bonus.
    g = score_game(STANDARD, [win(B, 0), win(A, 100)])
    assert (g.shutout, g.final_totals) == (False, (225, 25))


def test_unfinished_game_and_hands_after_the_end() -> None:
    g = score_game(STANDARD, [win(A, 60)])
    assert (g.finished, g.winner, g.margin, g.final_totals) == (False, None, None, (60, 0))
    assert g.loser is None
    with pytest.raises(ScoreError, match="Hand 3 was entered after the game ended with hand 2"):
        score_game(STANDARD, [win(A, 60), win(A, 45), win(B, 10)])


def test_dead_hands_are_recorded_and_the_same_dealer_deals_again() -> None:
    # Standard: the loser deals next. Dealer 0; A wins -> B deals; dead -> B again; B wins -> A.
    g = score_game(STANDARD, [win(A, 10), DEAD, win(B, 5)], first_dealer=0)
    assert g.dealers == (0, 1, 1)
    assert g.next_dealer == 0
    assert g.running_totals[1] == g.running_totals[0] == (10, 0)
    assert g.hands_won == (1, 1)
    with pytest.raises(ScoreError, match="Hand 2: player 1 deals this hand, not player 0"):
        score_game(STANDARD, [win(A, 10), ScoredHand.dead(dealer=0)])
    assert score_game(STANDARD, [win(A, 10, dealer=0)]).dealers == (0,)


def test_gem_winner_deals_and_classic_rotates() -> None:
    gem = find_rules("gem")
    assert score_game(gem, [win(A, 11), win(B, 11)], first_dealer=1).dealers == (1, 0)
    assert score_game(find_rules("classic"), [win(A, 5), win(A, 5)]).dealers == (0, 1)


def test_single_hand_match() -> None:
    # Online table, single hand (its default): a dead hand is replayed, the first scored hand
    # decides.
    rules = find_rules("online-table")
    g = score_game(rules, [DEAD, win(B, 30)])
    assert (g.winner, g.end_hand, g.final_totals) == (B, 2, (0, 30))


def test_tie_at_the_target_is_broken_by_the_last_hand() -> None:
    # Gem: A 88, B 97. A undercuts (25) while B, the knocker, holds all gems (+16):
    # A 113, B 113 — tied; A scored 25 in the last hand, B 16: A wins.
    gem = find_rules("gem")
    hands = [win(A, 88), win(B, 97), win(A, 25, others=((B, 16),))]
    g = score_game(gem, hands)
    assert (g.totals, g.winner, g.tiebreak) == ((113, 113), A, True)
    assert g.margin == 0


def test_tie_not_broken_plays_on() -> None:
    rules = find_rules("rummy", target=100)
    hands = [win(0, 90), win(1, 90), win(2, 10, others=((0, 10), (1, 10)))]
    # All three total 100 and 0 and 1 both scored 10 last hand, more than... player 2 too: tie.
    g = score_game(rules, hands, players=3)
    assert not g.finished
    no_tiebreak = find_rules("gem", last_hand_tiebreak=False)
    g = score_game(no_tiebreak, [win(A, 88), win(B, 97), win(A, 25, others=((B, 16),))])
    assert not g.finished
    g = score_game(no_tiebreak, [win(A, 88), win(B, 97), win(A, 25, others=((B, 16),)), win(A, 11)])
    assert g.winner == A
    assert not g.tiebreak


def test_fixed_number_of_hands_rummy() -> None:
    # Rummy for 3 hands, 3 players: 20, 35, 30 -> player 1 (35) ... totals (20, 35, 30).
    rules = find_rules("rummy", target=None, max_hands=3)
    g = score_game(rules, [win(0, 20), win(1, 35), win(2, 30)], players=3)
    assert (g.winner, g.end_hand, g.final_totals, g.margin) == (1, 3, (20, 35, 30), 5)
    assert g.dealers == (0, 1, 2)
    assert g.loser is None


def test_entry_checks() -> None:
    with pytest.raises(ScoreError, match="player 2 is not in this 2-player game"):
        score_game(STANDARD, [win(2, 10)])
    with pytest.raises(ScoreError, match="First dealer must be a player 0-1, not 2"):
        score_game(STANDARD, [], first_dealer=2)
    with pytest.raises(ScoreError, match="Give the number of players for an 'open' table"):
        score_game(find_rules("rummy"), [])
    with pytest.raises(ScoreError, match="A 'two' game has 2 players \\(teams\\), not 3"):
        score_game(STANDARD, [], players=3)
    with pytest.raises(ScoreError, match="Rummy at an open table is for 2-6 players, not 7"):
        score_game(find_rules("rummy"), [], players=7)
    with pytest.raises(RuleError, match="scored with score_hollywood"):
        score_game(find_rules("hollywood"), [])
    with pytest.raises(ScoreError, match="A dead hand scores nothing"):
        ScoredHand(winner=None, points=3, outcome=HandOutcome.DEAD)
    with pytest.raises(ScoreError, match="A dead hand has no winner, not player 1"):
        ScoredHand(winner=1, outcome=HandOutcome.DEAD)
    with pytest.raises(ScoreError, match="Points must not be negative"):
        win(A, -5)
    with pytest.raises(ScoreError, match="Player 0 is credited twice"):
        win(A, 5, others=((A, 3),))
    with pytest.raises(ScoreError, match="An extra credit must be positive"):
        win(A, 5, others=((B, 0),))


def test_scored_hand_from_hand_results() -> None:
    knock = score_hand_counts(
        STANDARD, outcome=HandOutcome.KNOCK, knocker_deadwood=4, defender_deadwood=20
    )
    assert ScoredHand.from_hand(knock, knocker=1, defender=0) == win(
        1, 16, outcome=HandOutcome.KNOCK
    )
    gem = score_hand_counts(
        find_rules("gem"),
        outcome=HandOutcome.UNDERCUT,
        knocker_deadwood=5,
        defender_deadwood=2,
        knock_limit=5,
        knocker_gem_bonus=True,
    )
    # Defender undercuts: 25; the knocker still gets the 16 gem bonus.
    entry = ScoredHand.from_hand(gem, knocker=0, defender=1, dealer=1)
    assert (entry.winner, entry.points, entry.others, entry.dealer) == (1, 25, ((0, 16),), 1)
    assert ScoredHand.from_hand(dead_hand(), knocker=0, defender=1).outcome is HandOutcome.DEAD
    with pytest.raises(ScoreError, match="must be different players"):
        ScoredHand.from_hand(knock, knocker=0, defender=0)


def test_hollywood_three_games_from_one_stream() -> None:
    # 1. A 30 -> g1.  2. B 20 -> g1.  3. A 40 -> g1, g2.  4. A 35 -> g1, g2, g3:
    #    g1: A 30 + 40 + 35 = 105 closes; A 105 + 100 + 3 × 25 = 280, B 20 + 25 = 45.
    # 5. B 50 (B's 2nd) -> g2 only (g1 closed).  6. B 60 (3rd) -> g2, g3:
    #    g2: B 110 closes; B 110 + 100 + 2 × 25 = 260, A 75 + 2 × 25 = 125.
    # 7. A 70 -> g3: A 35 + 70 = 105 closes; A 105 + 100 + 50 = 255, B 60 + 25 = 85.
    stream = [win(A, 30), win(B, 20), win(A, 40), win(A, 35), win(B, 50), win(B, 60), win(A, 70)]
    h = score_hollywood(find_rules("hollywood"), stream)
    assert h.entered == ((0,), (0,), (0, 1), (0, 1, 2), (1,), (1, 2), (2,))
    assert [g.final_totals for g in h.games] == [(280, 45), (125, 260), (255, 85)]
    assert [g.winner for g in h.games] == [A, B, A]
    assert h.finished
    assert h.games_won == (2, 1)
    with pytest.raises(ScoreError, match="Hand 8 was entered after every Hollywood game had ended"):
        score_hollywood(find_rules("hollywood"), [*stream, win(B, 5)])


def test_hollywood_shutout_per_game_and_dead_hands() -> None:
    # A wins four hands of 30: g1 gets all four (120), g2 three (90), g3 two (60).
    # g1 closes after hand 4 with a shutout: 120 + 100 + 4 × 25 + 100 = 420.
    stream = [win(A, 30), DEAD, win(A, 30), win(A, 30), win(A, 30)]
    h = score_hollywood(find_rules("hollywood"), stream)
    assert h.entered == ((0,), (), (0, 1), (0, 1, 2), (0, 1, 2))
    assert h.games[0].final_totals == (420, 0)
    assert h.games[0].shutout
    assert [g.totals for g in h.games[1:]] == [(90, 0), (60, 0)]
    assert not h.finished
    assert h.dealers == (0, 1, 1, 1, 1)
    with pytest.raises(RuleError, match="needs a rule set with hollywood_games"):
        score_hollywood(STANDARD, stream)
    with pytest.raises(ScoreError, match="First dealer must be player 0 or 1"):
        score_hollywood(find_rules("hollywood"), stream, first_dealer=3)


def test_three_box_rotation_over_several_hands() -> None:
    # Start: box 0, captain 1, sitter 2.
    # 1. box 0 wins 20: stays; captain and sitter swap -> box 0, captain 2, sitter 1.
    # 2. captain 2 wins 15: 0 sits, 2 goes in the box, sitter 1 captains -> (2, 1, 0).
    # 3. dead: unchanged.  4. box 2 wins 30 -> (2, 0, 1).  5. captain 0 wins 10 -> (0, 1, 2).
    rules = find_rules("three-box")
    hands = [win(0, 20), win(2, 15), DEAD, win(2, 30), win(0, 10)]
    game, roles = score_three_box(rules, (0, 1, 2), hands)
    assert roles == (
        BoxRoles(0, 1, 2),
        BoxRoles(0, 2, 1),
        BoxRoles(2, 1, 0),
        BoxRoles(2, 1, 0),
        BoxRoles(2, 0, 1),
        BoxRoles(0, 1, 2),
    )
    assert game.totals == (30, 0, 45)
    assert not game.finished
    assert game.dealers == (0, 0, 2, 2, 2)
    assert game.next_dealer == 0
    with pytest.raises(ScoreError, match="Hand 2: Player 1 is the sitter and cannot win"):
        three_box_roles(BoxRoles(0, 1, 2), [0, 1])
    with pytest.raises(ScoreError, match="Box, captain and sitter must be players 0, 1 and 2"):
        BoxRoles(0, 0, 2)
    with pytest.raises(RuleError, match="needs a 'three_box' rule set"):
        score_three_box(STANDARD, (0, 1, 2), [])


def test_three_box_first_to_100() -> None:
    rules = find_rules("three-box")
    game, _ = score_three_box(rules, (0, 1, 2), [win(0, 60), win(0, 45)])
    # No game or box bonus in the three-box preset: 105.
    assert (game.winner, game.final_totals, game.margin) == (0, (105, 0, 0), 105)


@pytest.mark.parametrize(
    ("preset", "overrides", "seats"),
    [
        ("standard", {}, (2, 2)),
        ("three-box", {}, (3, 3)),
        ("standard", {"table": "three_dealer_out"}, (3, 3)),
        ("partnership", {}, (4, 4)),
        ("gem", {}, (2, 3)),
        ("gem", {"table": "open"}, (2, 3)),
        ("rummy", {}, (2, 6)),
    ],
)
def test_table_seats_counts_people_not_teams(
    preset: str, overrides: dict[str, object], seats: tuple[int, int]
) -> None:
    assert table_seats(find_rules(preset, **overrides)) == seats


def test_dealer_out_rotation() -> None:
    # Dealer 0 sits out; 1 wins -> dealer 1 (sits out); dead -> dealer 1 again; 2 wins -> dealer 2.
    seats = dealer_out_seats(0, [win(1, 10), DEAD, win(2, 5)])
    assert seats == ((0, (1, 2)), (1, (0, 2)), (1, (0, 2)), (2, (0, 1)))
    with pytest.raises(ScoreError, match="Hand 2: player 1 dealt and sat out"):
        dealer_out_seats(0, [1, 1])
    with pytest.raises(ScoreError, match="First dealer must be a player 0-2"):
        dealer_out_seats(5, [])
    rules = STANDARD.with_overrides(table="three_dealer_out")
    g = score_game(rules, [win(1, 10), DEAD, win(2, 5)])
    assert g.players == 3
    assert g.dealers == (0, 1, 1)
    assert g.next_dealer == 2
    with pytest.raises(ScoreError, match="Hand 1: player 0 dealt and sat out"):
        score_game(rules, [win(0, 10)])


def test_partnership_team_totals() -> None:
    rules = find_rules("partnership")
    a = score_hand_counts(
        rules, outcome=HandOutcome.KNOCK, knocker_deadwood=5, defender_deadwood=25
    )
    b = score_hand_counts(rules, outcome=HandOutcome.GIN, knocker_deadwood=0, defender_deadwood=70)
    # Hand 1: team 0 20 vs team 1 95 -> team 1 scores 75.
    # Hand 2: team 0 knocks on both boards: 20 + 20 -> team 0 scores 40.
    # Hand 3: equal sums -> nobody scores (recorded like a dead hand).
    # Hand 4: team 1 gin 95 + team 1 knock 20 -> 115 -> total 190: team 1 wins.
    # Team 1: 190 + 100 + 2 × 25 = 340; team 0: 40 + 25 = 65.
    hands = [
        score_partnership_hand(rules, a, b, knocker_team_a=0, knocker_team_b=1),
        score_partnership_hand(rules, a, a, knocker_team_a=0, knocker_team_b=0),
        score_partnership_hand(rules, a, a, knocker_team_a=0, knocker_team_b=1),
        score_partnership_hand(rules, b, a, knocker_team_a=1, knocker_team_b=1),
    ]
    g = score_game(rules, [ScoredHand.from_partnership(h) for h in hands])
    assert g.running_totals == ((0, 75), (40, 75), (40, 75), (40, 190))
    assert (g.winner, g.final_totals, g.margin) == (1, (65, 340), 275)


def test_match_formats() -> None:
    best_of_3 = MatchFormat("best_of", games=3)
    game_a = [win(A, 100)]
    game_b = [win(B, 100)]
    m = score_match(STANDARD, best_of_3, [game_a, game_b])
    assert (m.games_won, m.winner, m.finished) == ((1, 1), None, False)
    m = score_match(STANDARD, best_of_3, [game_a, game_b, game_b])
    assert (m.games_won, m.winner) == ((1, 2), B)
    # Each next game starts with the dealer the last game would have had (loser of its last hand).
    assert [g.dealers[0] for g in m.games] == [0, 1, 0]
    with pytest.raises(ScoreError, match="Game 3 was entered after the match was decided"):
        score_match(STANDARD, best_of_3, [game_a, game_a, game_b])
    with pytest.raises(ScoreError, match="Game 2 was started before game 1 ended"):
        score_match(STANDARD, best_of_3, [[win(A, 10)], game_a])
    with pytest.raises(ScoreError, match="at most 3 game\\(s\\), not 4"):
        score_match(STANDARD, best_of_3, [game_a] * 4)
    single = score_match(STANDARD, MatchFormat(), [[win(B, 50), win(B, 60)]])
    assert (single.winner, single.games_won) == (B, (0, 1))
    assert score_match(STANDARD, MatchFormat(), []).games_won == (0, 0)
    fixed = score_match(STANDARD, MatchFormat("fixed_hands", hands=2), [[win(A, 5), win(B, 3)]])
    assert (fixed.winner, fixed.games[0].end_hand) == (A, 2)
    stream = [win(A, 100), win(A, 100), win(A, 100)]  # g1 at hand 1, g2 at hand 2, g3 at hand 3
    holly = score_match(find_rules("hollywood"), MatchFormat("hollywood"), [stream])
    assert (holly.games_won, holly.winner, holly.finished) == ((3, 0), A, True)
    open_set = score_match(find_rules("hollywood"), MatchFormat("hollywood"), [])
    assert (open_set.winner, open_set.finished) == (None, False)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "league"}, "Match format must be one of"),
        ({"kind": "best_of", "games": 4}, "best_of needs an odd number"),
        ({"kind": "single_game", "games": 3}, "Only best_of plays more than one game"),
        ({"kind": "fixed_hands"}, "fixed_hands needs a number of hands"),
        ({"kind": "fixed_hands", "hands": 0}, "Hands must be at least 1"),
    ],
)
def test_match_format_validation(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        MatchFormat(**kwargs)


def test_hollywood_no_won_hand_vanishes() -> None:
    """Hollywood: later scores go only to open games; a player shut out of a game enters their
    next win as the first score of the next game in progress."""
    holly = find_rules("hollywood")
    # A wins 30 four times: column 1 gets 30, 60, 90, 120 (closed at hand 4); column 2 from A's
    # 2nd win (30, 60, 90); column 3 from the 3rd (30, 60). B, shut out of column 1, wins 5:
    # it opens column 2 for B (B's first score there), and B's next win, 5 again, goes into
    # columns 2 and 3.
    hands = [win(A, 30)] * 4 + [win(B, 5), win(B, 5)]
    h = score_hollywood(holly, hands)
    assert h.entered == ((0,), (0, 1), (0, 1, 2), (0, 1, 2), (1,), (1, 2))
    assert [g.totals for g in h.games] == [(120, 0), (90, 10), (60, 5)]
    assert h.games[0].finished
    assert not h.games[1].finished
    # Column 1: 120 + 100 + 4 × 25 + 100 shutout = 420.
    assert h.games[0].final_totals == (420, 0)


def test_hollywood_columns_are_won_on_final_totals() -> None:
    """Seed 000's rule for the winner holds in each Hollywood column: the highest final total."""
    holly = find_rules("hollywood")
    # Column 1: A six wins of 15 = 90, B one of 100 (its first win, column 1 only):
    # A 90 + 150 = 240, B 100 + 100 + 25 = 225: A wins column 1 though B reached 100.
    h = score_hollywood(holly, [*[win(A, 15)] * 6, win(B, 100)])
    first = h.games[0]
    assert (first.ended_by, first.winner, first.final_totals, first.margin) == (
        B,
        A,
        (240, 225),
        15,
    )


def test_hollywood_set_is_settled_on_the_columns_summed_final_totals() -> None:
    """A Hollywood set is settled like the table settles it: on the sum of the columns' final
    totals, so its winner never has a negative margin (tournament game points), even against
    a player who won more columns."""
    holly = find_rules("hollywood")
    hands = [win(A, 60), win(A, 80), win(A, 10), win(B, 10), win(B, 100)]
    h = score_hollywood(holly, hands)
    # Column 1: A 60 + 80 = 140, a shutout: 390 to 0. Column 2: A 80 + 10 = 90 (+ 2 boxes = 140),
    # B 10 + 100 = 110 (+ 100 game + 2 boxes = 260). Column 3: A 10 (+ 25) = 35, B 100 (+ 125)
    # = 225. B won two columns, but the set adds up to A 565, B 485.
    assert [g.final_totals for g in h.games] == [(390, 0), (140, 260), (35, 225)]
    assert h.games_won == (1, 2)
    assert (h.winner, h.margin) == (A, 80)
