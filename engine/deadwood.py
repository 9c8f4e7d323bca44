"""The least deadwood as a number: the fast paths behind every arrangement (docs/rules.md §2).

With runs alone each suit's best cover is forced (see :mod:`engine.melds`), so the only choices
are the sets. A set is possible only at a rank with 3 or 4 cards in the hand; at such a rank the
hand takes no set, the 4-set, or one of the 3-sets. Two facts keep this tiny:

- a card outside every stretch of 3+ consecutive cards of its suit (:data:`~engine.melds.RUNNABLE`)
  can never be in a run, so a rank whose cards are all like that always takes its whole set
  (anything else leaves one of them as deadwood, and every card is worth at least 1);
- at a rank where some card could be in a run, a 3-set that leaves out a card that could not is
  beaten by the whole set, and so is taking no set when three cards could not.

Most hands with a set have a single rank of exactly three cards: then the only choice is that set
or none, and each is scored with four look-ups in per-rank tables (the suit's deadwood, or discard
gain, with that rank's card taken out). Otherwise every remaining choice is tried, and each is
scored with four table look-ups. Nothing is cached per hand. The set choices of a rank are
precomputed per rank, keyed by the rank's cards (and, for the pruned choices, which of them could
be in a run).

The functions here take a mask or a list (or tuple) of cards. A list is checked as
:func:`engine.cards.cards_to_mask` checks it, by the same fast test inlined (the cards' bits
fetched by one ``itemgetter`` call, no Python-level call a card), but summed into a mask with 16
bits a suit, which one ``struct`` unpack splits into the four suits: in CPython each
operation on a 52-bit mask costs about as much as a dozen table look-ups, so the paths are written
to do as few of them as they can and to read per-suit tables instead.

This module must not build melds or arrangements; :mod:`engine.arrange` does.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Final

from engine.cards import cards_to_mask
from engine.melds import DISCARD_GAIN, RANK_MASKS, RUN_DEADWOOD, RUNNABLE

__all__ = ["min_deadwood", "min_deadwood_after_discard"]

_SUIT: Final = (1 << 13) - 1
_SPREAD: Final = RANK_MASKS[0]
NONE: Final = 1 << 30
"""Larger than any deadwood."""


def _spread(pattern: int, rank: int) -> int:
    """The mask of the cards of ``rank`` in the suits of the 4-bit ``pattern``."""
    return sum(1 << (suit * 13 + rank) for suit in range(4) if pattern >> suit & 1)


def _pruned_options(present: int, runnable: int) -> tuple[int, ...]:
    """The set choices worth trying at a rank (4-bit suit patterns; 0 is "no set").

    ``present`` has 3 or 4 suits; ``runnable`` are those whose card could be in a run.
    """
    fixed = present & ~runnable
    if not runnable:
        return (present,)
    if present.bit_count() == 3:
        return (0, present)
    if fixed.bit_count() == 3:
        return (present, fixed)
    return (0, present, *(present ^ 1 << suit for suit in range(4) if runnable >> suit & 1))


def _build_options() -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]:
    """Set choices by rank: pruned ones keyed by the rank's cards and runnable cards (shifted 52
    bits up); every set (for the discard search) keyed by the rank's cards."""
    pruned: dict[int, tuple[int, ...]] = {}
    every: dict[int, tuple[int, ...]] = {}
    for rank in range(13):
        for present in range(16):
            if present.bit_count() < 3:
                continue
            cards = _spread(present, rank)
            every[cards] = tuple(
                _spread(sub, rank)
                for sub in range(16)
                if sub & present == sub and sub.bit_count() >= 3
            )
            for runnable in range(16):
                if runnable & present == runnable:
                    pruned[cards | _spread(runnable, rank) << 52] = tuple(
                        _spread(option, rank) for option in _pruned_options(present, runnable)
                    )
    return pruned, every


