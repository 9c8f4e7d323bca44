"""The least-deadwood fast paths of :mod:`engine.deadwood` against brute force, on the hands their
shortcuts serve: one set rank (3 or 4 cards) whose cards may also sit in runs."""

from __future__ import annotations

import random

from engine.cards import cards_to_mask
from engine.deadwood import min_deadwood, min_deadwood_after_discard
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
