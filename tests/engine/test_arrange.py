"""Best arrangements, ties and discards (docs/rules.md §2)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

from engine.arrange import (
    MAX_HAND,
    Arrangement,
    all_best_arrangements,
    best_arrangement,
    hand_mask,
    min_deadwood,
    min_deadwood_after_discard,
)
from engine.cards import cards_to_mask, format_cards, parse_card, parse_cards
from engine.discard import best_discard
from engine.errors import CardError
from engine.melds import Meld, MeldKind


def melds_of(arrangement: Arrangement) -> set[str]:
    return {str(meld) for meld in arrangement.melds}


def test_empty_and_tiny_hands() -> None:
    assert best_arrangement(()) == Arrangement((), (), 0)
    assert best_arrangement(0).is_gin
    assert str(best_arrangement(())) == "gin"
    assert best_arrangement(parse_cards("KS")).deadwood == 10
    assert min_deadwood(0) == 0
    assert all_best_arrangements(()) == (Arrangement((), (), 0),)


def test_mask_and_sequence_agree() -> None:
    hand = parse_cards("AS 2S 3S 4S 5S KS AH QH AD AC")
    assert best_arrangement(hand) == best_arrangement(cards_to_mask(hand))
    assert best_arrangement(hand).melded_cards == parse_cards("AS 2S 3S 4S 5S AH AD AC")


def test_hand_checks() -> None:
    with pytest.raises(CardError, match="Card AS appears twice"):
        best_arrangement([0, 0])
    with pytest.raises(CardError, match="not a card mask"):
        best_arrangement(1 << 52)
    with pytest.raises(CardError, match="not a card mask"):
        hand_mask(True)
    with pytest.raises(CardError, match=f"at most {MAX_HAND} cards, got 14"):
        best_arrangement(tuple(range(14)))
    with pytest.raises(CardError, match="at least 1 card"):
        best_discard(())
    assert hand_mask(range(13)) == (1 << 13) - 1


def test_thirteen_card_hand_with_four_set_ranks() -> None:
    hand = parse_cards("AS AH AD 2S 2H 2D 3S 3H 3D 4S 4H 4D 4C")
    assert best_arrangement(hand).deadwood == 0
    assert min_deadwood(cards_to_mask(hand)) == 0
    assert len(all_best_arrangements(hand)) > 2


def test_four_set_against_set_and_run() -> None:
    # 7S can make a run with 5S 6S; the 4-set and 3-set + run are both considered.
    hand = parse_cards("5S 6S 7S 7H 7D 7C")
    assert melds_of(best_arrangement(hand)) == {"5S 6S 7S", "7H 7D 7C"}
    hand = parse_cards("7S 7H 7D 7C 8S 9S 8H 9H")  # two runs through 7S and 7H
    assert best_arrangement(hand).deadwood == 14  # 7D 7C left; the 4-set would leave 34


def test_ties_are_all_listed() -> None:
    hand = parse_cards("AS 2S 3S AH 2H 3H AD 2D 3D QC")
    arrangements = all_best_arrangements(hand)
    assert {frozenset(melds_of(a)) for a in arrangements} == {
        frozenset({"AS 2S 3S", "AH 2H 3H", "AD 2D 3D"}),
        frozenset({"AS AH AD", "2S 2H 2D", "3S 3H 3D"}),
    }
    assert best_arrangement(hand) == arrangements[0]


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        (
            "3S 4S 5S 6S 7S 4H 6H 3D 6D 4C 8C",
            [
                "4S 4H 4C | 5S 6S 7S | deadwood 3S 6H 3D 6D 8C (26)",
                "3S 4S 5S | 6S 6H 6D | deadwood 7S 4H 3D 4C 8C (26)",
                "4S 4H 4C | 6S 6H 6D | deadwood 3S 5S 7S 3D 8C (26)",
            ],
        ),
        (
            "3S 5S 6S 7S 8S 9S 6H 8H 6C 8C",
            [
                "6S 6H 6C | 7S 8S 9S | deadwood 3S 5S 8H 8C (24)",
                "5S 6S 7S | 8S 8H 8C | deadwood 3S 9S 6H 6C (24)",
                "6S 6H 6C | 8S 8H 8C | deadwood 3S 5S 7S 9S (24)",
            ],
        ),
    ],
)
def test_ties_come_in_the_general_search_order(hand: str, expected: list[str]) -> None:
    """Ties between sets at two ranks: the lower rank's set first, as the general search (the
    one that runs with extra melds) lists them; the knocker's choice takes the first on a tie."""
    cards = parse_cards(hand)
    assert [str(a) for a in all_best_arrangements(cards)] == expected
    assert str(best_arrangement(cards)) == expected[0]
    outside = [Meld(MeldKind.VAULT, parse_cards("QS QH QD QC"))]  # in neither hand
    assert all_best_arrangements(cards, extra_melds=outside) == all_best_arrangements(cards)


