"""Every rule of the five seed texts Knock was built from, each checked against a number worked
out by hand.

Each test's docstring names the seed by its number and the rule in a few words; the presets and
the readings Knock chose are explained, with the same examples, in docs/rules.md. The seeds are
000 (two-player gin, the ``standard`` preset), 001 (three players "in the box", ``three-box``),
002 (Basic Rummy, ``rummy``), 003 (Gem Rummy, ``gem``) and 004 (an online table's rules,
``online-table``).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.arrange import best_arrangement
from engine.cards import card_value, format_cards, parse_card, parse_cards
from engine.errors import KnockError, MeldError, RuleError, ScoreError
from engine.game import (
    BoxRoles,
    ScoredHand,
    dealer_out_seats,
    score_game,
    score_three_box,
    three_box_roles,
)
from engine.gem import DeckMap, has_all_gems, lay_off_in_turn
from engine.melds import Meld, MeldKind
from engine.rules import RuleSet, find_rules
from engine.rummy import score_rummy_hand
from engine.scoring import (
    HandOutcome,
    hand_knock_limit,
    score_gem_three_hand,
    score_hand,
    score_hand_counts,
    score_partnership_hand,
)

STANDARD = find_rules("standard")
THREE_BOX = find_rules("three-box")
RUMMY = find_rules("rummy")
GEM = find_rules("gem")
ONLINE = find_rules("online-table")
A, B = 0, 1
DEAD = ScoredHand.dead()


def win(player: int, points: int, **kw: object) -> ScoredHand:
    return ScoredHand(winner=player, points=points, **kw)


def counts(rules: RuleSet, outcome: HandOutcome, k: int, d: int, **kw: Any) -> tuple[str, int]:
    result = score_hand_counts(
        rules, outcome=outcome, knocker_deadwood=k, defender_deadwood=d, **kw
    )
    assert result.winner is not None
    return result.winner, result.points


# The gems of the commercial deck are club data; these tests use a made-up deck map: a non-king
# of rank r (ace = 0) carries GEMS[r % 8], the king of suit s carries GEMS[4 + s] and GEMS[s].
GEMS = ["ruby", "emerald", "sapphire", "diamond", "topaz", "amethyst", "pearl", "onyx"]
DECK_MAP = DeckMap.from_mapping(
    {
        card: (GEMS[4 + card // 13], GEMS[card // 13]) if card % 13 == 12 else GEMS[card % 13 % 8]
        for card in range(52)
    }
)


# -- seed 000: two-player gin rummy (standard) ----------------------------------------------------


def test_000_card_values() -> None:
    """Seed 000: ace 1, number cards their face value, jack, queen and king 10 each."""
    assert [card_value(parse_card(t)) for t in ("AS", "2H", "9D", "TC", "JS", "QH", "KD")] == [
        1,
        2,
        9,
        10,
        10,
        10,
        10,
    ]


def test_000_sets_and_runs_ace_low() -> None:
    """Seed 000: a set is three or four of a rank, a run three of a suit in sequence; A-2-3 is a
    run, Q-K-A is not."""
    assert Meld.parse("TD TS TC").kind is MeldKind.SET
    assert Meld.parse("JD QD KD").kind is MeldKind.RUN
    assert Meld.parse("AS 2S 3S").kind is MeldKind.RUN
    with pytest.raises(MeldError, match="not a run"):
        Meld.parse("QS KS AS")


def test_000_no_knock_over_ten() -> None:
    """Seed 000: knock only with deadwood of 10 or less; its example, 3-4-5-6, 9-9-9-9, an ace
    and a king, leaves 1 + 10 = 11 and may not knock."""
    with pytest.raises(KnockError, match="deadwood 11 > 10"):
        score_hand(
            STANDARD,
            knocker_cards="3S 4S 5S 6S 9S 9H 9D 9C AH KD",
            defender_cards="2C 3C 5C 7C JH QH 8D TD 2D 4D",
        )


def test_000_knock_scores_the_difference() -> None:
    """Seed 000: the knocker scores the difference of the deadwood; its example, two queens (20)
    against two 2s (4), is 16."""
    r = score_hand(
        STANDARD,
        knocker_cards="6H 7H 8H 9H 5D 5C 5H 5S 2D 2C",
        defender_cards="JS JH JD JC 7C 8C 9C TC QD QH",
    )
    assert (r.outcome, r.knocker_deadwood, r.defender_deadwood) == (HandOutcome.KNOCK, 4, 20)
    assert (r.winner, r.points) == ("knocker", 16)


def test_000_gin_is_25_and_the_defenders_deadwood_without_layoffs() -> None:
    """Seed 000: gin scores 25 and all the opponent's deadwood; nothing is laid off on gin."""
    # 5♠ would extend A-2-3-4♠ after a knock; against gin it stays: 5 + 10 + 10 + 10 + 8 + 2 + 3
    # + 6 + 7 + 10 = 71, and 25 + 71 = 96.
    r = score_hand(
        STANDARD,
        knocker_cards="AS 2S 3S 4S 5H 6H 7H 9D 9C 9S",
        defender_cards="5S KD QC JH 8D 2C 3D 6C 7C TD",
    )
    assert (r.outcome, r.defender_deadwood, r.points, r.layoffs) == (HandOutcome.GIN, 71, 96, ())


