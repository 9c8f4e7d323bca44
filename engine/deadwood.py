"""The least deadwood as a number: the fast paths behind every arrangement (docs/rules.md §2).

With runs alone each suit's best cover is forced (see :mod:`engine.melds`), so the only choices
are the sets. A set is possible only at a rank with 3 or 4 cards in the hand; at such a rank the
hand takes no set, the 4-set, or one of the 3-sets. Two facts keep this tiny:

- a card outside every stretch of 3+ consecutive cards of its suit (:data:`~engine.melds.RUNNABLE`)
  can never be in a run, so a rank whose cards are all like that always takes its whole set
  (anything else leaves one of them as deadwood, and every card is worth at least 1);
- at a rank where some card could be in a run, a 3-set that leaves out a card that could not is
  beaten by the whole set, and so is taking no set when three cards could not.

Every remaining choice is tried, and each is scored with four table look-ups. Nothing is cached
per hand. The set choices of a rank are precomputed per rank, keyed by the rank's cards (and, for
the pruned choices, which of them could be in a run).

The functions here take a mask or a list (or tuple) of cards. A list is checked as
:func:`engine.cards.cards_to_mask` checks it, by the same fast test inlined: in CPython each
operation on a 52-bit mask costs about as much as a dozen table look-ups, so the paths are written
to do as few of them as they can and to read per-suit tables instead.

This module must not build melds or arrangements; :mod:`engine.arrange` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from engine.cards import _BIT_OF, cards_to_mask
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


def list_mask(cards: Iterable[int] | int) -> int:
    """The mask of ``cards``: a mask is returned as it is (unchecked), cards are checked as
    :func:`~engine.cards.cards_to_mask` checks them. The slow path of the functions here."""
    if isinstance(cards, int):
        return cards
    return cards_to_mask(cards)


def _no_bool(cards: Sequence[int], low: int) -> bool:
    """True unless ``cards`` (distinct, each equal to a card) holds False or True where the
    1-bit or 2-bit of ``low`` says it holds 0 or 1."""
    return (not low & 1 or type(cards[cards.index(0)]) is int) and (
        not low & 2 or type(cards[cards.index(1)]) is int
    )


def _checked_mask(cards: Iterable[int]) -> int:
    """The mask of a card list or tuple, checked as :func:`~engine.cards.cards_to_mask` checks it:
    its fast path inline, and ``list_mask`` (the last word) on anything it does not settle."""
    mask = -1
    if type(cards) is list or type(cards) is tuple:
        try:  # noqa: SIM105 (faster than contextlib.suppress)
            mask = sum(map(_BIT_OF, cards))
        except (KeyError, TypeError):
            pass
    if mask < 0 or not (
        mask.bit_count() == len(cards)  # type: ignore[arg-type]
        and type(sum(cards)) is int
        and (not _LOW_TWO[mask & 8191] or _no_bool(cards, mask & 8191))  # type: ignore[arg-type]
    ):
        return list_mask(cards)
    return mask


def min_deadwood(mask: int | Iterable[int]) -> int:
    """The least deadwood of a hand (any size), the fast path behind everything else.

    ``mask`` is a card mask (see :func:`engine.cards.cards_to_mask`), not checked, or the cards
    themselves, checked as :func:`~engine.cards.cards_to_mask` checks them.

    >>> from engine.cards import parse_cards
    >>> hand = parse_cards("AS 2S 3S 4S 5S KS AH QH AD AC")
    >>> min_deadwood(hand), min_deadwood(cards_to_mask(hand))
    (20, 20)
    """
    if type(mask) is int:
        a = mask & 8191
        b = mask >> 13 & 8191
        c = mask >> 26 & 8191
        d = mask >> 39
    else:
        mask = _checked_mask(mask)  # type: ignore[arg-type]
        a = mask & 8191
        b = mask >> 13 & 8191
        c = mask >> 26 & 8191
        d = mask >> 39
    dw = RUN_DEADWOOD
    sets = a & b & (c | d) | c & d & (a | b)
    if not sets:
        return dw[a] + dw[b] + dw[c] + dw[d]
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
    :func:`engine.arrange.best_discard` when only the number is wanted. Exact for every hand.

    ``mask`` is a card mask, not checked, or the cards, checked as :func:`min_deadwood` checks
    them; the hand must hold at least one card.

    >>> from engine.cards import parse_cards
    >>> min_deadwood_after_discard(parse_cards("3S 4S 5S 6S 4H 4D 5D 2C 3C 4C 5C"))
    3
    """
    if type(mask) is int:
        a = mask & 8191
        b = mask >> 13 & 8191
        c = mask >> 26 & 8191
        d = mask >> 39
    else:
        mask = _checked_mask(mask)  # type: ignore[arg-type]
        a = mask & 8191
        b = mask >> 13 & 8191
        c = mask >> 26 & 8191
        d = mask >> 39
    dw = RUN_DEADWOOD
    gain = DISCARD_GAIN
    sets = a & b & (c | d) | c & d & (a | b)
    if not sets:
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
        return dw[a] + dw[b] + dw[c] + dw[d] - g
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
