"""Lay-offs and the knocker's choice (docs/rules.md §3.2-§3.3)."""

from __future__ import annotations

import pytest

from engine.cards import format_cards, parse_card, parse_cards
from engine.errors import CardError, MeldError
from engine.layoff import Layoff, knocker_choice, lay_off, validate_knocker_melds
from engine.melds import Meld, MeldKind


def melds(*texts: str) -> list[Meld]:
    return [Meld.parse(text) for text in texts]


def laid(text_melds: list[Meld], defender: str, **kwargs: bool) -> tuple[str, int]:
    result = lay_off(text_melds, parse_cards(defender), **kwargs)
    return format_cards(sorted(result.laid_off_cards)), result.deadwood


def test_fourth_card_on_a_set_of_three_only() -> None:
    assert laid(melds("8S 8H 8D"), "8C KD") == ("8C", 10)
    assert laid(melds("8S 8H 8D 8C"), "KD 2H") == ("", 12)


def test_runs_extend_at_both_ends_and_chain() -> None:
    assert laid(melds("5S 6S 7S"), "3S 4S 8S 9S KD") == ("3S 4S 8S 9S", 10)
    # 8S 9S TS is a run of the defender's own: a tie, which goes to the fewest cards laid off.
    assert laid(melds("5S 6S 7S"), "3S 4S 8S 9S TS KD") == ("3S 4S", 10)
    assert laid(melds("2S 3S 4S"), "AS KH") == ("AS", 10)


def test_ace_is_low_only() -> None:
    assert laid(melds("JS QS KS"), "AS 2H") == ("", 3)
    assert laid(melds("AH 2H 3H"), "KH 4H") == ("4H", 10)


def test_nothing_on_gin_or_on_gem_melds() -> None:
    assert laid(melds("5S 6S 7S"), "8S 9H", allow_layoffs=False) == ("", 17)
    vault = Meld(MeldKind.VAULT, parse_cards("AS 7H 9D KC"))
    queens = Meld(MeldKind.QUEENS_DIAMOND, parse_cards("QD 4D"))
    assert laid([vault, queens], "2S 3D 5D JD") == ("", 20)


def test_layoff_records_meld_index_and_order() -> None:
    knocker = melds("2H 2D 2C", "5S 6S 7S")
    result = lay_off(knocker, parse_cards("9S 8S 2S 4S KD"))
    assert result.layoffs == (
        Layoff(parse_card("2S"), 0),
        Layoff(parse_card("4S"), 1),
        Layoff(parse_card("8S"), 1),
        Layoff(parse_card("9S"), 1),
    )
    assert result.deadwood_cards == (parse_card("KD"),)
    assert result.deadwood_without_layoffs == 33
    assert result.knocker_melds == tuple(knocker)


def test_keep_own_meld_or_lay_off_jointly() -> None:
    # 8H then 9H chain, but 9H is better kept in 9S 9H 9D.
    result = lay_off(melds("5H 6H 7H"), parse_cards("8H 9H 9S 9D KC"))
    assert format_cards(result.laid_off_cards) == "8H"
    assert [str(m) for m in result.defender_melds] == ["9S 9H 9D"]
    assert result.deadwood == 10
    # Keeping 8S 8H 8D beats laying 8S off on 5-6-7S.
    result = lay_off(melds("5S 6S 7S"), parse_cards("8S 8H 8D KC"))
    assert result.layoffs == ()
    assert result.deadwood == 10


def test_break_own_set_to_lay_off() -> None:
    knocker = melds("5S 6S 7S", "9C TC JC", "KS KD KC")
    result = lay_off(knocker, parse_cards("2S 8S 9S 2H 2D 8D AC 2C 7C 8C"))
    assert result.deadwood == 9
    assert result.deadwood_without_layoffs == 17