PRUNED_OPTIONS, SET_OPTIONS = _build_options()
"""The set choices of one rank: those worth trying, keyed by the rank's cards plus its runnable
cards shifted 52 bits up (0 is "no set"); and every set, keyed by the rank's cards."""
_DISCARD_OPTIONS: Final = {cards: (0, *options) for cards, options in SET_OPTIONS.items()}
_LOW_TWO: Final = tuple(mask & 3 for mask in range(1 << 13))
"""Per suit mask, its ace and two: a list holding 0 or 1 may hold False or True instead."""
_BROKEN: Final = (NONE, *(2 * min((m & -m).bit_length(), 10) for m in range(1, 1 << 13)))
"""Per 13-bit rank mask, what breaking a 3-set of its lowest rank adds: its two other cards."""

_WIDE_BIT: Final = {card: 1 << (card // 13 * 16 + card % 13) for card in range(52)}
"""The bit of a card in a mask with 16 bits a suit (the card lists' fast path)."""
_SPLIT_WIDE: Final = struct.Struct(">4H").unpack
"""The four suit masks of a 16-bit-a-suit mask's 8 bytes, clubs first."""


def _suits(mask: int) -> tuple[int, int, int, int]:
    """The four 13-bit suit masks of a card mask, spades first."""
    return mask & 8191, mask >> 13 & 8191, mask >> 26 & 8191, mask >> 39


def _without_rank(table: tuple[int, ...]) -> tuple[tuple[int, ...] | None, ...]:
    """Per 13-bit rank mask of one rank, ``table`` by suit mask with that rank taken out of the
    suit; None for the other rank masks."""
    tables: list[tuple[int, ...] | None] = [None] * (1 << 13)
    for rank in range(13):
        size = 1 << rank
        entries: list[int] = []
        for start in range(0, 1 << 13, 2 * size):
            # The masks with the rank's bit read the entries of those without it.
            below = table[start : start + size]
            entries += below
            entries += below
        tables[size] = tuple(entries)
    return tuple(tables)


_WITHOUT_RANK: Final = _without_rank(RUN_DEADWOOD)
_GAIN_WITHOUT_RANK: Final = _without_rank(DISCARD_GAIN)
"""Per 13-bit mask of one rank, :data:`~engine.melds.RUN_DEADWOOD` and
:data:`~engine.melds.DISCARD_GAIN` by suit mask with that rank's card (if any) in a set: with one
3-set in a hand, taking it is four look-ups (None for masks of no rank or several)."""


def list_mask(cards: Iterable[int] | int) -> int:
    """The mask of ``cards``: a mask is returned as it is (unchecked), cards are checked as
    :func:`~engine.cards.cards_to_mask` checks them. The slow path of the functions here."""
    if isinstance(cards, int):
        return cards
    return cards_to_mask(cards)


def min_deadwood(mask: int | Iterable[int]) -> int:
    """The least deadwood of a hand (any size), the fast path behind everything else.

    ``mask`` is a card mask (see :func:`engine.cards.cards_to_mask`), not checked, or the cards
    themselves, checked as :func:`~engine.cards.cards_to_mask` checks them.

    >>> from engine.cards import parse_cards
    >>> hand = parse_cards("AS 2S 3S 4S 5S KS AH QH AD AC")
    >>> min_deadwood(hand), min_deadwood(cards_to_mask(hand))
    (20, 20)
    """
    a: int
    b: int
    c: int
    d: int
    kind = type(mask)
    if kind is int:
        a = mask & 8191  # type: ignore[operator]
        b = mask & 67108863  # type: ignore[operator]
        d = mask >> 26  # type: ignore[operator]
        c = d & 8191
        b >>= 13
        d >>= 13
    elif kind is list or kind is tuple:
        # cards_to_mask's fast path, inline (see there), to a mask with 16 bits a suit that splits
        # in one call; list_mask has the last word on anything it does not settle. (itemgetter
        # fails on no cards or one: 0 then stands for the empty hand, and one card goes slow.)
        cards: Sequence[int] = mask  # type: ignore[assignment]
        try:
            wide = sum(itemgetter(*cards)(_WIDE_BIT))
        except (KeyError, TypeError):
            wide = 0
        if wide.bit_count() == len(cards) and type(sum(cards)) is int:
            d, c, b, a = _SPLIT_WIDE(wide.to_bytes(8))
            low = _LOW_TWO[a]
            if low and not (
                (not low & 1 or type(cards[cards.index(0)]) is int)
                and (not low & 2 or type(cards[cards.index(1)]) is int)
            ):
                a, b, c, d = _suits(list_mask(cards))  # a bool: refused
        else:
            a, b, c, d = _suits(list_mask(cards))
    else:
        a, b, c, d = _suits(list_mask(mask))
    dw = RUN_DEADWOOD
    ab = a & b
    cd = c & d
    if ab or cd:
        if not ab:
            sets = cd & (a | b)
        elif not cd:
            sets = ab & (c | d)
        else:
            sets = ab & (c | d) | cd & (a | b)
        if sets:
            without = _WITHOUT_RANK[sets]
            if without is None or ab & cd:
                return _min_deadwood_sets(a, b, c, d, sets)
            # One 3-set: taken or not.
            value = without[a] + without[b] + without[c] + without[d]
            whole = dw[a] + dw[b] + dw[c] + dw[d]
            return value if value < whole else whole
    return dw[a] + dw[b] + dw[c] + dw[d]


def _min_deadwood_sets(a: int, b: int, c: int, d: int, sets: int) -> int:
    """:func:`min_deadwood` of the suit masks ``a`` to ``d`` with sets at the ranks of ``sets``
    (13-bit): every choice worth trying is scored."""
    dw = RUN_DEADWOOD
    ra = RUNNABLE[a]
    rb = RUNNABLE[b]
    rc = RUNNABLE[c]
    rd = RUNNABLE[d]
    contested = sets & (ra | rb | rc | rd)
    if contested != sets:
        keep = ~(sets ^ contested)
        a &= keep
        b &= keep
        c &= keep
        d &= keep
        if not contested:
            return dw[a] + dw[b] + dw[c] + dw[d]
    runnable = (ra | rb << 13 | rc << 26 | rd << 39) << 52
    full = a | b << 13 | c << 26 | d << 39
    low = contested & -contested
    bits = low * _SPREAD
    combos = PRUNED_OPTIONS[full & bits | runnable & bits << 52]
    contested ^= low
    while contested:
        low = contested & -contested
        bits = low * _SPREAD
        options = PRUNED_OPTIONS[full & bits | runnable & bits << 52]
        combos = tuple([x | o for x in combos for o in options])
        contested ^= low
    best = NONE
    for removed in combos:
        m = full ^ removed
        value = dw[m & 8191] + dw[m >> 13 & 8191] + dw[m >> 26 & 8191] + dw[m >> 39]
        if value < best:
            best = value
    return best


def min_deadwood_after_discard(mask: int | Iterable[int]) -> int:
    """The least deadwood left after discarding one card of a hand: the fast path of
    :func:`engine.discard.best_discard` when only the number is wanted. Exact for every hand.

    ``mask`` is a card mask, not checked, or the cards, checked as :func:`min_deadwood` checks
    them; the hand must hold at least one card.

    >>> from engine.cards import parse_cards
    >>> min_deadwood_after_discard(parse_cards("3S 4S 5S 6S 4H 4D 5D 2C 3C 4C 5C"))
    3
    """
    a: int
    b: int
    c: int
    d: int
    kind = type(mask)
    if kind is int:
        a = mask & 8191  # type: ignore[operator]
        b = mask & 67108863  # type: ignore[operator]
        d = mask >> 26  # type: ignore[operator]
        c = d & 8191
        b >>= 13
        d >>= 13
    elif kind is list or kind is tuple:
        # cards_to_mask's fast path, inline (see there), to a mask with 16 bits a suit that splits
        # in one call; list_mask has the last word on anything it does not settle. (itemgetter
        # fails on no cards or one: 0 then stands for the empty hand, and one card goes slow.)
        cards: Sequence[int] = mask  # type: ignore[assignment]
        try:
            wide = sum(itemgetter(*cards)(_WIDE_BIT))
        except (KeyError, TypeError):
            wide = 0
        if wide.bit_count() == len(cards) and type(sum(cards)) is int:
            d, c, b, a = _SPLIT_WIDE(wide.to_bytes(8))
            low = _LOW_TWO[a]
            if low and not (
                (not low & 1 or type(cards[cards.index(0)]) is int)
                and (not low & 2 or type(cards[cards.index(1)]) is int)
            ):
                a, b, c, d = _suits(list_mask(cards))  # a bool: refused
        else:
            a, b, c, d = _suits(list_mask(cards))
    else:
        a, b, c, d = _suits(list_mask(mask))
    dw = RUN_DEADWOOD
    gain = DISCARD_GAIN
    g = gain[a]
    x = gain[b]
    if x > g:
        g = x
    x = gain[c]
    if x > g:
        g = x
    x = gain[d]
    if x > g:
        g = x
    ab = a & b
    cd = c & d
    if ab or cd:
        if not ab:
            sets = cd & (a | b)
        elif not cd:
            sets = ab & (c | d)
        else:
            sets = ab & (c | d) | cd & (a | b)
        if sets:
            without = _WITHOUT_RANK[sets]
            if without is None or ab & cd:
                return _after_discard_sets(a, b, c, d, sets)
            # One 3-set: without it, or with it and a discard from the rest (if there is one).
            best = dw[a] + dw[b] + dw[c] + dw[d] - g
            gain = _GAIN_WITHOUT_RANK[sets]  # type: ignore[assignment]
            g = gain[a]
            x = gain[b]
            if x > g:
                g = x
            x = gain[c]
            if x > g:
                g = x
            x = gain[d]
            if x > g:
                g = x
            value = without[a] + without[b] + without[c] + without[d] - g
            return value if value < best else best
    return dw[a] + dw[b] + dw[c] + dw[d] - g


def _after_discard_sets(a: int, b: int, c: int, d: int, sets: int) -> int:
    """:func:`min_deadwood_after_discard` of the suit masks ``a`` to ``d`` with sets at the ranks
    of ``sets`` (13-bit)."""
    mask = a | b << 13 | c << 26 | d << 39
    dw = RUN_DEADWOOD
    gain = DISCARD_GAIN
    ra = RUNNABLE[a]
    rb = RUNNABLE[b]
    rc = RUNNABLE[c]
    rd = RUNNABLE[d]
    contested = sets & (ra | rb | rc | rd)
    if not contested:
        # Every set is taken whole: discard from the rest, or give up a card of a set (a 4-set
        # stays a set; a 3-set breaks, the lowest costing least).
        whole = _BROKEN[sets]
        if a & b & c & d:
            whole = 0
        keep = ~sets
        a &= keep
        b &= keep
        c &= keep
        d &= keep
        base = dw[a] + dw[b] + dw[c] + dw[d]
        g = gain[a]
        x = gain[b]
        if x > g:
            g = x
        x = gain[c]
        if x > g:
            g = x
        x = gain[d]
        if x > g:
            g = x
        if whole < -g:
            return base + whole
        return base - g
    free = sets ^ contested
    # Giving up a card of a free set: a 4-set stays a set; a 3-set breaks (the lowest costs least).
    broken = 0 if free & a & b & c & d else _BROKEN[free]
    rest = mask & ~(free * _SPREAD)
    low = contested & -contested
    combos: Iterable[int] = _DISCARD_OPTIONS[mask & low * _SPREAD]
    contested ^= low
    while contested:
        low = contested & -contested
        options = _DISCARD_OPTIONS[mask & low * _SPREAD]
        combos = [x | o for x in combos for o in options]
        contested ^= low
    best = whole = NONE
    for removed in combos:
        m = rest ^ removed
        a = m & 8191
        b = m >> 13 & 8191
        c = m >> 26 & 8191
        d = m >> 39
        base = dw[a] + dw[b] + dw[c] + dw[d]
        if base < whole:
            whole = base
        g = gain[a]
        x = gain[b]
        if x > g:
            g = x
        x = gain[c]
        if x > g:
            g = x
        x = gain[d]
        if x > g:
            g = x
        if base - g < best:
            best = base - g
    if whole + broken < best:
        return whole + broken
    return best
