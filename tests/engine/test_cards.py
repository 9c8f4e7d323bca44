"""Card encoding, values, masks and notation (docs/rules.md §1)."""

from __future__ import annotations

import re
from decimal import Decimal
from enum import IntEnum
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import (
    DECK,
    card_rank,
    card_suit,
    card_value,
    cards_to_mask,
    check_card,
    format_card,
    format_cards,
    hand_value,
    make_card,
    mask_to_cards,
    parse_card,
    parse_cards,
    sort_cards,
    suit_symbol,
)
from engine.errors import CardError, EngineError


def test_encoding_is_suit_times_13_plus_rank() -> None:
    assert parse_card("AS") == 0
    assert parse_card("KS") == 12
    assert parse_card("AH") == 13
    assert parse_card("TD") == 2 * 13 + 9
    assert parse_card("KC") == 51
    assert [card_rank(c) for c in (0, 13, 51)] == [0, 0, 12]
    assert [card_suit(c) for c in (0, 13, 51)] == [0, 1, 3]
    assert make_card(12, 3) == 51


def test_values() -> None:
    assert [card_value(make_card(rank, 1)) for rank in range(13)] == [
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10,
    ]  # fmt: skip
    assert card_value(parse_card("AC"), ace_high=True) == 15
    assert card_value(parse_card("KC"), ace_high=True) == 10
    assert hand_value(DECK) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 40)
    assert hand_value(cards_to_mask(DECK)) == hand_value(DECK)
    assert hand_value(parse_cards("AS AH"), ace_high=True) == 30
    assert hand_value(()) == 0


@pytest.mark.parametrize(
    ("token", "card"),
    [
        ("AS", "AS"), ("as", "AS"), ("10h", "TH"), ("10H", "TH"), ("Td", "TD"), ("tD", "TD"),
        ("K♣", "KC"), ("k♧", "KC"), ("Q♠", "QS"), ("q♤", "QS"), ("J♥", "JH"), ("j♡", "JH"),
        ("9♦", "9D"), ("9♢", "9D"), ("2♥\ufe0f", "2H"), (" 7c ", "7C"),
    ],
)  # fmt: skip
def test_parse_every_notation(token: str, card: str) -> None:
    assert format_card(parse_card(token)) == card


def test_parse_cards_separators_and_order() -> None:
    cards = parse_cards("AS, 10h,td  K♣\n7c")
    assert format_cards(cards) == "AS TH TD KC 7C"
    assert parse_cards(["as", "10H"]) == parse_cards("AS TH")
    assert parse_cards("") == ()
    assert parse_cards(" , ") == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AS 2S XX", "'XX' at position 3"),
        ("AS 11S", "'11S' at position 2"),
        ("1S", "'1S' at position 1"),
        ("AX", "'AX' at position 1"),
        ("A", "'A' at position 1"),
        ("AS,,ZZ", "'ZZ' at position 2"),
    ],
)
def test_parse_error_names_token_and_position(text: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_cards(text)


def test_parse_duplicate_names_card_and_positions() -> None:
    with pytest.raises(CardError, match=r"Card TH appears twice \(positions 2 and 4\)"):
        parse_cards("AS 10h KD th")


def test_parse_count_checks() -> None:
    assert len(parse_cards("AS 2S 3S", count=3)) == 3
    with pytest.raises(CardError, match="Expected 10 cards, got 3"):
        parse_cards("AS 2S 3S", count=10)
    assert len(parse_cards("AS 2S 3S", counts=(3, 4))) == 3
    with pytest.raises(CardError, match="Expected 10 or 11 cards, got 3"):
        parse_cards("AS 2S 3S", counts={11, 10})


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError, match="Cannot read"):
        parse_card("??")
    assert issubclass(CardError, EngineError)


def test_format_and_symbols() -> None:
    assert format_card(parse_card("10d")) == "TD"
    assert format_card(parse_card("10d"), symbols=True) == "T♦"
    assert format_cards(parse_cards("KC AS"), symbols=True) == "K♣ A♠"
    assert format_cards(()) == ""
    assert [suit_symbol(s) for s in range(4)] == ["♠", "♥", "♦", "♣"]
    with pytest.raises(CardError, match="4 is not a suit"):
        suit_symbol(4)


def test_sort_cards_by_suit_then_rank() -> None:
    assert format_cards(sort_cards(parse_cards("KC AS TD 2S AH"))) == "AS 2S AH TD KC"


