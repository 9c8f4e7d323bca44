"""Melds, the full-deck meld table and the per-suit tables (docs/rules.md §2, §8)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.cards import card_value, mask_to_cards, parse_cards
from engine.errors import CardError, MeldError
from engine.melds import (
    ALL_MELDS,
    DISCARD_GAIN,
    MELD_BY_MASK,
    NO_CARD,
    RANK_MASKS,
    RUN_DEADWOOD,
    RUNNABLE,
    SUIT_DEADWOOD_CARDS,
    SUIT_MASKS,
    SUIT_RUN_MELDS,
    Meld,
    MeldKind,
    suit_runs,
)


def test_full_deck_has_329_melds() -> None:
    kinds = Counter(meld.kind for meld in ALL_MELDS)
    assert len(ALL_MELDS) == 329
    assert kinds == {MeldKind.RUN: 264, MeldKind.SET: 65}
    assert len(MELD_BY_MASK) == 329
    assert Counter(len(m.cards) for m in ALL_MELDS if m.kind is MeldKind.SET) == {3: 52, 4: 13}
    assert Counter(len(m.cards) for m in ALL_MELDS if m.kind is MeldKind.RUN)[13] == 4


def test_full_deck_melds_equal_a_brute_force_count() -> None:
    expected = set()
    for suit in range(4):
        for low in range(13):
            for high in range(low + 2, 13):
                expected.add(sum(1 << (suit * 13 + rank) for rank in range(low, high + 1)))
    for rank_mask in RANK_MASKS:
        cards = mask_to_cards(rank_mask)
        expected.add(rank_mask)
        expected.update(rank_mask ^ (1 << card) for card in cards)
    assert set(MELD_BY_MASK) == expected


@pytest.mark.parametrize(
    ("text", "kind", "canonical", "value"),
    [
        ("AS 2S 3S", MeldKind.RUN, "AS 2S 3S", 6),
        ("3s as 2s", MeldKind.RUN, "AS 2S 3S", 6),
        ("JD QD KD TD 9D", MeldKind.RUN, "9D TD JD QD KD", 49),
        ("7C 7H 7S", MeldKind.SET, "7S 7H 7C", 21),
        ("KC KD KH KS", MeldKind.SET, "KS KH KD KC", 40),
    ],
)
def test_parse_legal_melds(text: str, kind: MeldKind, canonical: str, value: int) -> None:
    meld = Meld.parse(text)
    assert meld.kind is kind
    assert str(meld) == canonical
    assert meld.value == value
    assert meld.mask == sum(1 << card for card in meld.cards)
    assert Meld.parse(str(meld)) == meld


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("QS KS AS", r"2S is missing between AS QS"),
        ("KS AS 2S", r"3S is missing between 2S KS"),
        ("AS 2S", r"not a set \(3 or 4 cards needed, not 2\), not a run \(3 or more cards"),
        ("AS 2H 3S", r"not a set \(ranks differ\), not a run \(suits differ\)"),
        ("5S 5H 5D 5C 6C", r"not a set \(3 or 4 cards needed, not 5\)"),
        ("4S 5S 7S", r"6S is missing between 5S 7S"),
    ],
)
def test_illegal_melds_say_why(text: str, reason: str) -> None:
    with pytest.raises(MeldError, match=reason):
        Meld.parse(text)


def test_meld_constructor_checks_shape() -> None:
    assert Meld(MeldKind.RUN, (2, 0, 1)).cards == (0, 1, 2)
    with pytest.raises(MeldError, match="AS 2S 3S is not a set: ranks differ"):
        Meld(MeldKind.SET, (0, 1, 2))
    with pytest.raises(MeldError, match="not a run: suits differ"):
        Meld(MeldKind.RUN, parse_cards("AS AH AD"))
    with pytest.raises(MeldError, match="a card appears twice"):
        Meld(MeldKind.SET, (0, 0, 13))
    with pytest.raises(CardError, match="52 is not a card"):
        Meld(MeldKind.SET, (0, 13, 52))
    with pytest.raises(CardError, match="Card AS appears twice"):
        Meld.from_cards((0, 0, 13))


def test_gem_kinds_are_checked_for_shape() -> None:
    vault = Meld(MeldKind.VAULT, parse_cards("AS 7H 9D KC"))
    assert vault.value == 27
    with pytest.raises(MeldError, match="4 or more cards needed, not 3"):
        Meld(MeldKind.VAULT, parse_cards("AS 7H 9D"))
    queens = Meld(MeldKind.QUEENS_DIAMOND, parse_cards("QD 4D"))
    assert str(queens) == "4D QD"
    for bad in ("QD 4H", "QH 4H", "QD 4D 5D"):
        with pytest.raises(MeldError, match="QD and one other diamond needed"):
            Meld(MeldKind.QUEENS_DIAMOND, parse_cards(bad))


def test_masks_tables() -> None:
    assert mask_to_cards(RANK_MASKS[0]) == (0, 13, 26, 39)
    assert mask_to_cards(SUIT_MASKS[3]) == tuple(range(39, 52))


def _suit_value(mask: int) -> int:
    return sum(card_value(rank) for rank in range(13) if mask >> rank & 1)


def test_suit_tables_against_plain_definitions() -> None:
    for mask in range(1 << 13):
        runs = suit_runs(mask)
        covered = sum(runs)
        assert RUNNABLE[mask] == covered
        assert RUN_DEADWOOD[mask] == _suit_value(mask) - _suit_value(covered)
        for run in runs:
            assert run.bit_count() >= 3
            assert run >> (run & -run).bit_length() - 1 == (1 << run.bit_count()) - 1
        if mask:
            gains = [
                RUN_DEADWOOD[mask] - RUN_DEADWOOD[mask ^ 1 << r] for r in range(13) if mask >> r & 1
            ]
            assert DISCARD_GAIN[mask] == max(gains)
    assert DISCARD_GAIN[0] == NO_CARD
    assert suit_runs(0b1_1111_1111_1111) == (0b1_1111_1111_1111,)
    assert suit_runs(0b110_1101_1011) == ()


def test_suit_result_tables_against_plain_definitions() -> None:
    """Each suit's run melds and leftover cards are its best run cover, suit by suit."""
    for suit in range(4):
        shift = 13 * suit
        for mask in range(1 << 13):
            runs = SUIT_RUN_MELDS[suit][mask]
            assert [meld.mask >> shift for meld in runs] == list(suit_runs(mask))
            assert all(meld.kind is MeldKind.RUN for meld in runs)
            left = (mask & ~RUNNABLE[mask]) << shift
            assert SUIT_DEADWOOD_CARDS[suit][mask] == mask_to_cards(left)