def test_ties_between_four_set_and_set_plus_run() -> None:
    # 7S in 7-8-9S or in the 4-set; 9S 8S otherwise dead: only the run uses them.
    hand = parse_cards("7S 7H 7D 7C 5H 6H")
    found = {frozenset(melds_of(a)) for a in all_best_arrangements(hand)}
    assert found == {frozenset({"5H 6H 7H", "7S 7D 7C"})}
    # A 4-set of free cards with a run needing one of them: the run and a 3-set, or no run.
    hand = parse_cards("KS KH KD KC JS QS")
    found = {frozenset(melds_of(a)) for a in all_best_arrangements(hand)}
    assert found == {frozenset({"JS QS KS", "KH KD KC"})}


def test_extra_melds_join_the_search() -> None:
    hand = parse_cards("AS 7H 9D KC 2S 3H QD 4D 5C 8C")
    plain = best_arrangement(hand)
    assert plain.deadwood == 59
    assert not plain.melds
    vault = Meld(MeldKind.VAULT, parse_cards("AS 7H 9D KC"))
    queens = Meld(MeldKind.QUEENS_DIAMOND, parse_cards("QD 4D"))
    outside = Meld(MeldKind.VAULT, parse_cards("AH 7S 9C KD"))
    with_extra = best_arrangement(hand, extra_melds=[vault, queens, outside])
    assert melds_of(with_extra) == {str(vault), str(queens)}
    assert with_extra.deadwood == 59 - 27 - 14
    assert all_best_arrangements(hand, extra_melds=[vault, queens])[0] == with_extra


def test_extra_melds_compete_with_sets() -> None:
    hand = parse_cards("5S 5H 5D KS JH 2C")
    vault = Meld(MeldKind.VAULT, parse_cards("5S KS JH 2C"))
    best = best_arrangement(hand, extra_melds=[vault])
    assert melds_of(best) == {str(vault)}
    assert best.deadwood == 10
    after = best_discard(hand, extra_melds=[vault])
    assert after.deadwood_after_best_discard == 5  # discard 5H: vault + 5D left
    assert set(after.best_discards) == set(parse_cards("5H 5D"))


def test_discard_shortcut_cases() -> None:
    # OpenSpiel's own test hand: the best discard is 6S, leaving 3.
    hand = parse_cards("3S 4S 5S 6S 4H 4D 5D 2C 3C 4C 5C")
    result = best_discard(hand)
    assert result.deadwood_after_best_discard == 3
    assert result.best_discards == (parse_card("6S"),)
    assert result.deadwood_after(parse_card("6S")) == 3
    assert set(result.legal_knock_discards()) == set(parse_cards("3S 6S 4H 4D 5D 5C"))
    assert result.can_knock()
    assert not result.can_knock(2)
    assert not result.can_gin
    assert result.gin_discards() == ()
    with pytest.raises(CardError, match="KS is not in the hand"):
        result.deadwood_after(parse_card("KS"))