def test_masks() -> None:
    assert cards_to_mask(()) == 0
    assert mask_to_cards(0) == ()
    assert mask_to_cards(cards_to_mask([51, 0, 20])) == (0, 20, 51)
    with pytest.raises(CardError, match="Card AS appears twice"):
        cards_to_mask([0, 5, 0])
    with pytest.raises(CardError, match="52 is not a card"):
        cards_to_mask([0, 52])
    with pytest.raises(CardError, match="True is not a card"):
        cards_to_mask([True])
    with pytest.raises(CardError, match="not a card mask"):
        mask_to_cards(1 << 52)
    with pytest.raises(CardError, match="not a card mask"):
        mask_to_cards(-1)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([5, 3.0], "3.0 is not a card"),
        ((Decimal(7), 2), "Decimal('7') is not a card"),
        ([Fraction(9), 2], "Fraction(9, 1) is not a card"),
        ([4, False], "False is not a card"),
        ((1, True), "True is not a card"),
        ([9, -1], "-1 is not a card"),
        ([9, "AS"], "'AS' is not a card"),
        ((7, 20, 7), "Card 8S appears twice"),
    ],
)
def test_lists_and_tuples_are_checked_like_any_cards(cards: list[object], message: str) -> None:
    """Lists and tuples take a fast path; it refuses exactly what the card-by-card check does."""
    with pytest.raises(CardError, match=re.escape(message)):
        cards_to_mask(cards)
    with pytest.raises(CardError, match=re.escape(message)):
        cards_to_mask(iter(cards))


def test_int_subclasses_other_than_bool_are_cards() -> None:
    class Card(IntEnum):
        ACE = 0
        KING = 51

    assert cards_to_mask([Card.ACE, Card.KING]) == cards_to_mask(iter([0, 51])) == 1 | 1 << 51


def test_every_spelling_reads_as_in_the_rules() -> None:
    """Tokens are read by table when they need no clean-up; every spelling agrees with the rule:
    a rank (A 2-9 T/10 J Q K, any case) then a suit letter (any case) or symbol."""
    ranks = [*"A23456789", "T", "10", *"JQK"]
    for suit, letters in enumerate(("Ss♠♤", "Hh♥♡", "Dd♦♢", "Cc♣♧")):
        for index, rank in enumerate(ranks):
            for spelled_rank in {rank, rank.lower()}:
                for letter in letters:
                    expected = suit * 13 + (index if index < 10 else index - 1)
                    token = spelled_rank + letter
                    assert parse_cards([token]) == parse_cards(token) == (expected,), token
    assert parse_cards("a\ufe0f♠ 10\ufe0eH") == (0, 22)  # variation selectors are dropped
    with pytest.raises(CardError, match="Card AS appears twice \\(positions 1 and 3\\)"):
        parse_cards("as 2h As")


@pytest.mark.parametrize("bad", [-1, 52, 3.0, "AS", True, None])
def test_bad_card_ids_are_named(bad: object) -> None:
    with pytest.raises(CardError, match="is not a card"):
        check_card(bad)
    with pytest.raises(CardError):
        format_card(bad)


def test_make_card_checks() -> None:
    with pytest.raises(CardError, match="rank 13 and suit 0"):
        make_card(13, 0)


@given(st.lists(st.sampled_from(DECK), unique=True), st.booleans())
def test_format_parse_round_trip(cards: list[int], symbols: bool) -> None:
    text = format_cards(cards, symbols=symbols)
    assert parse_cards(text) == tuple(cards)
    assert parse_cards(text.lower().replace(" ", ",")) == tuple(cards)
    assert mask_to_cards(cards_to_mask(cards)) == sort_cards(cards)


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("10h", "TH"), ("H10", "TH"), ("h10", "TH"), ("ts", "TS"), ("St", "TS"), ("♠A", "AS"),
        ("♡q", "QH"), ("k♣", "KC"), ("스페이드 A", "AS"), ("스페이드A", "AS"), ("A 스페이드", "AS"),
        ("하트 10", "TH"), ("10하트", "TH"), ("다이아 7", "7D"), ("다이아몬드 7", "7D"),
        ("7다이아몬드", "7D"), ("클럽 K", "KC"), ("클로버 k", "KC"), ("클로버j", "JC"),
        ("H 10", "TH"), ("10 ♥", "TH"), ("♠️A", "AS"),
    ],
)  # fmt: skip
def test_rank_and_suit_in_either_order_with_symbols_and_korean_names(text: str, cards: str) -> None:
    assert format_cards(parse_cards(text)) == cards


def test_a_hand_mixing_every_spelling() -> None:
    text = "AS h2 3♠ 스페이드 4 10 하트 ♥J q♡ 다이아몬드 K 클럽 9 c10"
    assert format_cards(parse_cards(text)) == "AS 2H 3S 4S TH JH QH KD 9C TC"
    assert parse_cards("ks, 다이아 K ,h k") == parse_cards("KS KD KH")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("스페이드", "'스페이드' at position 1"),
        ("AS 하트", "'하트' at position 2"),
        ("스페이드 A 하트", "'하트' at position 2"),
        ("A A", "'A' at position 1"),
        ("S H", "'S' at position 1"),
        ("다이아몬드몬드 7", "'다이아몬드몬드' at position 1"),
        ("H1O", "'H1O' at position 1"),
    ],
)
def test_a_lone_rank_or_suit_is_named(text: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_cards(text)


def test_suit_first_duplicates_are_named() -> None:
    with pytest.raises(CardError, match=r"Card TH appears twice \(positions 1 and 2\)"):
        parse_cards("h10 하트 T")
