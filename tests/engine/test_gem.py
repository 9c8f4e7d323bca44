"""Gem Rummy (RULES.md §8): deck map, vaults, Queen's Diamond, gem bonus, dice, flat undercut.

The commercial deck's gems are club data, so these tests use a made-up deck map: a non-king card of
rank r (ace = 0) carries gem ``GEMS[r % 8]``; the king of suit s carries ``GEMS[4 + s]`` and
``GEMS[s]``.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import format_cards, parse_card, parse_cards
from engine.errors import KnockError, MeldError, RuleError, ScoreError
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
from engine.scoring import HandOutcome, HandResult, score_hand, score_hand_counts

GEMS = ["ruby", "emerald", "sapphire", "diamond", "topaz", "amethyst", "pearl", "onyx"]
GEM = find_rules("gem")


def _gems(card: int) -> str | tuple[str, str]:
    suit, rank = divmod(card, 13)
    return (GEMS[4 + suit], GEMS[suit]) if rank == 12 else GEMS[rank % 8]


DECK_MAP = DeckMap.from_mapping({card: _gems(card) for card in range(52)})

# Knocker: vault A♠ A♥ 9♦ 9♣ (all ruby), run 4-5-6♣, set 7♠ 7♥ 7♦, deadwood 2♠: K = 2.
KNOCKER = "AS AH 9D 9C 4C 5C 6C 7S 7H 7D 2S"
# Defender: Queen's Diamond Q♦ + 5♦ (diamond number 5), set K♠ K♥ K♣, 7♣ laid off on the 7s;
# deadwood 8♠ T♠ J♥ 3♥ 2♣ = 8 + 10 + 10 + 3 + 2 = 33 (40 before the lay-off).
DEFENDER = "QD 5D KS KH KC 8S 7C TS JH 3H 2C"


def test_deck_map_checks() -> None:
    assert DECK_MAP.names == tuple(sorted(GEMS))
    assert DECK_MAP.of(parse_card("KS")) == ("topaz", "ruby")
    full: dict[int | str, str | tuple[str, str]] = {card: _gems(card) for card in range(52)}
    missing = dict(full)
    del missing[parse_card("7C")]
    with pytest.raises(RuleError, match="the deck map is missing 7C"):
        DeckMap.from_mapping(missing)
    with pytest.raises(RuleError, match="KS must carry two different gems"):
        DeckMap.from_mapping({**full, parse_card("KS"): "ruby"})
    with pytest.raises(RuleError, match="AS must carry one gem"):
        DeckMap.from_mapping({**full, 0: ("ruby", "onyx")})
    with pytest.raises(RuleError, match="a deck map has exactly 8 gems, not 9"):
        DeckMap.from_mapping({**full, 0: "jade"})
    with pytest.raises(RuleError, match="AS is given twice in the deck map"):
        DeckMap.from_mapping({**full, "AS": "ruby"})
    with pytest.raises(RuleError, match="gives the gems of all 52 cards, not 1"):
        DeckMap((("ruby",),))


def test_diamond_number_names_a_diamond() -> None:
    assert [format_cards([diamond_card(n)]) for n in (1, 5, 6)] == ["AD", "5D", "6D"]
    with pytest.raises(RuleError, match="the diamond number is a die roll 1-6, not 7"):
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
    with pytest.raises(ScoreError, match="the knock-limit die shows 1-6, not 7"):
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