def test_000_undercut_is_25_and_the_difference() -> None:
    """Seed 000: a defender with less deadwood undercuts and scores 25 and the difference; its
    example, a knock with 9 against 2 after lay-offs, is 7 + 25 = 32."""
    assert counts(STANDARD, HandOutcome.UNDERCUT, 9, 2) == ("defender", 32)
    # A tie is the knocker's in seed 000 ("less than"): 0 points, but the hand is won.
    assert counts(STANDARD, HandOutcome.KNOCK, 6, 6) == ("knocker", 0)


def test_000_knock_discard_is_not_the_card_taken_from_the_discard_pile() -> None:
    """Seed 000: a card taken from the discard pile may not be discarded on the same turn."""
    hand = {
        "knocker_cards": "6H 7H 8H 9H 5D 5C 5H 5S 2D 2C",
        "defender_cards": "JS JH JD JC 7C 8C 9C TC QD QH",
    }
    with pytest.raises(KnockError, match="took KH from the discard pile"):
        score_hand(STANDARD, taken_from_discard="KH", **hand)
    assert score_hand(STANDARD, taken_from_discard="9H", **hand).points == 16


def test_000_dead_hand_with_two_cards_left() -> None:
    """Seed 000: when the player who drew the third card from the bottom does not end the hand,
    nobody scores and the hand is dealt again: 52 − 20 − 1 upcard = 31 in the stock, 29 drawn."""
    assert (STANDARD.dead_hand_stock, STANDARD.stock_draws()) == (2, 29)
    g = score_game(STANDARD, [win(A, 10), DEAD], first_dealer=0)
    assert g.running_totals == ((10, 0), (10, 0))
    assert g.dealers == (0, 1)  # B lost hand 1 and deals; the dead hand is B's again
    assert g.next_dealer == 1


def test_000_loser_deals_next() -> None:
    """Seed 000: the loser of a hand deals the next one."""
    assert score_game(STANDARD, [win(A, 10), win(B, 5)], first_dealer=0).dealers == (0, 1)


def test_000_game_box_and_shutout_bonuses() -> None:
    """Seed 000: reaching 100 adds 100, every hand won adds 25, and a shutout adds 100 more."""
    # A 60 + 45 = 105: 105 + 100 + 2 × 25 + 100 = 355 against 0.
    g = score_game(STANDARD, [win(A, 60), win(A, 45)])
    assert (g.final_totals, g.shutout, g.winner, g.margin) == ((355, 0), True, A, 355)
    # With a hand won by B: 105 + 100 + 50 = 255 against 10 + 25 = 35.
    g = score_game(STANDARD, [win(A, 60), win(B, 10), win(A, 45)])
    assert (g.final_totals, g.shutout, g.margin) == ((255, 35), False, 220)


