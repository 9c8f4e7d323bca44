"""Melds (docs/rules.md §2, §8) and the tables the arrangement search is built on.

A :class:`Meld` is a set (3 or 4 cards of one rank), a run (3 or more consecutive cards of one
suit, ace low only), or one of Gem Rummy's extra kinds (vault, Queen's Diamond), which the engine
checks only for shape because the gem printed on each card is club data (docs/rules.md §8).

The tables are built once, at import, and indexed by a 13-bit *suit mask* (one suit's block of a
hand mask). With runs alone the best cover of one suit is forced: every maximal stretch of three
or more consecutive cards is one run, and everything else is deadwood. So the only choices in a
hand are which sets to take (see :mod:`engine.arrange`).

This module must not search arrangements; it only owns melds and per-suit facts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise
from typing import Final

from engine.cards import (
    BIT_OF,
    card_value,
    cards_to_mask,
    check_card,
    format_card,
    format_cards,
    parse_cards,
)
from engine.errors import MeldError, Message, gettext_noop

__all__ = [
    "ALL_MELDS",
    "DISCARD_GAIN",
    "MELD_BY_MASK",
    "NO_CARD",
    "RANK_MASKS",
    "RUNNABLE",
    "RUN_DEADWOOD",
    "SUIT_DEADWOOD_CARDS",
    "SUIT_MASKS",
    "SUIT_RUN_MELDS",
    "Meld",
    "MeldKind",
    "suit_runs",
]

_QUEEN_OF_DIAMONDS: Final = 2 * 13 + 11


class MeldKind(Enum):
    """The kind of a meld."""

    SET = "set"
    """3 or 4 cards of one rank."""
    RUN = "run"
    """3 or more consecutive cards of one suit, ace low."""
    VAULT = "vault"
    """Gem Rummy: 4 or more cards of one gem (the gem is club data, so only the size is checked)."""
    QUEENS_DIAMOND = "queens_diamond"
    """Gem Rummy: the queen of diamonds with the diamond named by the diamond number."""


_KIND_NAMES: Final = {
    MeldKind.SET: gettext_noop("set"),
    MeldKind.RUN: gettext_noop("run"),
    MeldKind.VAULT: gettext_noop("vault"),
    MeldKind.QUEENS_DIAMOND: gettext_noop("queens_diamond"),
}
"""Each kind's value, as a template to translate."""


def _shape_error(kind: MeldKind, cards: tuple[int, ...]) -> Message | None:
    """Why sorted, distinct ``cards`` are not a ``kind`` meld, or None if they are."""
    ranks = {card % 13 for card in cards}
    suits = {card // 13 for card in cards}
    if kind is MeldKind.SET:
        if not 3 <= len(cards) <= 4:
            return Message(gettext_noop("3 or 4 cards needed, not {count}"), count=len(cards))
        if len(ranks) != 1:
            return Message(gettext_noop("ranks differ"))
    elif kind is MeldKind.RUN:
        if len(cards) < 3:
            return Message(gettext_noop("3 or more cards needed, not {count}"), count=len(cards))
        if len(suits) != 1:
            return Message(gettext_noop("suits differ"))
        for low, high in pairwise(cards):
            if high != low + 1:
                return Message(
                    gettext_noop("{card} is missing between {cards}"),
                    card=format_card(low + 1),
                    cards=format_cards((low, high)),
                )
    elif kind is MeldKind.VAULT:
        if len(cards) < 4:
            return Message(gettext_noop("4 or more cards needed, not {count}"), count=len(cards))
    elif len(cards) != 2 or _QUEEN_OF_DIAMONDS not in cards or suits != {2}:
        return Message(gettext_noop("QD and one other diamond needed"))
    return None


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld: its kind and its cards, kept in canonical order (by suit, then rank).

    Building one checks its shape and raises :class:`MeldError` with the reason.

    >>> meld = Meld.parse("3S 2S AS")
    >>> meld.kind, str(meld), meld.value
    (<MeldKind.RUN: 'run'>, 'AS 2S 3S', 6)
    >>> Meld.parse("QS KS AS")
    Traceback (most recent call last):
    ...
    engine.errors.MeldError: AS QS KS is not a meld: not a set (ranks differ), not a run \
(2S is missing between AS QS)
    """

    kind: MeldKind
    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        cards = tuple(sorted(check_card(card) for card in self.cards))
        if len(set(cards)) != len(cards):
            raise MeldError(
                gettext_noop("{cards} is not a meld: a card appears twice"),
                cards=format_cards(cards),
            )
        reason = _shape_error(self.kind, cards)
        if reason is not None:
            raise MeldError(
                gettext_noop("{cards} is not a {kind}: {reason}"),
                cards=format_cards(cards),
                kind=Message(_KIND_NAMES[self.kind]),
                reason=reason,
            )
        object.__setattr__(self, "cards", cards)

    @classmethod
    def from_cards(cls, cards: Iterable[int]) -> Meld:
        """The set or run made of ``cards``, or :class:`MeldError` saying why there is none.

        >>> Meld.from_cards([13, 26, 39]).kind
        <MeldKind.SET: 'set'>
        """
        cards = tuple(sorted(cards))
        cards_to_mask(cards)  # names a card given twice
        set_reason = _shape_error(MeldKind.SET, cards)
        if set_reason is None:
            return cls(MeldKind.SET, cards)
        run_reason = _shape_error(MeldKind.RUN, cards)
        if run_reason is None:
            return cls(MeldKind.RUN, cards)
        raise MeldError(
            gettext_noop(
                "{cards} is not a meld: not a set ({set_reason}), not a run ({run_reason})"
            ),
            cards=format_cards(cards),
            set_reason=set_reason,
            run_reason=run_reason,
        )

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> Meld:
        """Read a set or run written in card notation (see :func:`engine.cards.parse_cards`).

        >>> str(Meld.parse("7h 7d 7s"))
        '7S 7H 7D'
        """
        return cls.from_cards(parse_cards(text))

    @property
    def mask(self) -> int:
        """The mask of the meld's cards."""
        # The cards were checked when the meld was built (distinct cards 0-51), so their bits
        # add up to the mask with no carry: cards_to_mask's checks would only repeat that.
        return sum(map(BIT_OF, self.cards))

    @property
    def value(self) -> int:
        """The total value of the meld's cards.

        >>> Meld.parse("JS QS KS").value
        30
        """
        return sum(card_value(card) for card in self.cards)

    def __str__(self) -> str:
        return format_cards(self.cards)


RANK_MASKS: Final = tuple(sum(1 << (suit * 13 + rank) for suit in range(4)) for rank in range(13))
"""For each rank, the mask of its four cards."""
SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (suit * 13) for suit in range(4))
"""For each suit, the mask of its thirteen cards."""