def test_two_knocker_runs_share_a_gap() -> None:
    knocker = melds("2S 3S 4S", "8S 9S TS")
    result = lay_off(knocker, parse_cards("5S 6S 7S KD"))
    assert result.deadwood == 10
    assert result.layoffs == ()  # laying off all three ties with melding them: fewest wins
    result = lay_off(knocker, parse_cards("5S 7S KD"))
    assert {(layoff.card, layoff.meld_index) for layoff in result.layoffs} == {
        (parse_card("5S"), 0),
        (parse_card("7S"), 1),
    }
    # 5S fits both the 4th-card slot of the set of 5s and the run end; it is laid off once.
    result = lay_off(melds("2S 3S 4S", "5H 5D 5C"), parse_cards("5S 6S KD"))
    assert result.laid_off_cards == (parse_card("5S"), parse_card("6S"))
    assert result.deadwood == 10
    # A card two places want, laid off alone: the first choice found takes it, the product of
    # the places listing the later place's choices first (here the set, meld 1, not the run).
    result = lay_off(melds("5S 6S 7S", "8H 8D 8C"), parse_cards("8S KH KD QC JC 2H 3D 4C 6H 7D"))
    assert result.layoffs == (Layoff(parse_card("8S"), 1),)
    assert result.deadwood == 62


def test_layoff_checks_its_input() -> None:
    with pytest.raises(CardError, match="Card 5S is in both hands"):
        lay_off(melds("5S 6S 7S"), parse_cards("5S 9D"))
    with pytest.raises(MeldError, match="Card 5S is in two of the knocker's melds"):
        lay_off(melds("5S 6S 7S", "5S 5H 5D"), parse_cards("9D"))
    with pytest.raises(CardError, match="Card 5S is in both hands"):
        knocker_choice(parse_cards("5S 6S 7S"), parse_cards("5S"))


def test_str() -> None:
    result = lay_off(melds("5S 6S 7S"), parse_cards("KD"))
    assert str(result) == "no melds; laid off nothing; deadwood 10"


def test_knocker_choice_picks_the_arrangement_worst_for_the_defender() -> None:
    knocker = parse_cards("4S 5S 6S 4H 5H 6H 4D 5D 6D KC")
    arrangement, result = knocker_choice(knocker, parse_cards("4C 6C 9C TC QC JH 2H 8D 3C KD"))
    assert {m.kind for m in arrangement.melds} == {MeldKind.RUN}
    assert result.deadwood == 72
    arrangement, result = knocker_choice(knocker, parse_cards("3S 7H 9C TC QC JH 2H 8D 3C KD"))
    assert {m.kind for m in arrangement.melds} == {MeldKind.SET}
    assert result.deadwood == 72


def test_knocker_choice_gin_allows_no_layoffs() -> None:
    knocker = parse_cards("5S 6S 7S 8S 2H 2D 2C KH KD KC")
    arrangement, result = knocker_choice(knocker, parse_cards("4S 9S 2S KS 7H JH 6D 5C TC QC"))
    assert arrangement.is_gin
    assert result.layoffs == ()
    assert result.deadwood == result.deadwood_without_layoffs == 73


def test_knocker_choice_with_extra_melds() -> None:
    vault = Meld(MeldKind.VAULT, parse_cards("AS 7H 9D KC"))
    knocker = parse_cards("AS 7H 9D KC 2S 3S 4S 5H 5D 5C")
    arrangement, result = knocker_choice(knocker, parse_cards("5S 6S JD"), extra_melds=[vault])
    assert arrangement.is_gin
    assert result.deadwood == 21


def test_validate_knocker_melds() -> None:
    hand = parse_cards("AS 2S 3S 9H 9D 9C KC QH 4D 5D")
    arrangement = validate_knocker_melds(hand, melds("9H 9D 9C", "AS 2S 3S"))
    assert [str(m) for m in arrangement.melds] == ["9H 9D 9C", "AS 2S 3S"]
    assert arrangement.deadwood == 29
    assert format_cards(arrangement.deadwood_cards) == "QH 4D 5D KC"
    with pytest.raises(MeldError, match="Meld 9S 9H 9D uses 9S, which is not in the hand"):
        validate_knocker_melds(hand, melds("9S 9H 9D"))
    with pytest.raises(MeldError, match="Card AS is in two melds"):
        validate_knocker_melds(hand, [*melds("AS 2S 3S"), Meld.parse("AS 2S 3S")])