def test_000_highest_final_total_wins() -> None:
    """Seed 000: after all the tallying, the highest total wins, so the box bonuses can beat the
    player who reached 100."""
    # A wins six hands of 15 (90); B then wins one of 100 and ends the game:
    # A 90 + 6 × 25 = 240, B 100 + 100 + 25 = 225: A wins by 15.
    g = score_game(STANDARD, [*[win(A, 15)] * 6, win(B, 100)])
    assert (g.ended_by, g.game_bonus, g.final_totals) == (B, (0, 100), (240, 225))
    assert (g.winner, g.loser, g.margin, g.final_tie) == (A, B, 15, False)


def test_000_tie_on_final_totals_goes_to_who_reached_the_target() -> None:
    """Seed 000 (Knock's reading for a tie on the final totals): the player who reached the
    target wins it, by 0."""
    # A: five hands of 15 and one of 20 = 95, + 6 × 25 = 245; B: one hand of 120 + 100 + 25 = 245.
    g = score_game(STANDARD, [*[win(A, 15)] * 5, win(A, 20), win(B, 120)])
    assert g.final_totals == (245, 245)
    assert (g.winner, g.ended_by, g.margin, g.final_tie) == (B, B, 0, True)


def test_000_partnership_team_difference() -> None:
    """Seed 000, four players: partners add their points and compare them with the other team's;
    Knock scores the difference to the higher team."""
    rules = find_rules("partnership")
    board_a = score_hand_counts(
        rules, outcome=HandOutcome.KNOCK, knocker_deadwood=5, defender_deadwood=25
    )
    board_b = score_hand_counts(
        rules, outcome=HandOutcome.GIN, knocker_deadwood=0, defender_deadwood=12
    )
    # Team 0 knocks on board A: 25 − 5 = 20; team 1 goes gin on board B: 25 + 12 = 37.
    hand = score_partnership_hand(rules, board_a, board_b, knocker_team_a=0, knocker_team_b=1)
    assert (hand.team_points, hand.winner, hand.points) == ((20, 37), 1, 17)
    # Equal sums: no team wins the hand, kept like a dead hand.
    even = score_partnership_hand(rules, board_a, board_a, knocker_team_a=0, knocker_team_b=1)
    assert (even.winner, even.points, even.outcome) == (None, 0, HandOutcome.DEAD)


def test_000_partnership_game_is_won_on_final_totals() -> None:
    """Seed 000, four players: totals, target and bonuses as for two, and the team with the
    higher final total wins (the same six hands of 15 against one of 100: 240 to 225)."""
    g = score_game(find_rules("partnership"), [*[win(A, 15)] * 6, win(B, 100)])
    assert (g.winner, g.final_totals, g.margin) == (A, (240, 225), 15)


def test_000_a_third_player_deals_and_sits_out() -> None:
    """Seed 000: with a third person, they deal without holding cards, and the deal passes on."""
    assert dealer_out_seats(0, [1, None, 2]) == (
        (0, (1, 2)),
        (1, (0, 2)),
        (1, (0, 2)),
        (2, (0, 1)),
    )


# -- seed 001: three players, in the box (three-box) ----------------------------------------------


def test_001_box_wins_and_stays_captain_and_sitter_swap() -> None:
    """Seed 001: when the box wins, the box stays and the captain and the sitter swap."""
    assert BoxRoles(box=0, captain=1, sitter=2).after(0) == BoxRoles(box=0, captain=2, sitter=1)


def test_001_box_loses_captain_into_the_box_sitter_becomes_captain() -> None:
    """Seed 001: when the box loses, it sits out, the captain goes in the box and the sitter
    becomes captain."""
    assert BoxRoles(box=0, captain=1, sitter=2).after(1) == BoxRoles(box=1, captain=2, sitter=0)


