"""The best discard: the exact least deadwood after each possible discard (docs/rules.md §2).

It scores every discard against every choice of sets that :func:`engine.arrange.plan_melds` lists
for the whole hand (with ``discard`` set, every set of a contested rank is a candidate, so the
choices also cover the hand less any one card), with the same per-suit tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.arrange import extra_melds_in, hand_mask, plan_melds
from engine.cards import card_value, format_cards, mask_to_cards
from engine.deadwood import NONE
from engine.errors import CardError, gettext_noop
from engine.melds import RUN_DEADWOOD, Meld

__all__ = ["DiscardResult", "best_discard"]

_SUIT: Final = (1 << 13) - 1


@dataclass(frozen=True, slots=True)
class DiscardResult:
    """What each possible discard from a hand of 11 (or 12) cards leaves.

    ``after_discard`` pairs every card, in the order given, with the least deadwood of the hand
    without it; ``big_gin`` is true when all the cards meld with no discard.

    >>> from engine.cards import parse_cards
    >>> result = best_discard(parse_cards("AS 2S 3S 4S KS 8H 8D 9D KD 8C KC"))
    >>> result.deadwood_no_discard, format_cards(result.best_discards), result.can_gin
    (9, '9D', True)
    >>> format_cards(result.legal_knock_discards())
    'AS 4S 9D'
    """

    deadwood_no_discard: int
    after_discard: tuple[tuple[int, int], ...]
    best_discards: tuple[int, ...]
    deadwood_after_best_discard: int

    def deadwood_after(self, card: int) -> int:
        """The least deadwood after discarding ``card``."""
        for held, deadwood in self.after_discard:
            if held == card:
                return deadwood
        raise CardError(gettext_noop("Card {card} is not in the hand"), card=format_cards((card,)))

    def legal_knock_discards(self, knock_limit: int = 10) -> tuple[int, ...]:
        """The discards that leave at most ``knock_limit`` deadwood, in the order given."""
        return tuple(card for card, deadwood in self.after_discard if deadwood <= knock_limit)

    def gin_discards(self) -> tuple[int, ...]:
        """The discards that leave no deadwood (gin)."""
        return self.legal_knock_discards(0)

    def can_knock(self, knock_limit: int = 10) -> bool:
        """True when some discard leaves at most ``knock_limit`` deadwood."""
        return self.deadwood_after_best_discard <= knock_limit

    @property
    def big_gin(self) -> bool:
        """True when all the cards meld with no discard."""
        return self.deadwood_no_discard == 0

    @property
    def can_gin(self) -> bool:
        """True when some discard leaves no deadwood."""
        return self.deadwood_after_best_discard == 0


def best_discard(cards: Sequence[int] | int, *, extra_melds: Sequence[Meld] = ()) -> DiscardResult:
    """The exact least deadwood after each possible discard from ``cards`` (cards or a mask).

    Unlike a shortcut that only tries discarding deadwood of one best arrangement, every discard
    is scored against every arrangement of the hand without that card.

    >>> from engine.cards import parse_cards
    >>> result = best_discard(parse_cards("3S 4S 5S 6S 4H 4D 5D 2C 3C 4C 5C"))
    >>> result.deadwood_no_discard, format_cards(result.best_discards), result.big_gin
    (9, '6S', False)
    """
    mask = hand_mask(cards)
    if not mask:
        raise CardError(gettext_noop("Expected at least 1 card to discard, got 0"))
    order = mask_to_cards(mask) if isinstance(cards, int) else tuple(cards)
    extra = tuple(extra_melds_in(mask, extra_melds))
    forced, choices = plan_melds(mask, extra, discard=True)
    rest0 = mask ^ sum(forced)
    after: dict[int, int] = {}
    whole = NONE
    for used, _ in choices:
        rest = rest0 ^ used
        suits = (rest & _SUIT, rest >> 13 & _SUIT, rest >> 26 & _SUIT, rest >> 39)
        base = RUN_DEADWOOD[suits[0]] + RUN_DEADWOOD[suits[1]] + RUN_DEADWOOD[suits[2]]
        base += RUN_DEADWOOD[suits[3]]
        whole = min(whole, base)
        for suit, suit_mask in enumerate(suits):
            others = base - RUN_DEADWOOD[suit_mask]
            bits = suit_mask
            while bits:
                low = bits & -bits
                bits ^= low
                card = 13 * suit + low.bit_length() - 1
                value = others + RUN_DEADWOOD[suit_mask ^ low]
                if value < after.get(card, NONE):
                    after[card] = value
    for set_mask in forced:
        # Cards that can only meld in their own set: a 4-set stays a set without one of them;
        # a 3-set breaks, and its other two cards join the deadwood.
        cards_of_set = mask_to_cards(set_mask)
        broken = 0 if len(cards_of_set) == 4 else 2 * card_value(cards_of_set[0])
        for card in cards_of_set:
            after[card] = whole + broken
    least = min(after.values())
    return DiscardResult(
        deadwood_no_discard=whole,
        after_discard=tuple((card, after[card]) for card in order),
        best_discards=tuple(card for card in order if after[card] == least),
        deadwood_after_best_discard=least,
    )