def test_big_gin_and_discards_from_sets() -> None:
    hand = parse_cards("5S TS JS QS KS 5H 9H 5D 9D 5C 9C")
    result = best_discard(hand)
    assert result.big_gin
    assert result.deadwood_no_discard == 0
    assert set(result.gin_discards()) == set(parse_cards("5S TS KS 5H 5D 5C"))
    assert result.deadwood_after(parse_card("9H")) == 18  # breaks the 9-set
    assert min_deadwood_after_discard(cards_to_mask(hand)) == 0


def test_discard_breaking_a_free_three_set_can_be_best() -> None:
    # 12 cards in four sets nobody can run: every discard breaks a set; breaking the 2s is best.
    hand = parse_cards("2S 2H 2D KS KH KD QS QH QD 9S 9H 9D")
    result = best_discard(hand)
    assert result.big_gin
    assert result.deadwood_after_best_discard == 4
    assert set(result.best_discards) == set(parse_cards("2S 2H 2D"))
    assert min_deadwood_after_discard(cards_to_mask(hand)) == 4
    hand = parse_cards("2S 2H 2D 2C KS KH KD QS QH QD 9S")  # a free 4-set gives a card up
    assert min_deadwood_after_discard(cards_to_mask(hand)) == 0
    assert best_discard(hand).deadwood_after(parse_card("2S")) == 9


def test_best_discard_keeps_input_order() -> None:
    hand = parse_cards("KC AS 2S 3S 4S 9D")
    result = best_discard(hand)
    assert tuple(card for card, _ in result.after_discard) == hand
    by_mask = best_discard(cards_to_mask(hand))
    assert dict(by_mask.after_discard) == dict(result.after_discard)
    assert format_cards(result.best_discards) == "KC"


def _random_hands(count: int) -> list[list[int]]:
    """Random hands of 0-13 cards, every other one rich in sets, each in a random order."""
    rng = random.Random(12)
    hands = []
    for index in range(count):
        size = rng.randrange(MAX_HAND + 1)
        if index % 2:
            ranks = rng.sample(range(13), 4)
            pool = [suit * 13 + rank for rank in ranks for suit in range(4) if rng.random() < 0.8]
            cards = rng.sample(pool, min(size, len(pool)))
            cards += rng.sample(
                [card for card in range(52) if card not in cards], size - len(cards)
            )
        else:
            cards = rng.sample(range(52), size)
        hands.append(cards)
    return hands


def test_search_result_is_the_first_of_all_best_arrangements() -> None:
    # best_arrangement builds its fields only when one is read, from two masks; the general
    # path builds them at once. Read in any order, they agree in every way a caller can see.
    fields = ("melds", "deadwood_cards", "deadwood")
    for index, cards in enumerate(_random_hands(3000)):
        first = all_best_arrangements(cards)[0]
        given = (cards, tuple(cards), cards_to_mask(cards))[index % 3]
        arrangement = best_arrangement(given)
        read = fields[index % 3]
        assert getattr(arrangement, read) == getattr(first, read)
        assert arrangement == first
        assert best_arrangement(given) == first  # equality reads an unread result too
        assert hash(best_arrangement(given)) == hash(first)
        assert repr(best_arrangement(given)) == repr(first)
        assert str(best_arrangement(given)) == str(first)
        assert best_arrangement(given).melded_cards == first.melded_cards
        assert best_arrangement(given).is_gin == first.is_gin