def test_001_the_sitter_never_scores() -> None:
    """Seed 001: the sitting player scores in no circumstances."""
    with pytest.raises(ScoreError, match="Hand 1: Player 2 is the sitter and cannot win the hand"):
        score_three_box(THREE_BOX, (0, 1, 2), [win(2, 10)])


def test_001_undercut_is_ten_and_the_difference_and_a_tie_counts() -> None:
    """Seed 001: a tie or a knocker with more deadwood is undercut: the opponent scores 10 and
    the difference (10 on a tie; 8 against 3 is 15)."""
    assert counts(THREE_BOX, HandOutcome.UNDERCUT, 6, 6) == ("defender", 10)
    assert counts(THREE_BOX, HandOutcome.UNDERCUT, 8, 3) == ("defender", 15)


def test_001_gin_is_25() -> None:
    """Seed 001: going gin scores a 25-point bonus (some say 20) and the opponent's deadwood."""
    assert counts(THREE_BOX, HandOutcome.GIN, 0, 30) == ("knocker", 55)
    assert counts(THREE_BOX.with_overrides(gin_bonus=20), HandOutcome.GIN, 0, 30)[1] == 50


def test_001_draw_with_two_cards_left_and_the_same_player_deals() -> None:
    """Seed 001: two cards left in the stock after a discard without a knock is a draw, and the
    same player deals again (the box deals every hand)."""
    # Box 0 against captain 1: a draw (same roles), box wins (captain 2, sitter 1), captain 2
    # wins and goes into the box.
    roles = three_box_roles((0, 1, 2), [None, 0, 2])
    assert [r.box for r in roles] == [0, 0, 0, 2]
    game, _ = score_three_box(THREE_BOX, (0, 1, 2), [DEAD, win(0, 20), win(2, 30)])
    assert game.dealers == (0, 0, 0)
    assert game.next_dealer == 2


def test_001_first_to_100_wins_with_no_bonus() -> None:
    """Seed 001: hands go on until one player's total reaches 100; that player wins (no game or
    box bonus in the preset)."""
    game, _ = score_three_box(THREE_BOX, (0, 1, 2), [win(0, 60), win(0, 45)])
    assert (game.winner, game.totals, game.final_totals, game.margin) == (
        0,
        (105, 0, 0),
        (105, 0, 0),
        105,
    )


# -- seed 002: Basic Rummy (rummy) ----------------------------------------------------------------


def test_002_deal_sizes() -> None:
    """Seed 002: 10 cards each for two players, 7 for three or four, 6 for five or six."""
    assert [RUMMY.deal_size(n) for n in range(2, 7)] == [10, 7, 7, 6, 6]


def test_002_going_out_scores_the_cards_left() -> None:
    """Seed 002: the player who goes out scores every card left in the other hands."""
    r = score_rummy_hand(RUMMY, players=3, went_out=0, rummy=False, leftovers={1: "KS 5H", 2: 3})
    assert (r.counts, r.points) == ((0, 15, 3), 18)


def test_002_going_rummy_doubles() -> None:
    """Seed 002: going rummy (all cards in one turn, nothing melded before) doubles the hand."""
    r = score_rummy_hand(RUMMY, players=3, went_out=0, rummy=True, leftovers={1: "KS 5H", 2: 3})
    assert (r.multiplier, r.points) == (2, 36)


def test_002_ace_high_or_low_counts_15() -> None:
    """Seed 002: where an ace may be high or low, it counts 15."""
    high = RUMMY.with_overrides(ace_high=True)
    r = score_rummy_hand(high, players=2, went_out=1, rummy=False, leftovers={0: "AS AH 2C"})
    assert r.points == 15 + 15 + 2


