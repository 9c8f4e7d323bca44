"""Gem Rummy (docs/rules.md §8): deck map, vaults, Queen's Diamond, gem bonus, dice, flat undercut.

The commercial deck's gems are club data, so these tests use a made-up deck map: a non-king card of
rank r (ace = 0) carries gem ``GEMS[r % 8]``; the king of suit s carries ``GEMS[4 + s]`` and
``GEMS[s]``.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import format_cards, parse_card, parse_cards
from engine.errors import CardError, KnockError, MeldError, RuleError, ScoreError
from engine.game import ScoredHand
from engine.gem import (
    DeckMap,
    check_gem_meld,
    diamond_card,
    gem_melds,
    has_all_gems,
    vault_gems,
)
from engine.layoff import lay_off
from engine.melds import Meld, MeldKind
from engine.rules import find_rules
from engine.scoring import (
    GemThreeHandResult,
    HandOutcome,
    HandResult,
    combine_gem_three,
    score_gem_three_counts,
    score_gem_three_hand,
    score_hand,
    score_hand_counts,
)
from tests.engine.helpers import GEMS, made_up_gems

GEM = find_rules("gem")

DECK_MAP = DeckMap.from_mapping({card: made_up_gems(card) for card in range(52)})

# Knocker: vault A♠ A♥ 9♦ 9♣ (all ruby), run 4-5-6♣, set 7♠ 7♥ 7♦, deadwood 2♠: K = 2.
KNOCKER = "AS AH 9D 9C 4C 5C 6C 7S 7H 7D 2S"
# Defender: Queen's Diamond Q♦ + 5♦ (diamond number 5), set K♠ K♥ K♣, 7♣ laid off on the 7s;
# deadwood 8♠ T♠ J♥ 3♥ 2♣ = 8 + 10 + 10 + 3 + 2 = 33 (40 before the lay-off).
DEFENDER = "QD 5D KS KH KC 8S 7C TS JH 3H 2C"


def test_deck_map_checks() -> None:
    assert DECK_MAP.names == tuple(sorted(GEMS))
    assert DECK_MAP.of(parse_card("KS")) == ("topaz", "ruby")
    full: dict[int | str, str | tuple[str, str]] = {card: made_up_gems(card) for card in range(52)}
    missing = dict(full)
    del missing[parse_card("7C")]
    with pytest.raises(RuleError, match="The deck map is missing 7C"):
        DeckMap.from_mapping(missing)
    with pytest.raises(RuleError, match="KS must carry two different gems"):
        DeckMap.from_mapping({**full, parse_card("KS"): "ruby"})
    with pytest.raises(RuleError, match="AS must carry one gem"):
        DeckMap.from_mapping({**full, 0: ("ruby", "onyx")})
    with pytest.raises(RuleError, match="A deck map has exactly 8 gems, not 9"):
        DeckMap.from_mapping({**full, 0: "jade"})
    with pytest.raises(RuleError, match="AS is given twice in the deck map"):
        DeckMap.from_mapping({**full, "AS": "ruby"})
    with pytest.raises(RuleError, match="gives the gems of all 52 cards, not 1"):
        DeckMap((("ruby",),))


def test_diamond_number_names_a_diamond() -> None:
    assert [format_cards([diamond_card(n)]) for n in (1, 5, 6)] == ["AD", "5D", "6D"]
    with pytest.raises(RuleError, match="The diamond number is a die roll 1-6, not 7"):
        diamond_card(7)


def test_gem_melds_finds_vaults_and_the_queens_diamond() -> None:
    melds = gem_melds(parse_cards(KNOCKER), DECK_MAP, 5)
    assert [str(m) for m in melds] == ["AS AH 9D 9C"]
    defender = gem_melds(parse_cards(DEFENDER), DECK_MAP, 5)
    assert [(m.kind, str(m)) for m in defender] == [(MeldKind.QUEENS_DIAMOND, "5D QD")]
    assert gem_melds(parse_cards(DEFENDER), DECK_MAP, 4) == ()  # 4♦ is not there
    # Five rubies give every 4- and 5-card vault: C(5,4) + 1 = 6.
    assert len(gem_melds(parse_cards("AS AH AD 9D 9C"), DECK_MAP)) == 6
    assert vault_gems(parse_cards("KS AS AH 9D"), DECK_MAP) == {"ruby"}


def test_declared_gem_melds_are_checked() -> None:
    check_gem_meld(Meld(MeldKind.VAULT, parse_cards("AS AH 9D 9C")), DECK_MAP, None)
    with pytest.raises(MeldError, match="is not a vault: its cards share no gem \\(AS ruby;"):
        check_gem_meld(Meld(MeldKind.VAULT, parse_cards("AS AH 9D 2C")), DECK_MAP, None)
    with pytest.raises(MeldError, match="cannot be checked without the club's deck map"):
        check_gem_meld(Meld(MeldKind.VAULT, parse_cards("AS AH 9D 9C")), None, None)
    qd = Meld(MeldKind.QUEENS_DIAMOND, parse_cards("QD 5D"))
    check_gem_meld(qd, DECK_MAP, 5)
    with pytest.raises(MeldError, match="diamond number 3 names 3D"):
        check_gem_meld(qd, DECK_MAP, 3)
    with pytest.raises(MeldError, match="needs the hand's diamond number"):
        check_gem_meld(qd, DECK_MAP, None)


def test_gem_parts_bonus_counts_a_king_once() -> None:
    # Non-kings of the defender cover diamond, topaz, onyx, pearl, emerald, sapphire; K♠ gives
    # ruby and K♥ amethyst: all eight.
    assert has_all_gems(parse_cards(DEFENDER), DECK_MAP)
    assert not has_all_gems(parse_cards(KNOCKER), DECK_MAP)  # no sapphire, no onyx
    # K♠ carries topaz and ruby but counts once: missing both needs two kings.
    seven = parse_cards("2S 3S 4S 6S 7S 8S KS")  # no ruby and no topaz: K♠ fills one only
    assert not has_all_gems(seven, DECK_MAP)
    assert has_all_gems(parse_cards("AS 2S 3S 4S 6S 7S 8S KS"), DECK_MAP)  # K♠ as topaz


def test_gem_hand_by_cards() -> None:
    # Die 3: K = 2 ≤ 3. Knocker scores 33 − 2 = 31 (at least 11); the defender holds all eight
    # gems: +8 to the non-knocker.
    r = score_hand(
        GEM,
        knocker_cards=KNOCKER,
        defender_cards=DEFENDER,
        knock_limit=3,
        diamond_number=5,
        deck_map=DECK_MAP,
    )
    assert (r.outcome, r.knocker_deadwood, r.defender_deadwood) == (HandOutcome.KNOCK, 2, 33)
    assert r.defender_deadwood_without_layoffs == 40
    assert (r.points, r.gem_bonus_knocker, r.gem_bonus_defender) == (31, 0, 8)
    assert (r.score_for("knocker"), r.score_for("defender")) == (31, 8)
    assert any(m.kind is MeldKind.VAULT for m in r.knocker_melds)
    assert any(m.kind is MeldKind.QUEENS_DIAMOND for m in r.defender_melds)
    assert format_cards([lay.card for lay in r.layoffs]) == "7C"
    assert "Gem parts bonus: defender +8" in r.explain()


def test_gem_knock_over_the_dice_limit() -> None:
    # Die 1: K = 2 > 1.
    with pytest.raises(KnockError, match=r"deadwood 2 > 1 \(.*limit 1 rolled for this hand\)"):
        score_hand(
            GEM,
            knocker_cards=KNOCKER,
            defender_cards=DEFENDER,
            knock_limit=1,
            diamond_number=5,
            deck_map=DECK_MAP,
        )


def test_gem_declared_vault_is_used() -> None:
    r = score_hand(
        GEM,
        knocker_cards=KNOCKER,
        defender_cards=DEFENDER,
        knocker_melds="AS AH 9D 9C | 4C 5C 6C | 7S 7H 7D",
        knock_limit=2,
        diamond_number=5,
        deck_map=DECK_MAP,
    )
    assert r.knocker_melds_given
    assert r.points == 31


def test_gem_entry_needs_deck_map_dice_and_diamond() -> None:
    with pytest.raises(ScoreError, match="only with the club's deck map"):
        score_hand(GEM, knocker_cards=KNOCKER, defender_cards=DEFENDER, knock_limit=3)
    with pytest.raises(ScoreError, match="needs the diamond number"):
        score_hand(
            GEM, knocker_cards=KNOCKER, defender_cards=DEFENDER, knock_limit=3, deck_map=DECK_MAP
        )
    with pytest.raises(ScoreError, match="needs the knock-limit die"):
        score_hand_counts(GEM, outcome=HandOutcome.KNOCK, knocker_deadwood=2, defender_deadwood=9)
    with pytest.raises(ScoreError, match="The knock-limit die shows 1-6, not 7"):
        score_hand_counts(
            GEM, outcome=HandOutcome.KNOCK, knocker_deadwood=2, defender_deadwood=9, knock_limit=7
        )


def test_gem_counts_minimum_flat_undercut_and_bonus() -> None:
    def counts(outcome: HandOutcome, k: int, d: int, **kw: Any) -> HandResult:
        return score_hand_counts(
            GEM, outcome=outcome, knocker_deadwood=k, defender_deadwood=d, knock_limit=6, **kw
        )

    # D − K = 9 − 5 = 4, raised to 11.
    assert counts(HandOutcome.KNOCK, 5, 9).points == 11
    # A tie is not an undercut in Gem: the knocker scores 0, raised to 11.
    assert counts(HandOutcome.KNOCK, 5, 5).points == 11
    # Undercut D < K: flat 25, whatever the difference.
    under = counts(HandOutcome.UNDERCUT, 6, 1)
    assert (under.winner, under.points) == ("defender", 25)
    assert under.formula() == "undercut bonus 25 = 25"
    # Gin 25 + D; big gin 35 + D.
    assert counts(HandOutcome.GIN, 0, 40).points == 65
    assert counts(HandOutcome.BIG_GIN, 0, 40).points == 75
    # Gem bonus flags: 16 to the knocker, 8 to the other player, on top.
    r = counts(HandOutcome.KNOCK, 2, 30, knocker_gem_bonus=True, defender_gem_bonus=True)
    assert (r.points, r.score_for("knocker"), r.score_for("defender")) == (28, 44, 8)
    # Max deadwood for 11 cards is 106.
    with pytest.raises(ScoreError, match="107 is impossible"):
        counts(HandOutcome.KNOCK, 2, 107)


def test_gem_big_gin_by_cards() -> None:
    # 12 cards after the draw: vault A♠ A♥ 9♦ 9♣, 4-5-6♣, 7♠ 7♥ 7♦, Q♦ 5♦: big gin 35 + D.
    # Defender (11): K♠ K♥ K♣ set; 8♠ T♠ J♥ 3♥ 2♣ 7♣ 8♣ 3♠ left; 7♣ 8♣ may not be laid off on
    # big gin: D = 8 + 10 + 10 + 3 + 2 + 7 + 8 + 3 = 51 -> 35 + 51 = 86.
    r = score_hand(
        GEM,
        knocker_cards="AS AH 9D 9C 4C 5C 6C 7S 7H 7D QD 5D",
        defender_cards="KS KH KC 8S TS JH 3H 2C 7C 8C 3S",
        knock_limit=1,
        diamond_number=5,
        deck_map=DECK_MAP,
    )
    assert (r.outcome, r.defender_deadwood, r.points) == (HandOutcome.BIG_GIN, 51, 86)


def test_gem_lay_off_takes_the_defenders_vaults_into_account() -> None:
    # The defender's rubies A♠ A♥ 9♦ 9♣ make a vault; 3♠ + 2♣ = 5 are left, and 3♠ goes on the
    # knocker's 4-5-6♠ at its low end: 2 left.
    knocker = [Meld.parse("4S 5S 6S")]
    result = lay_off(
        knocker,
        parse_cards("AS AH 9D 9C 3S 2C"),
        defender_extra=gem_melds(parse_cards("AS AH 9D 9C 3S 2C"), DECK_MAP),
    )
    assert (result.deadwood, result.deadwood_without_layoffs) == (2, 5)
    none = lay_off(knocker, parse_cards("3S 2C"), allow_layoffs=False)
    assert none.deadwood == 5
    assert none.layoffs == ()


# -- three players: each non-knocker against the knocker separately (docs/rules.md §8) ---------

GEM3 = find_rules("gem").with_overrides(table="open")


def _three(
    outcomes: tuple[HandOutcome, HandOutcome], k: int, d: tuple[int, int], **kw: Any
) -> GemThreeHandResult:
    return score_gem_three_counts(
        GEM3,
        outcomes=outcomes,
        knocker_deadwood=k,
        defender_deadwoods=d,
        knock_limit=5,
        **kw,
    )


def test_gem_three_by_counts_wins_against_one_and_is_undercut_by_the_other() -> None:
    knock, under = HandOutcome.KNOCK, HandOutcome.UNDERCUT
    # K = 4. First defender 30: knocker scores 30 − 4 = 26. Second defender 2 < 4: undercut,
    # the second defender scores a flat 25. Hand: knocker 26, first 0, second 25; the knocker
    # scored most and wins the hand.
    r = _three((knock, under), 4, (30, 2))
    assert r.scores == (26, 0, 25)
    assert (r.winner, r.outcome) == (0, HandOutcome.KNOCK)
    assert [p.winner for p in r.pairings] == ["knocker", "defender"]
    assert (r.knocker_deadwood, r.knock_limit) == (4, 5)
    # Gem bonuses once per player: +16 to the knocker (not once per pairing), +8 to the second.
    r = _three((knock, under), 4, (30, 2), knocker_gem_bonus=True, defender_gem_bonuses=(0, 1))
    assert r.scores == (26 + 16, 0, 25 + 8)
    assert (r.gem_bonus_knocker, [p.gem_bonus_knocker for p in r.pairings]) == (16, [0, 0])
    assert "Gem parts bonus: knocker +16" in r.explain()
    assert "This hand: knocker 42, defender 1 0, defender 2 33" in r.explain()
    # The knocker's minimum 11 holds against each defender: 9 − 5 = 4 -> 11; 12 − 5 = 7 -> 11.
    assert _three((knock, knock), 5, (9, 12)).scores == (22, 0, 0)
    # Gin against both: 25 + 20 = 45 and 25 + 15 = 40.
    gin = _three((HandOutcome.GIN, HandOutcome.GIN), 0, (20, 15))
    assert (gin.scores, gin.outcome) == ((85, 0, 0), HandOutcome.GIN)


def test_gem_three_hand_winner_ties() -> None:
    # K = 2: first defender 27 -> knocker 25; second 1 < 2 -> undercut 25. Tied at 25: the
    # knocker wins the hand.
    r = _three((HandOutcome.KNOCK, HandOutcome.UNDERCUT), 2, (27, 1))
    assert (r.scores, r.winner) == ((25, 0, 25), 0)
    # Both undercut (K = 5 against 1 and 3): 25 each; the tie goes to the first defender.
    both = _three((HandOutcome.UNDERCUT, HandOutcome.UNDERCUT), 5, (1, 3))
    assert (both.scores, both.winner, both.outcome) == ((0, 25, 25), 1, HandOutcome.UNDERCUT)
    # As a game entry, with the knocker at seat 2 and the defenders at seats 0 and 1.
    scored = ScoredHand.from_gem_three(both, knocker=2, defenders=(0, 1))
    assert (scored.winner, scored.points, scored.credits()) == (0, 25, {0: 25, 1: 25})
    with pytest.raises(ScoreError, match="three different players, not 1, 1, 0"):
        ScoredHand.from_gem_three(both, knocker=1, defenders=(1, 0))


def test_gem_three_refuses_what_is_not_one_knock() -> None:
    knock, under = HandOutcome.KNOCK, HandOutcome.UNDERCUT
    with pytest.raises(RuleError, match="'open' table, not gem at table 'two'"):
        score_gem_three_counts(
            GEM, outcomes=(knock, knock), knocker_deadwood=2, defender_deadwoods=(9, 9)
        )
    with pytest.raises(ScoreError, match="two defenders, not 1"):
        score_gem_three_counts(GEM3, outcomes=(knock,), knocker_deadwood=2, defender_deadwoods=())
    # A pairing's own error says which defender it is about.
    with pytest.raises(ScoreError, match="Against defender 2: Knock, not undercut"):
        _three((knock, under), 4, (30, 9))

    def counts(outcome: HandOutcome, k: int, d: int, **kw: Any) -> HandResult:
        return score_hand_counts(
            GEM3, outcome=outcome, knocker_deadwood=k, defender_deadwood=d, **kw
        )

    a = counts(knock, 2, 20, knock_limit=3)
    with pytest.raises(ScoreError, match="dead for all three"):
        combine_gem_three(GEM3, a, score_hand_counts(GEM3, outcome=HandOutcome.DEAD))
    with pytest.raises(ScoreError, match="deadwood 2 against the first defender and 3"):
        combine_gem_three(GEM3, a, counts(knock, 3, 20, knock_limit=3))
    with pytest.raises(ScoreError, match="one knock limit, not 3 and 4"):
        combine_gem_three(GEM3, a, counts(knock, 2, 20, knock_limit=4))
    gin = counts(HandOutcome.GIN, 0, 20, knock_limit=3)
    big = counts(HandOutcome.BIG_GIN, 0, 20, knock_limit=3)
    with pytest.raises(ScoreError, match=r"knocker's gin is the same against both .* not big gin"):
        combine_gem_three(GEM3, gin, big)
    with pytest.raises(ScoreError, match=r"knocker's big gin is the same .* not gin"):
        combine_gem_three(GEM3, big, gin)
    with pytest.raises(ScoreError, match="one bonus, not 0 and 16"):
        combine_gem_three(GEM3, a, counts(knock, 2, 20, knock_limit=3, knocker_gem_bonus=True))


# Second defender for KNOCKER (K = 2 with die 3): runs 4-5-6♥ and 8-9-T♥, A-2-3-4♦; 3♣ goes on
# the knocker's 4-5-6♣: 0 left (3 before the lay-off).
SECOND = "4H 5H 6H 8H 9H TH AD 2D 3D 4D 3C"


def test_gem_three_by_cards_knock_against_one_undercut_by_the_other() -> None:
    r = score_gem_three_hand(
        GEM3,
        knocker_cards=KNOCKER,
        defender_cards=(DEFENDER, SECOND),
        knock_limit=3,
        diamond_number=5,
        deck_map=DECK_MAP,
    )
    first, second = r.pairings
    # In turn (seed 003): DEFENDER lays 7♣ on the 7s, SECOND lays 3♣ on 4-5-6♣, and then
    # DEFENDER lays 2♣ on the 3♣ SECOND just laid off: 40 − 7 − 2 = 31, so 31 − 2 = 29, and the
    # defender's +8 gem bonus.
    assert (first.outcome, first.defender_deadwood, first.points) == (HandOutcome.KNOCK, 31, 29)
    assert format_cards([lay.card for lay in first.layoffs]) == "2C 7C"
    # Against SECOND: 0 < 2 after laying off 3♣, an undercut: 25 flat to the second defender.
    assert (second.outcome, second.defender_deadwood) == (HandOutcome.UNDERCUT, 0)
    assert second.defender_deadwood_without_layoffs == 3
    assert format_cards([lay.card for lay in second.layoffs]) == "3C"
    assert r.scores == (29, 8, 25)
    assert r.winner == 0
    assert "Against defender 2:" in r.explain()
    # With 8♣ instead of A♦, the second defender chains 8♣ onto the 7♣ that the first defender
    # laid off: 0 left, an undercut too.
    apart = score_gem_three_hand(
        GEM3,
        knocker_cards=KNOCKER,
        defender_cards=(DEFENDER, "4H 5H 6H 8H 9H TH 8C 2D 3D 4D 3C"),
        knock_limit=3,
        diamond_number=5,
        deck_map=DECK_MAP,
    )
    assert apart.pairings[1].defender_deadwood == 0
    assert format_cards([lay.card for lay in apart.pairings[1].layoffs]) == "3C 8C"
    assert apart.scores == (29, 8, 25)


def test_gem_three_by_cards_checks_both_defenders() -> None:
    def hand(defenders: tuple[str, str], **kw: Any) -> GemThreeHandResult:
        return score_gem_three_hand(
            GEM3,
            knocker_cards=KNOCKER,
            defender_cards=defenders,
            knock_limit=3,
            diamond_number=5,
            deck_map=DECK_MAP,
            **kw,
        )

    with pytest.raises(CardError, match="Card 3H is in both defenders' hands"):
        hand((DEFENDER, "4H 5H 6H 8H 9H TH AD 2D 3D 4D 3H"))
    with pytest.raises(CardError, match="Against defender 2: defender: expected 11 cards"):
        hand((DEFENDER, "4H 5H 6H"))
    with pytest.raises(ScoreError, match="two defenders, not 1"):
        hand((DEFENDER,))
    given = hand((DEFENDER, SECOND), knocker_melds="AS AH 9D 9C | 4C 5C 6C | 7S 7H 7D")
    assert all(p.knocker_melds_given for p in given.pairings)
    assert given.scores == (29, 8, 25)


def test_gem_three_knocker_shows_the_melds_best_against_both() -> None:
    # Knocker: 4-5-6 of ♠ ♥ ♦ (three runs, or sets of 4s, 5s and 6s), A♣ 2♣: K = 3, die 3.
    # First defender: K♠ K♥ K♦ and 4♣ 6♣ 8♠ 9♥ T♦ J♣ Q♠ 2♥ = 4 + 6 + 8 + 9 + 10 + 10 + 10 + 2 = 59;
    #   against the sets it lays off 4♣ and 6♣: 49. Its non-kings give diamond, amethyst, onyx,
    #   ruby, emerald, sapphire; K♠ topaz and K♦ pearl: all eight gems, +8.
    # Second defender: no melds, 7 + 7 + 3 + 9 + 10 + 10 + 8 + 2 + 10 + 1 + 3 = 70; against the
    #   runs it lays off 7♠, 7♥ and 3♦: 53.
    # Alone, the first defender would be shown the runs (59 > 49) and the second the sets
    # (70 > 53). One table has one set of melds: runs leave 59 + 53 = 112, sets 49 + 70 = 119,
    # so the knocker shows the sets: 49 − 3 = 46 and 70 − 3 = 67, 113 to the knocker.
    r = score_gem_three_hand(
        GEM3,
        knocker_cards="4S 5S 6S 4H 5H 6H 4D 5D 6D AC 2C",
        defender_cards=(
            "KS KH KD 4C 6C 8S 9H TD JC QS 2H",
            "7S 7H 3D 9S JH QC 8D 2S TC AD 3C",
        ),
        knock_limit=3,
        diamond_number=1,
        deck_map=DECK_MAP,
    )
    first, second = r.pairings
    assert all(m.kind is MeldKind.SET for m in first.knocker_melds)
    assert first.knocker_melds == second.knocker_melds
    assert not first.knocker_melds_given
    assert (first.defender_deadwood, second.defender_deadwood) == (49, 70)
    assert (first.points, second.points, first.gem_bonus_defender) == (46, 67, 8)
    assert r.scores == (113, 8, 0)


def test_gem_three_game_to_110_and_a_tie_broken_by_the_last_hand() -> None:
    from engine.game import score_game

    def hand(knocker: int, k: int, d: tuple[int, int]) -> ScoredHand:
        first, second = (HandOutcome.KNOCK if x > k else HandOutcome.UNDERCUT for x in d)
        one, two = (p for p in range(3) if p != knocker)
        return ScoredHand.from_gem_three(
            _three((first, second), k, d), knocker=knocker, defenders=(one, two)
        )

    # Hand 1: seat 0 knocks with 1 against 61 and 41: 60 + 40 = 100 to seat 0 (it deals next).
    # Hand 2: seat 1 knocks with 5 against 4 (undercut: 25 to seat 0) and 90 (85 to seat 1):
    #   seat 0 has 125, seat 1 85: seat 0 passes 110 and wins.
    g = score_game(GEM3, [hand(0, 1, (61, 41)), hand(1, 5, (4, 90))], players=3)
    assert g.running_totals == ((100, 0, 0), (125, 85, 0))
    assert (g.finished, g.winner, g.dealers, g.final_totals) == (True, 0, (0, 0), (125, 85, 0))
    # A tie at 110 goes to the player with more points in the last hand. Hand 1: seat 0 knocks
    # with 1 against 86 (85) and 0 (undercut: 25 to seat 2). Hand 2: seat 2 knocks with 5
    # against seat 0's 4 (undercut: 25, seat 0 has 110) and seat 1's 90 (85, seat 2 has 110).
    # Tied at 110: seat 2 scored 85 in the last hand, seat 0 25: seat 2 wins.
    tied = score_game(GEM3, [hand(0, 1, (86, 0)), hand(2, 5, (4, 90))], players=3)
    assert tied.running_totals == ((85, 0, 25), (110, 0, 110))
    assert (tied.finished, tied.winner, tied.tiebreak) == (True, 2, True)