def test_search_result_copies_pickles_and_stays_frozen() -> None:
    hand = parse_cards("AS 2S 3S 4S 5S KS AH QH AD AC")
    built = all_best_arrangements(hand)[0]
    assert pickle.loads(pickle.dumps(best_arrangement(hand))) == built
    assert copy.copy(best_arrangement(hand)) == built
    assert copy.deepcopy(best_arrangement(hand)) == built
    assert dataclasses.asdict(best_arrangement(hand)) == dataclasses.asdict(built)
    assert [field.name for field in dataclasses.fields(best_arrangement(hand))] == [
        "melds",
        "deadwood_cards",
        "deadwood",
    ]
    assert dataclasses.replace(best_arrangement(hand), deadwood=0) == Arrangement(
        built.melds, built.deadwood_cards, 0
    )
    unread = best_arrangement(hand)
    with pytest.raises(dataclasses.FrozenInstanceError):
        unread.deadwood = 0  # type: ignore[misc]
    misspelt = "deadwod"
    with pytest.raises(AttributeError, match="no attribute 'deadwod'"):
        getattr(unread, misspelt)
    assert unread.deadwood == 20
    # all_best_arrangements builds each result in a same-layout draft that becomes the class.
    assert type(built) is Arrangement
    assert built == Arrangement(built.melds, built.deadwood_cards, built.deadwood)
    assert pickle.loads(pickle.dumps(built)) == built
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.melds = ()  # type: ignore[misc]


@pytest.mark.parametrize(
    "cards",
    [
        [0, 0],
        [True, 2, 3],
        [1, False, 5],
        [0.0, 1, 2],
        [3, 4.0],
        [52],
        [-1, 2],
        ["AS"],
        [None],
        list(range(14)),
        tuple(range(14)),
        (True,),
    ],
)
def test_list_and_tuple_hands_are_checked_as_hand_mask_checks_them(cards: list[int]) -> None:
    with pytest.raises(CardError) as expected:
        hand_mask(cards)
    with pytest.raises(CardError) as got:
        best_arrangement(cards)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize(
    "cards",
    [[0, 0], [True, 2, 3], [1, False, 5], [0.0, 1, 2], [3, 4.0], [52], [-1, 2], ["AS"], [None]],
)
def test_the_least_deadwood_checks_a_card_list_as_cards_to_mask_does(cards: list[int]) -> None:
    from engine.arrange import min_deadwood, min_deadwood_after_discard
    from engine.cards import cards_to_mask

    with pytest.raises(CardError) as expected:
        cards_to_mask(cards)
    for fn in (min_deadwood, min_deadwood_after_discard):
        for given in (cards, tuple(cards)):
            with pytest.raises(CardError) as got:
                fn(given)
            assert str(got.value) == str(expected.value)


def test_the_least_deadwood_of_a_card_list_is_that_of_its_mask() -> None:
    import random

    from engine.arrange import min_deadwood, min_deadwood_after_discard
    from engine.cards import cards_to_mask

    rng = random.Random(12)
    for size in [*range(1, 14), 10, 10, 11, 11] * 40:
        cards = rng.sample(range(52), size)
        mask = cards_to_mask(cards)
        assert min_deadwood(cards) == min_deadwood(tuple(cards)) == min_deadwood(mask)
        assert min_deadwood_after_discard(cards) == min_deadwood_after_discard(mask)


def test_every_odd_card_list_is_arranged_or_refused_as_hand_mask_reads_it() -> None:
    """best_arrangement's inline check of a list (one itemgetter call over the cards' bits)
    agrees with hand_mask on every kind of number equal to a card, bools, ints out of range,
    repeats, and lists of no card or one."""
    from enum import IntEnum

    from tests.engine.helpers import odd_card_lists

    class Card(IntEnum):
        ACE = 0
        KING = 51

    for cards in [*odd_card_lists(), [Card.ACE, 1, 2, 14, 27, Card.KING], [0, 1], [1, 0, 2]]:
        try:
            expected: Arrangement | str = best_arrangement(hand_mask(cards))
        except CardError as error:
            expected = str(error)
        for given in (cards, tuple(cards)):
            try:
                got: Arrangement | str = best_arrangement(given)
            except CardError as error:
                got = str(error)
            assert got == expected, given