def test_002_play_to_150_or_a_number_of_hands() -> None:
    """Seed 002: the first to 150 wins, or the most points after a set number of hands."""
    g = score_game(RUMMY, [win(0, 100), win(1, 40), win(0, 50)], players=3)
    assert (g.finished, g.winner, g.final_totals) == (True, 0, (150, 40, 0))
    fixed = RUMMY.with_overrides(target=None, max_hands=2)
    g = score_game(fixed, [win(0, 30), win(1, 45)], players=3)
    assert (g.end_hand, g.winner, g.margin) == (2, 1, 15)


# -- seed 003: Gem Rummy (gem) --------------------------------------------------------------------

GEM_KNOCKER = "AS AH 9D 9C 4C 5C 6C 7S 7H 7D 2S"  # ruby vault A♠ A♥ 9♦ 9♣, 4-5-6♣, 7s; K = 2


def test_003_eleven_cards_and_the_dice() -> None:
    """Seed 003: 11 cards each; a die sets the hand's knock limit (1-6)."""
    assert GEM.deal_size(2) == 11
    assert hand_knock_limit(GEM, knock_limit=4) == 4
    with pytest.raises(ScoreError, match="shows 1-6, not 7"):
        hand_knock_limit(GEM, knock_limit=7)


def test_003_gin_25_and_big_gin_35() -> None:
    """Seed 003: gin scores 25 and the opponent's deadwood, big gin (12 cards) 35."""
    assert counts(GEM, HandOutcome.GIN, 0, 20, knock_limit=3) == ("knocker", 45)
    assert counts(GEM, HandOutcome.BIG_GIN, 0, 20, knock_limit=3) == ("knocker", 55)


def test_003_undercut_is_a_flat_25() -> None:
    """Seed 003: a non-knocker with less deadwood after lay-offs scores 25 for the hand."""
    assert counts(GEM, HandOutcome.UNDERCUT, 5, 2, knock_limit=5) == ("defender", 25)


def test_003_knocker_scores_at_least_11() -> None:
    """Seed 003: unless undercut, the knocker always scores at least 11 (7 − 3 = 4 becomes 11)."""
    assert counts(GEM, HandOutcome.KNOCK, 3, 7, knock_limit=3) == ("knocker", 11)


def test_003_minimum_11_before_the_gem_bonus() -> None:
    """Seed 003 (Knock's reading): the minimum of 11 applies before the gem parts bonus, which
    is added on top: 7 − 3 = 4, raised to 11, + 16 = 27 (not 4 + 16 = 20)."""
    r = score_hand_counts(
        GEM,
        outcome=HandOutcome.KNOCK,
        knocker_deadwood=3,
        defender_deadwood=7,
        knock_limit=3,
        knocker_gem_bonus=True,
    )
    assert (r.points, r.gem_bonus_knocker, r.score_for("knocker")) == (11, 16, 27)


def test_003_gem_bonus_8_and_16() -> None:
    """Seed 003: holding one card of each of the 8 gems gives 8 to a non-knocker, 16 to the
    knocker."""
    r = score_hand_counts(
        GEM,
        outcome=HandOutcome.KNOCK,
        knocker_deadwood=2,
        defender_deadwood=30,
        knock_limit=2,
        defender_gem_bonus=True,
    )
    assert (r.score_for("knocker"), r.score_for("defender")) == (28, 8)


def test_003_a_king_counts_as_one_of_its_two_gems() -> None:
    """Seed 003: for the gem parts bonus a king counts as only one of its two gems."""
    # A♠ ruby, 2♠ emerald, 3♠ sapphire, 4♠ diamond, 5♠ topaz, 6♠ amethyst: six gems. K♣ carries
    # onyx and diamond, K♦ pearl and sapphire: with both kings the eight gems are there.
    assert has_all_gems(parse_cards("AS 2S 3S 4S 5S 6S KC KD"), DECK_MAP)
    # With 7♠ (pearl) for K♦ and no 4♠, diamond and onyx are both missing, and K♣ counts as one.
    assert not has_all_gems(parse_cards("AS 2S 3S 5S 6S 7S KC"), DECK_MAP)


