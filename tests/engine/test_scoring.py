"""Hand scoring (docs/rules.md §3, §6 Oklahoma, §9): by cards, by counts, claims, partnership.

Every expected number is worked out by hand from docs/rules.md in the comment beside it.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.arrange import min_deadwood
from engine.cards import cards_to_mask, format_cards, parse_card, parse_cards
from engine.errors import CardError, KnockError, MeldError, RuleError, ScoreError
from engine.melds import Meld
from engine.rules import RuleSet, find_rules
from engine.scoring import (
    HandOutcome,
    HandResult,
    check_claim,
    dead_hand,
    hand_knock_limit,
    max_deadwood,
    score_hand,
    score_hand_counts,
    score_partnership_hand,
)

STANDARD = find_rules("standard")
CLASSIC = find_rules("classic")
MODERN = find_rules("modern")
OKLAHOMA = find_rules("oklahoma")

KNOCKER = "AS 2S 3S 5H 6H 7H 9S 9D 9C KC"  # A23♠ 567♥ 999, deadwood K♣ = 10
DEFENDER = "8H 9H KS KH KD 2C 3C QS JD 5C"
GIN = "AS 2S 3S 5H 6H 7H 9S 9D 9C 9H"  # A23♠ 567♥ 9999: no deadwood
GIN_DEFENDER = "8H 4H KS KH KD 2C 3C QS JD 5C"


def counts(
    rules: RuleSet = STANDARD, outcome: HandOutcome = HandOutcome.KNOCK, **kw: Any
) -> HandResult:
    return score_hand_counts(rules, outcome=outcome, **kw)


# -- by cards: every outcome -------------------------------------------------------------------


def test_knock_by_cards_with_layoffs() -> None:
    # Knocker K = K♣ = 10. Defender melds K♠K♥K♦, lays 8♥ on 5-6-7♥ and 9♥ on the 9s;
    # left Q♠ J♦ 2♣ 3♣ 5♣ = 10 + 10 + 2 + 3 + 5 = 30 (47 before lay-offs). Knocker: 30 − 10 = 20.
    r = score_hand(STANDARD, knocker_cards=KNOCKER, defender_cards=DEFENDER)
    assert (r.outcome, r.winner, r.points) == (HandOutcome.KNOCK, "knocker", 20)
    assert (r.knocker_deadwood, r.defender_deadwood, r.defender_deadwood_without_layoffs) == (
        10,
        30,
        47,
    )
    assert format_cards(sorted(lay.card for lay in r.layoffs)) == "8H 9H"
    assert not r.knocker_melds_given
    assert r.by_cards
    assert r.score_for("knocker") == 20
    assert r.score_for("defender") == 0


def test_gin_by_cards_allows_no_layoffs() -> None:
    # Gin: 25 + D. The defender's 8♥ and 4♥ would fit 5-6-7♥ but nothing is laid off on gin:
    # D = 8 + 4 + 2 + 3 + 10 + 10 + 5 = 42 (K♠K♥K♦ melded). 25 + 42 = 67.
    r = score_hand(STANDARD, knocker_cards=GIN, defender_cards=GIN_DEFENDER)
    assert (r.outcome, r.points, r.defender_deadwood, r.layoffs) == (HandOutcome.GIN, 67, 42, ())
    assert "no lay-offs against gin" in _claim_error(r, claimed_defender_deadwood=30)


def test_big_gin_by_cards() -> None:
    # Modern: 11 cards all melded after the draw (A-4♠ 567♥ 9999): big gin 31 + 42 = 73.
    r = score_hand(MODERN, knocker_cards="AS 2S 3S 4S " + GIN[9:], defender_cards=GIN_DEFENDER)
    assert (r.outcome, r.points) == (HandOutcome.BIG_GIN, 73)


def test_eleven_cards_only_for_big_gin() -> None:
    with pytest.raises(CardError, match="Knocker: expected 10 cards, got 11"):
        score_hand(STANDARD, knocker_cards="4S " + GIN, defender_cards=GIN_DEFENDER)
    with pytest.raises(CardError, match="Knocker: expected 10 or 11 cards \\(11 only for big gin"):
        score_hand(MODERN, knocker_cards="4S", defender_cards=GIN_DEFENDER)
    # 11 cards with K♣ left over: not big gin; the message says what to enter instead.
    with pytest.raises(KnockError, match=r"11 cards are entered only for big gin.*deadwood 10"):
        score_hand(MODERN, knocker_cards="4S " + KNOCKER, defender_cards=GIN_DEFENDER)


def test_undercut_by_cards() -> None:
    # Knocker K = 8♣ = 8. Defender melds KKK QQQ 2-3-4♣ and lays 4♥ on 5-6-7♥: D = 0 (4 before).
    # Standard undercut: (8 − 0) + 25 = 33 to the defender.
    r = score_hand(
        STANDARD,
        knocker_cards="AS 2S 3S 5H 6H 7H 9S 9D 9C 8C",
        defender_cards="KS KH KD QS QH QD 2C 3C 4C 4H",
    )
    assert (r.outcome, r.winner, r.points) == (HandOutcome.UNDERCUT, "defender", 33)
    assert (r.defender_deadwood, r.defender_deadwood_without_layoffs) == (0, 4)


def test_given_knocker_melds_are_used_and_change_the_layoffs() -> None:
    # The knocker shows 9♠9♦9♣ as a set, so 9♥ goes on it; with melds given the engine uses them.
    r = score_hand(
        STANDARD,
        knocker_cards=KNOCKER,
        defender_cards=DEFENDER,
        knocker_melds="AS 2S 3S | 5H 6H 7H | 9S 9D 9C",
    )
    assert r.knocker_melds_given
    assert r.points == 20
    listed = score_hand(
        STANDARD,
        knocker_cards=KNOCKER,
        defender_cards=DEFENDER,
        knocker_melds=[["AS", "2S", "3S"], [parse_card("5H"), 18, 19], Meld.parse("9S 9D 9C")],
    )
    assert listed.knocker_melds == r.knocker_melds


def test_given_melds_over_the_limit_show_the_better_arrangement() -> None:
    # Without the 9s the knocker keeps 9♠ 9♦ 9♣ K♣ = 37 > 10; the engine names the better choice.
    with pytest.raises(
        KnockError,
        match=r"Knock over the limit: deadwood 37 > 10 \(melds AS 2S 3S \| 5H 6H 7H; deadwood "
        r"9S 9D 9C KC; the best arrangement leaves 10: .*limit 10\)",
    ):
        score_hand(
            STANDARD,
            knocker_cards=KNOCKER,
            defender_cards=DEFENDER,
            knocker_melds="AS 2S 3S|5H 6H 7H",
        )


def test_knock_over_the_limit_by_cards() -> None:
    # A23♠ 777, deadwood 4♦ K♣ 9♠ 9♥ = 4 + 10 + 9 + 9 = 32 > 10.
    with pytest.raises(KnockError, match="Knock over the limit: deadwood 32 > 10 \\(melds "):
        score_hand(
            STANDARD, knocker_cards="AS 2S 3S 7H 7D 7C KC 4D 9S 9H", defender_cards=GIN_DEFENDER
        )


def test_bad_entries_by_cards_name_the_problem() -> None:
    with pytest.raises(CardError, match="Card KC is in both the knocker's and the defender's"):
        score_hand(STANDARD, knocker_cards=KNOCKER, defender_cards=DEFENDER.replace("5C", "KC"))
    with pytest.raises(CardError, match="Defender: expected 10 cards, got 9"):
        score_hand(STANDARD, knocker_cards=KNOCKER, defender_cards=DEFENDER[:-3])
    with pytest.raises(CardError, match="Knocker: Cannot read card 'ZZ' at position 1"):
        score_hand(STANDARD, knocker_cards="ZZ", defender_cards=DEFENDER)
    with pytest.raises(CardError, match="Knocker: Card AS appears twice"):
        score_hand(STANDARD, knocker_cards=["AS", "AS"], defender_cards=DEFENDER)
    with pytest.raises(CardError, match="Knocker: Cards must all be notation strings or all"):
        score_hand(STANDARD, knocker_cards=[0, 1.5], defender_cards=DEFENDER)
    with pytest.raises(MeldError, match="Knocker's melds: Meld 4S 5S 6S uses 4S"):
        score_hand(
            STANDARD, knocker_cards=KNOCKER, defender_cards=DEFENDER, knocker_melds="4S 5S 6S"
        )
    with pytest.raises(MeldError, match="Knocker's melds: AS 2S 9D is not a meld"):
        score_hand(
            STANDARD, knocker_cards=KNOCKER, defender_cards=DEFENDER, knocker_melds="AS 2S 9D"
        )
    with pytest.raises(RuleError, match="Basic Rummy hands are scored with"):
        score_hand(find_rules("rummy"), knocker_cards=KNOCKER, defender_cards=DEFENDER)
    with pytest.raises(RuleError, match="A deck map and a diamond number belong to Gem"):
        score_hand(STANDARD, knocker_cards=KNOCKER, defender_cards=DEFENDER, diamond_number=3)
    with pytest.raises(CardError, match="Upcard: "):
        score_hand(OKLAHOMA, knocker_cards=KNOCKER, defender_cards=DEFENDER, upcard="1X")


def test_cards_as_ids() -> None:
    r = score_hand(
        STANDARD, knocker_cards=parse_cards(KNOCKER), defender_cards=parse_cards(DEFENDER)
    )
    assert r.points == 20


# -- by counts -----------------------------------------------------------------------------------


def test_knock_by_counts() -> None:
    r = counts(knocker_deadwood=7, defender_deadwood=22)  # 22 − 7 = 15
    assert (r.winner, r.points, r.base_points, r.multiplier) == ("knocker", 15, 15, 1)
    assert not r.by_cards
    assert r.knock_limit == 10


def test_gin_and_big_gin_by_counts() -> None:
    gin = counts(outcome=HandOutcome.GIN, knocker_deadwood=0, defender_deadwood=30)
    assert gin.points == 55  # 25 + 30
    big = counts(MODERN, HandOutcome.BIG_GIN, knocker_deadwood=0, defender_deadwood=30)
    assert big.points == 61  # 31 + 30
    assert counts(CLASSIC, HandOutcome.GIN, knocker_deadwood=0, defender_deadwood=30).points == 50


def test_gin_by_counts_needs_only_the_defenders_count() -> None:
    # Gin means no deadwood, so a player who claims gin types only the defender's 30.
    gin = counts(outcome=HandOutcome.GIN, defender_deadwood=30)
    assert (gin.knocker_deadwood, gin.points) == (0, 55)
    assert counts(MODERN, HandOutcome.BIG_GIN, defender_deadwood=30).points == 61
    with pytest.raises(ScoreError, match="Enter both deadwood counts"):
        counts(outcome=HandOutcome.KNOCK, defender_deadwood=30)


def test_undercut_variants_by_counts() -> None:
    # Standard: D < K, defender scores (K − D) + 25 = (9 − 2) + 25 = 32 (seed 000's example).
    r = counts(outcome=HandOutcome.UNDERCUT, knocker_deadwood=9, defender_deadwood=2)
    assert (r.winner, r.points) == ("defender", 32)
    # Classic: bonus 10: (9 − 2) + 10 = 17.
    assert (
        counts(CLASSIC, HandOutcome.UNDERCUT, knocker_deadwood=9, defender_deadwood=2).points == 17
    )
    # Standard, tie D = K = 6 is not an undercut: the knocker wins with 0 points.
    tie = counts(knocker_deadwood=6, defender_deadwood=6)
    assert (tie.outcome, tie.winner, tie.points) == (HandOutcome.KNOCK, "knocker", 0)
    # Classic (tie counts): defender scores (6 − 6) + 10 = 10.
    tie = counts(CLASSIC, HandOutcome.UNDERCUT, knocker_deadwood=6, defender_deadwood=6)
    assert (tie.winner, tie.points) == ("defender", 10)
    # undercut_scores_difference = false: the bonus alone, 25.
    flat = STANDARD.with_overrides(undercut_scores_difference=False)
    assert counts(flat, HandOutcome.UNDERCUT, knocker_deadwood=9, defender_deadwood=2).points == 25
    # Three-box: 10 + difference, tie counts: (5 − 5) + 10 = 10.
    box = find_rules("three-box")
    assert counts(box, HandOutcome.UNDERCUT, knocker_deadwood=5, defender_deadwood=5).points == 10


def test_knocker_minimum_points() -> None:
    # With knocker_min_points 11: D − K = 9 − 5 = 4 is raised to 11; the tie (0) too.
    rules = STANDARD.with_overrides(knocker_min_points=11)
    r = counts(rules, knocker_deadwood=5, defender_deadwood=9)
    assert (r.base_points, r.points, r.minimum_applied) == (4, 11, True)
    assert "= 4, raised to the knocker's minimum 11" in r.formula()
    assert counts(rules, knocker_deadwood=5, defender_deadwood=5).points == 11
    assert counts(rules, knocker_deadwood=1, defender_deadwood=40).points == 39  # above the minimum


def test_claimed_outcome_contradicting_the_counts() -> None:
    with pytest.raises(ScoreError, match="Undercut, not knock: the defender's deadwood 2 is less"):
        counts(knocker_deadwood=9, defender_deadwood=2)
    with pytest.raises(ScoreError, match="Knock, not undercut: the defender's deadwood 20 is more"):
        counts(outcome=HandOutcome.UNDERCUT, knocker_deadwood=9, defender_deadwood=20)
    with pytest.raises(ScoreError, match="tied at 6 and with these rules a tie is the knocker's"):
        counts(outcome=HandOutcome.UNDERCUT, knocker_deadwood=6, defender_deadwood=6)
    with pytest.raises(ScoreError, match="equals the knocker's 6 and a tie is an undercut"):
        counts(CLASSIC, knocker_deadwood=6, defender_deadwood=6)
    with pytest.raises(ScoreError, match="Gin, not knock: the knocker has no deadwood"):
        counts(knocker_deadwood=0, defender_deadwood=6)
    with pytest.raises(ScoreError, match="Gin claimed with deadwood 3 left"):
        counts(outcome=HandOutcome.GIN, knocker_deadwood=3, defender_deadwood=6)
    with pytest.raises(ScoreError, match="The knocker wins this hand, not the defender"):
        counts(knocker_deadwood=3, defender_deadwood=6, winner="defender")
    assert counts(knocker_deadwood=3, defender_deadwood=6, winner="knocker").points == 3


def test_impossible_counts() -> None:
    with pytest.raises(KnockError, match="Knock over the limit: deadwood 14 > 10 \\(limit 10\\)"):
        counts(knocker_deadwood=14, defender_deadwood=30)
    with pytest.raises(ScoreError, match="The defender's deadwood cannot be negative: -1"):
        counts(knocker_deadwood=3, defender_deadwood=-1)
    with pytest.raises(
        ScoreError, match=r"The defender's deadwood 99 is impossible: .* more than 98"
    ):
        counts(knocker_deadwood=3, defender_deadwood=99)
    with pytest.raises(ScoreError, match="must be a whole number, not '3'"):
        counts(knocker_deadwood="3", defender_deadwood=5)
    with pytest.raises(ScoreError, match="Lay-offs only lower deadwood: 20 after lay-offs is more"):
        counts(knocker_deadwood=3, defender_deadwood=20, defender_deadwood_without_layoffs=10)
    with pytest.raises(ScoreError, match="No lay-offs against gin: the defender keeps 30, not 20"):
        counts(
            outcome=HandOutcome.GIN,
            knocker_deadwood=0,
            defender_deadwood=20,
            defender_deadwood_without_layoffs=30,
        )
    with pytest.raises(ScoreError, match="Big gin is not played with the standard rules"):
        counts(outcome=HandOutcome.BIG_GIN, knocker_deadwood=0, defender_deadwood=20)
    with pytest.raises(ScoreError, match="Enter both deadwood counts"):
        counts(knocker_deadwood=3)
    with pytest.raises(ScoreError, match="Outcome must be a HandOutcome"):
        counts(outcome="knock", knocker_deadwood=3, defender_deadwood=5)
    with pytest.raises(ScoreError, match="The gem parts bonus is Gem Rummy's rule"):
        counts(knocker_deadwood=3, defender_deadwood=5, knocker_gem_bonus=True)
    with pytest.raises(RuleError, match="Basic Rummy hands are scored with"):
        counts(find_rules("rummy"), knocker_deadwood=3, defender_deadwood=5)


def test_max_deadwood_is_the_real_bound() -> None:
    # 2 cards of each of T J Q K (8 × 10) and two 9s (18) with no three in a row in a suit: 98.
    hand = parse_cards("9S 9H TD TC JS JH QD QC KS KH")
    assert min_deadwood(cards_to_mask(hand)) == 98 == max_deadwood(10)
    assert max_deadwood(0) == 0
    assert max_deadwood(3) == 30
    assert max_deadwood(26) > 0
    assert max_deadwood(27) == -1  # 27 cards always hold a set (pigeonhole over 13 ranks)


def test_dead_hand() -> None:
    r = dead_hand()
    assert (r.outcome, r.winner, r.points, r.knocker_deadwood) == (HandOutcome.DEAD, None, 0, None)
    assert r.is_dead
    assert r.explain().startswith("Dead hand: no score")
    assert counts(outcome=HandOutcome.DEAD) == r
    with pytest.raises(ScoreError, match="A dead hand has no knocker, no deadwood counts"):
        counts(outcome=HandOutcome.DEAD, knocker_deadwood=3)


# -- Oklahoma ----------------------------------------------------------------------------------


def test_oklahoma_upcard_sets_the_limit() -> None:
    # Upcard 7♥: limit 7. K = 8 is over; K = 7 with D = 20 scores 13 (no spade, × 1).
    with pytest.raises(KnockError, match="deadwood 8 > 7 \\(limit 7 set by the upcard 7H\\)"):
        counts(OKLAHOMA, knocker_deadwood=8, defender_deadwood=20, upcard=parse_card("7H"))
    assert (
        counts(OKLAHOMA, knocker_deadwood=7, defender_deadwood=20, upcard=parse_card("7H")).points
        == 13
    )
    # Face-card upcard: limit 10.
    assert hand_knock_limit(OKLAHOMA, upcard=parse_card("QD")) == 10


def test_oklahoma_ace_upcard_is_gin_only() -> None:
    with pytest.raises(KnockError, match="the upcard AH is an ace, so only gin ends this hand"):
        counts(OKLAHOMA, knocker_deadwood=1, defender_deadwood=20, upcard=parse_card("AH"))
    gin = counts(OKLAHOMA, HandOutcome.GIN, knocker_deadwood=0, defender_deadwood=20, upcard=13)
    assert gin.points == 45  # 25 + 20, hearts: × 1
    # A club that lets the ace count 1:
    relaxed = OKLAHOMA.with_overrides(ace_upcard_gin_only=False)
    assert hand_knock_limit(relaxed, upcard=parse_card("AH")) == 1


def test_oklahoma_spade_upcard_doubles_every_point() -> None:
    # Upcard 5♠: limit 5; D − K = 20 − 4 = 16, × 2 = 32.
    r = counts(OKLAHOMA, knocker_deadwood=4, defender_deadwood=20, upcard=parse_card("5S"))
    assert (r.base_points, r.multiplier, r.points) == (16, 2, 32)
    assert r.formula() == "defender 20 − knocker 4 = 16, × 2 for a spade upcard = 32"
    # Ace of spades: gin only, and gin doubles: (25 + 30) × 2 = 110.
    gin = counts(OKLAHOMA, HandOutcome.GIN, knocker_deadwood=0, defender_deadwood=30, upcard=0)
    assert gin.points == 110
    # Undercut doubles too: ((5 − 2) + 25) × 2 = 56.
    under = counts(
        OKLAHOMA,
        HandOutcome.UNDERCUT,
        knocker_deadwood=5,
        defender_deadwood=2,
        upcard=parse_card("6S"),
    )
    assert under.points == 56


def test_oklahoma_by_cards() -> None:
    # Upcard T♠: limit 10 and doubled: (30 − 10) × 2 = 40.
    r = score_hand(OKLAHOMA, knocker_cards=KNOCKER, defender_cards=DEFENDER, upcard="TS")
    assert (r.knock_limit, r.points) == (10, 40)


def test_knock_limit_entry_errors() -> None:
    with pytest.raises(ScoreError, match="Oklahoma needs the upcard"):
        hand_knock_limit(OKLAHOMA)
    with pytest.raises(RuleError, match="enter the upcard, not a limit"):
        hand_knock_limit(OKLAHOMA, upcard=3, knock_limit=4)
    with pytest.raises(RuleError, match="fixes the knock limit at 10, not 7"):
        hand_knock_limit(STANDARD, knock_limit=7)
    assert hand_knock_limit(STANDARD, knock_limit=10) == 10
    with pytest.raises(RuleError, match="Basic Rummy has no knock"):
        hand_knock_limit(find_rules("rummy"))


# -- claims ------------------------------------------------------------------------------------


def _claim_error(result: HandResult, **claims: Any) -> str:
    with pytest.raises(ScoreError) as info:
        check_claim(result, **claims)
    return str(info.value)


def test_claim_of_defender_deadwood_shows_the_layoffs() -> None:
    r = score_hand(
        STANDARD,
        knocker_cards=KNOCKER,
        defender_cards=DEFENDER,
        knocker_melds="AS 2S 3S | 5H 6H 7H | 9S 9D 9C",
    )
    assert _claim_error(r, claimed_defender_deadwood=47) == (
        "Defender lays off 8H on 5H 6H 7H; 9H on 9S 9D 9C: 30 left, not 47 "
        "(melds KS KH KD; deadwood QS JD 2C 3C 5C)"
    )


def test_claims_that_differ_are_all_listed_with_their_proof() -> None:
    r = score_hand(STANDARD, knocker_cards=KNOCKER, defender_cards=DEFENDER)
    message = _claim_error(
        r,
        claimed_outcome=HandOutcome.UNDERCUT,
        claimed_knocker_deadwood=9,
        claimed_points=25,
        claimed_winner="defender",
    )
    assert (
        "Knock, not undercut: the defender's deadwood 30 is more than the knocker's 10" in message
    )
    assert "The knocker's deadwood is 10, not 9 (melds AS 2S 3S | 5H 6H 7H | 9S 9D 9C" in message
    assert "The knocker wins the hand, not the defender" in message
    assert "The knocker scores 20, not 25: defender 30 − knocker 10 = 20" in message
    check_claim(
        r, claimed_outcome=HandOutcome.KNOCK, claimed_points=20, claimed_defender_deadwood=30
    )


def test_claims_on_count_entries_and_undercuts() -> None:
    r = counts(CLASSIC, HandOutcome.UNDERCUT, knocker_deadwood=6, defender_deadwood=6)
    assert "equals the knocker's 6 and a tie is an undercut" in _claim_error(
        r, claimed_outcome=HandOutcome.KNOCK
    )
    assert _claim_error(r, claimed_defender_deadwood=4) == "The defender's deadwood is 6, not 4"
    assert "undercut bonus 10 = 10" in _claim_error(r, claimed_points=16)
    under = counts(outcome=HandOutcome.UNDERCUT, knocker_deadwood=9, defender_deadwood=2)
    assert "knocker 9 − defender 2 + undercut bonus 25 = 32" in _claim_error(
        under, claimed_points=7
    )
    gin = counts(outcome=HandOutcome.GIN, knocker_deadwood=0, defender_deadwood=30)
    assert "gin bonus 25 + defender 30 = 55" in _claim_error(gin, claimed_points=30)
    assert "Gin, not knock: the knocker has no deadwood" in _claim_error(
        gin, claimed_outcome=HandOutcome.KNOCK
    )
    assert _claim_error(dead_hand(), claimed_outcome=HandOutcome.KNOCK) == "Dead, not knock"
    assert _claim_error(dead_hand(), claimed_points=3).startswith("Nobody scores 0, not 3")


def test_claim_on_a_hand_without_layoffs() -> None:
    r = score_hand(
        STANDARD,
        knocker_cards="AS 2S 3S 5H 6H 7H 9S 9D 9C 8C",
        defender_cards="KS KH KD QS QH QD 2D 3C 4C 5D",
    )
    # No card of the defender fits; D = 2 + 3 + 4 + 5 = 14 > 8: knock, 14 − 8 = 6.
    assert r.points == 6
    assert not r.layoffs
    assert _claim_error(r, claimed_defender_deadwood=9).startswith(
        "The defender's deadwood is 14, not 9 (melds QS QH QD | KS KH KD; deadwood 2D 5D 3C 4C)"
    )


def test_explain_lists_everything() -> None:
    r = score_hand(STANDARD, knocker_cards=GIN, defender_cards=GIN_DEFENDER)
    text = r.explain()
    assert "Knocker (chosen by the engine): melds AS 2S 3S" in text
    assert "Gin: knocker scores gin bonus 25 + defender 42 = 67" in text


# -- partnership -------------------------------------------------------------------------------


def test_partnership_hand() -> None:
    rules = find_rules("partnership")
    # Board A: team 0 knocks, 25 − 5 = 20. Board B: team 1 goes gin, 25 + 12 = 37.
    # Team 0: 20, team 1: 37 -> team 1 scores 37 − 20 = 17.
    a = counts(knocker_deadwood=5, defender_deadwood=25)
    b = counts(outcome=HandOutcome.GIN, knocker_deadwood=0, defender_deadwood=12)
    r = score_partnership_hand(rules, a, b, knocker_team_a=0, knocker_team_b=1)
    assert (r.team_points, r.winner, r.points, r.outcome) == ((20, 37), 1, 17, HandOutcome.KNOCK)
    # Board B undercut by team 0's defender: (8 − 2) + 25 = 31 for team 0 -> 20 + 31 = 51.
    c = counts(outcome=HandOutcome.UNDERCUT, knocker_deadwood=8, defender_deadwood=2)
    r = score_partnership_hand(rules, a, c, knocker_team_a=0, knocker_team_b=1)
    assert (r.team_points, r.winner, r.points) == ((51, 0), 0, 51)
    # Equal sums: nobody scores.
    r = score_partnership_hand(rules, a, a, knocker_team_a=0, knocker_team_b=1)
    assert (r.team_points, r.winner, r.points, r.outcome) == ((20, 20), None, 0, HandOutcome.DEAD)
    # A dead board adds nothing.
    r = score_partnership_hand(rules, dead_hand(), a, knocker_team_a=1, knocker_team_b=1)
    assert (r.winner, r.points) == (1, 20)
    with pytest.raises(RuleError, match="needs a 'partnership' rule set"):
        score_partnership_hand(STANDARD, a, b, knocker_team_a=0, knocker_team_b=1)
    with pytest.raises(ScoreError, match="A knocker's team is 0 or 1"):
        score_partnership_hand(rules, a, b, knocker_team_a=0, knocker_team_b=2)


def test_outcome_labels() -> None:
    assert [o.label for o in HandOutcome] == ["knock", "gin", "big gin", "undercut", "dead"]


def test_results_built_through_drafts_are_the_frozen_classes() -> None:
    # HandResult, LayoffResult and Layoff are built in a same-layout draft that becomes the class;
    # the result must be indistinguishable from the dataclass constructor's.
    import dataclasses
    import pickle

    from engine.layoff import Layoff, LayoffResult, layoff_result, make_layoff
    from engine.scoring.outcome import HandOutcome, HandResult, new_result

    result = score_hand(
        find_rules("standard"),
        knocker_cards="AS 2S 3S 5H 6H 7H 9S 9D 9C KC",
        defender_cards="8H 9H KS KH KD 2C 3C QS JD 5C",
    )
    values = [getattr(result, field.name) for field in dataclasses.fields(HandResult)]
    for built, expected in (
        (result, HandResult(*values)),
        (new_result(*values), HandResult(*values)),
        (make_layoff(7, 1), Layoff(7, 1)),
        (layoff_result((), (), (), (3,), 4, 5), LayoffResult((), (), (), (3,), 4, 5)),
    ):
        assert type(built) is type(expected)
        assert built == expected
        assert hash(built) == hash(expected)
        assert dataclasses.astuple(built) == dataclasses.astuple(expected)
        assert pickle.loads(pickle.dumps(built)) == expected
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(built, dataclasses.fields(built)[0].name, None)
    assert result.outcome is HandOutcome.KNOCK
    assert result.layoffs[0] == Layoff(parse_card("8H"), 1)