def _build_all_melds() -> tuple[Meld, ...]:
    """Every legal set and run of the full deck: runs by suit, start, length; then sets by rank."""
    runs = [
        Meld(MeldKind.RUN, tuple(range(suit * 13 + start, suit * 13 + start + length)))
        for suit in range(4)
        for start in range(13)
        for length in range(3, 14 - start)
    ]
    sets = [
        Meld(MeldKind.SET, tuple(suit * 13 + rank for suit in suits))
        for rank in range(13)
        for suits in ((1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2), (0, 1, 2, 3))
    ]
    return (*runs, *sets)


ALL_MELDS: Final = _build_all_melds()
"""All 329 legal melds of the full deck: 264 runs, then 65 sets."""
MELD_BY_MASK: Final = {meld.mask: meld for meld in ALL_MELDS}
"""Each of :data:`ALL_MELDS` by its mask."""


def suit_runs(suit_mask: int) -> tuple[int, ...]:
    """The runs of the best run cover of one suit: each maximal stretch of 3+ consecutive ranks.

    ``suit_mask`` is a 13-bit rank mask; the runs come back as 13-bit masks, lowest first.

    >>> [bin(run) for run in suit_runs(0b1110111101)]
    ['0b111100', '0b1110000000']
    """
    runs: list[int] = []
    while suit_mask:
        low = suit_mask & -suit_mask
        stretch = suit_mask & ~(suit_mask + low)  # the lowest stretch of consecutive bits
        if stretch.bit_count() >= 3:
            runs.append(stretch)
        suit_mask ^= stretch
    return tuple(runs)


NO_CARD: Final = -1000
""":data:`DISCARD_GAIN` of an empty suit: lower than any real gain, so it never wins a ``max``."""


def _build_suit_tables() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Build :data:`RUN_DEADWOOD`, :data:`RUNNABLE` and :data:`DISCARD_GAIN` (8192 entries each)."""
    size = 1 << 13
    value = [0] * size
    runnable = [0] * size
    deadwood = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        value[mask] = value[mask ^ low] + min(low.bit_length(), 10)
        starts = mask & mask >> 1 & mask >> 2
        in_runs = starts | starts << 1 | starts << 2
        runnable[mask] = in_runs
        deadwood[mask] = value[mask ^ in_runs]
    bits = [1 << rank for rank in range(13)]
    gain = [NO_CARD] * size
    for mask in range(1, size):
        gain[mask] = deadwood[mask] - min([deadwood[mask ^ bit] for bit in bits if mask & bit])
    return tuple(deadwood), tuple(runnable), tuple(gain)


RUN_DEADWOOD, RUNNABLE, DISCARD_GAIN = _build_suit_tables()
"""Per 13-bit suit mask: the deadwood left when only runs are made (every stretch of 3+ is a run);
the cards that lie in such a stretch (the only ones a run can ever use); and the most that
discarding one card lowers that deadwood (:data:`NO_CARD` for an empty suit)."""


def _build_suit_results() -> tuple[
    tuple[tuple[tuple[Meld, ...], ...], ...], tuple[tuple[tuple[int, ...], ...], ...]
]:
    """Build :data:`SUIT_RUN_MELDS` and :data:`SUIT_DEADWOOD_CARDS` (4 x 8192 entries each).

    A suit mask's runs depend only on its runnable cards, and its deadwood only on the cards left
    outside them, so each distinct entry is built once per suit (a few hundred runnable patterns,
    about 1,700 run-free rests) and the 8192 entries share it.
    """
    outside = [mask & ~runnable for mask, runnable in enumerate(RUNNABLE)]
    rests = sorted(set(outside) - {0})
    patterns = set(RUNNABLE)
    run_melds = []
    deadwood_cards = []
    for suit in range(4):
        shift = 13 * suit
        melds = {
            runnable: tuple(MELD_BY_MASK[run << shift] for run in suit_runs(runnable))
            for runnable in patterns
        }
        cards: dict[int, tuple[int, ...]] = {0: ()}
        for rest in rests:  # ascending, so the rest less its highest card is already there
            high = rest.bit_length() - 1
            cards[rest] = (*cards[rest ^ 1 << high], high + shift)
        run_melds.append(tuple(map(melds.__getitem__, RUNNABLE)))
        deadwood_cards.append(tuple(map(cards.__getitem__, outside)))
    return tuple(run_melds), tuple(deadwood_cards)


SUIT_RUN_MELDS, SUIT_DEADWOOD_CARDS = _build_suit_results()
"""Per suit and 13-bit suit mask: the runs of the suit's best run cover as :class:`Meld` objects
(see :func:`suit_runs`), and the cards left outside them, in canonical order. With them the
melds and deadwood of a hand with no set are four look-ups each."""