def test_003_layoff_onto_a_vault_of_four_or_more() -> None:
    """Seed 003: the non-knocker adds eligible deadwood to the knocker's melds, and a vault is
    four or more cards of a gem, so a further ruby goes on a ruby vault."""
    # Defender: no melds, 9 + 10 + 10 + 10 + 8 + 2 + 5 + 10 + 3 + 4 + 7 = 78. 9♥ (a ruby) goes on
    # the vault A♠ A♥ 9♦ 9♣ and 7♣ on 4-5-6♣ (or the 7s): 78 − 9 − 7 = 62, and 62 − 2 = 60.
    r = score_hand(
        GEM,
        knocker_cards=GEM_KNOCKER,
        defender_cards="9H KD QC JS 8D 2H 5S TC 3D 4S 7C",
        knock_limit=3,
        diamond_number=5,
        deck_map=DECK_MAP,
    )
    assert format_cards(r.knocker_melds[0].cards) == "AS AH 9D 9C"
    assert (r.defender_deadwood_without_layoffs, r.defender_deadwood) == (78, 62)
    assert format_cards([lay.card for lay in r.layoffs]) == "9H 7C"
    assert (r.outcome, r.points) == (HandOutcome.KNOCK, 60)


def test_003_queens_diamond_takes_no_layoff() -> None:
    """Seed 003: the Queen's Diamond is the queen of diamonds and one other card (the diamond the
    die names), so nothing more is laid on it."""
    queens = Meld(MeldKind.QUEENS_DIAMOND, tuple(parse_cards("5D QD")))
    (result,) = lay_off_in_turn([queens], [parse_cards("4D 6D KD")], DECK_MAP, 5)
    assert (result.layoffs, result.deadwood) == ((), 4 + 6 + 10)


def test_003_three_players_lay_off_in_turn_one_card_at_a_time() -> None:
    """Seed 003, three players: the non-knockers lay off in turn, one card at a time, clockwise,
    onto the knocker's melds as they grow."""
    run = Meld.parse("5H 6H 7H")
    first, second = lay_off_in_turn(
        [run], [parse_cards("8H TH KS"), parse_cards("9H QC")], DECK_MAP
    )
    # 8♥ (first), 9♥ (second, on the 8♥ just laid off), T♥ (first): 10 and 10 left.
    assert format_cards(first.laid_off_cards) == "8H TH"
    assert format_cards(second.laid_off_cards) == "9H"
    assert (first.deadwood, second.deadwood) == (10, 10)


def test_003_three_players_scored_separately_after_laying_off_in_turn() -> None:
    """Seed 003, three players: each non-knocker is scored against the knocker separately."""
    # Second defender lays 3♣ on 4-5-6♣ (0 left: an undercut, 25); the first lays 7♣ on the 7s
    # and 2♣ on that 3♣: 40 − 7 − 2 = 31, 31 − 2 = 29 to the knocker; the first holds all eight
    # gems (+8).
    r = score_gem_three_hand(
        GEM.with_overrides(table="open"),
        knocker_cards=GEM_KNOCKER,
        defender_cards=("QD 5D KS KH KC 8S 7C TS JH 3H 2C", "4H 5H 6H 8H 9H TH AD 2D 3D 4D 3C"),
        knock_limit=3,
        diamond_number=5,
        deck_map=DECK_MAP,
    )
    assert r.scores == (29, 8, 25)


def test_003_first_to_110_and_a_tie_to_the_last_hand() -> None:
    """Seed 003: the first to 110 wins; tied players are separated by the last hand's points."""
    # A 88, B 97; A undercuts (25) while B, the knocker, has all gems (+16): 113 each; A scored
    # 25 in the last hand, B 16: A ends the game, and with no bonuses the final totals tie too.
    g = score_game(GEM, [win(A, 88), win(B, 97), win(A, 25, others=((B, 16),))])
    assert (g.totals, g.tiebreak, g.ended_by, g.winner, g.margin) == ((113, 113), True, A, A, 0)


