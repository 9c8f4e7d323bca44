"""The least-deadwood fast paths of :mod:`engine.deadwood` against brute force, on the hands their
shortcuts serve: one set rank (3 or 4 cards) whose cards may also sit in runs; and their check of
card lists against engine.cards.cards_to_mask."""

from __future__ import annotations

import random
from enum import IntEnum

from engine.cards import cards_to_mask
from engine.deadwood import min_deadwood, min_deadwood_after_discard
from engine.errors import CardError
from tests.engine.helpers import odd_card_lists
from tests.engine.test_properties import brute_min_deadwood


def _hands_around_one_set(count: int) -> list[list[int]]:
    """Hands with a set at one rank, runs of the suits often crossing it, and random filler."""
    rng = random.Random(1211)
    hands = []
    for _ in range(count):
        rank = rng.randrange(13)
        suits = rng.sample(range(4), rng.choice((3, 3, 4)))
        cards = {suit * 13 + rank for suit in suits}
        for suit in rng.sample(suits, rng.randrange(len(suits) + 1)):
            low = rng.randrange(max(0, rank - 2), min(rank, 10) + 1)
            cards.update(suit * 13 + r for r in range(low, low + 3))
        size = rng.randrange(len(cards), max(len(cards), 11) + 1)
        while len(cards) < size:
            cards.add(rng.randrange(52))
        hand = list(cards)
        rng.shuffle(hand)
        hands.append(hand)
    return hands


def test_one_set_rank_is_exact() -> None:
    for hand in _hands_around_one_set(400):
        mask = cards_to_mask(hand)
        expected = brute_min_deadwood(mask)
        assert min_deadwood(hand) == min_deadwood(tuple(hand)) == min_deadwood(mask) == expected
        after = min(brute_min_deadwood(mask ^ 1 << card) for card in hand)
        assert min_deadwood_after_discard(hand) == min_deadwood_after_discard(mask) == after


def test_card_lists_are_checked_as_cards_to_mask_checks_them() -> None:
    class Card(IntEnum):
        ACE = 0
        KING = 51

    for cards in [*odd_card_lists(), [Card.ACE, 1, 2, 14, 27, Card.KING]]:
        try:
            expected: int | str = cards_to_mask(cards)
        except CardError as error:
            expected = str(error)
        for given in (cards, tuple(cards)):
            for fn in (min_deadwood, min_deadwood_after_discard):
                if fn is min_deadwood_after_discard and not cards:
                    continue  # the hand must hold a card
                try:
                    got: int | str = fn(given)
                except CardError as error:
                    got = str(error)
                assert got == (fn(expected) if isinstance(expected, int) else expected), given