def test_003_the_winner_deals_next() -> None:
    """Seed 003: the winner of a hand deals the next."""
    assert score_game(GEM, [win(A, 11), win(B, 11)], first_dealer=1).dealers == (1, 0)


def test_003_draw_with_two_cards_at_the_start_of_a_turn() -> None:
    """Seed 003: a turn that starts with two cards in the draw pile ends the hand in a draw:
    52 − 22 − 1 = 29 in the stock, 27 drawn."""
    assert GEM.stock_draws() == 27


# -- seed 004: the online table (online-table) ----------------------------------------------------


def test_004_deadwood_example() -> None:
    """Seed 004: 5♠ 3♦ A♦ left is 9 and may knock; with a king it is 19, too high."""
    assert best_arrangement(parse_cards("6H 7H 8H 9H TC TD TS 5S 3D AD")).deadwood == 9
    with pytest.raises(KnockError, match="deadwood 19 > 10"):
        score_hand(
            ONLINE,
            knocker_cards="7H 8H 9H TC TD TS 5S 3D AD KC",
            defender_cards="2S 4S 6S 8S JS 2C 4C 6C 8C QH",
        )


def test_004_tie_is_an_undercut_worth_exactly_25() -> None:
    """Seed 004: a defender with the same or less deadwood undercuts and scores the difference
    and 25, so a tie is worth exactly 25."""
    assert counts(ONLINE, HandOutcome.UNDERCUT, 5, 5) == ("defender", 25)
    assert counts(ONLINE, HandOutcome.UNDERCUT, 8, 3) == ("defender", 30)


def test_004_gin_is_25_and_the_defenders_deadwood() -> None:
    """Seed 004: gin scores 25 and all the defender's deadwood."""
    assert counts(ONLINE, HandOutcome.GIN, 0, 40) == ("knocker", 65)


def test_004_knock_discard_is_not_the_card_just_taken() -> None:
    """Seed 004: the knock discard may not be the card just taken from the discard pile."""
    with pytest.raises(KnockError, match="may not discard it on the same turn"):
        score_hand(
            ONLINE,
            knocker_cards="6H 7H 8H 9H TC TD TS 5S 3D AD",
            defender_cards="2S 4S 6S 8S JS 2C 4C 6C 8C QH",
            taken_from_discard="KC",
        )


def test_004_void_hand_same_dealer_deals() -> None:
    """Seed 004: two or fewer cards left after a discard with no knock: nobody scores, it is not
    a win, and the same dealer deals; otherwise the first player alternates."""
    rules = ONLINE.with_overrides(target=100)
    g = score_game(rules, [win(A, 10), DEAD, win(B, 5)], first_dealer=0)
    assert g.dealers == (0, 1, 1)
    assert g.hands_won == (1, 1)


def test_004_single_hand_match_by_default() -> None:
    """Seed 004: a match is one hand by default: the winner of the first scored hand wins."""
    assert ONLINE.target is None
    g = score_game(ONLINE, [DEAD, win(B, 30)])
    assert (g.finished, g.end_hand, g.winner, g.final_totals) == (True, 2, B, (0, 30))


def test_004_match_to_100_ends_when_a_total_reaches_it() -> None:
    """Seed 004: the other option plays to 100, ending the moment a hand's winner reaches 100;
    the table adds no bonus."""
    g = score_game(ONLINE.with_overrides(target=100), [win(A, 60), win(B, 20), win(A, 45)])
    assert (g.end_hand, g.winner, g.final_totals, g.margin) == (3, A, (105, 20), 85)


def test_rule_sets_refuse_what_the_seeds_do_not_allow() -> None:
    """Seeds 000-004: no rule set stops Basic Rummy's stock (it reshuffles, seed 002)."""
    with pytest.raises(RuleError, match="never runs out"):
        RUMMY.stock_draws()
