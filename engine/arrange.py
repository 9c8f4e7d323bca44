"""Best arrangements and tying arrangements (docs/rules.md §2); the best discard searches the same
choices in :mod:`engine.discard`.

The search: with runs alone each suit's best cover is forced (see :mod:`engine.melds`), so the only
choices are the sets. A set is possible only at a rank with 3 or 4 cards in the hand; at such a
rank the hand takes no set, the 4-set, or one of the 3-sets. Two facts keep this tiny:

- a card outside every stretch of 3+ consecutive cards of its suit (:data:`~engine.melds.RUNNABLE`)
  can never be in a run, so a rank whose cards are all like that always takes its whole set
  (anything else leaves one of them as deadwood, and every card is worth at least 1);
- at a rank where some card could be in a run, a 3-set that leaves out a card that could not is
  beaten by the whole set, and so is taking no set when three cards could not.

Every remaining choice is tried, and each is scored with four table look-ups. Nothing is cached
per hand. Runs are always taken whole: splitting a long run changes neither the deadwood nor what
can be laid off on it, so arrangements that differ only by such a split count as one.

Only the arrangements returned are built, each from per-suit tables: a suit's runs as melds
(:data:`~engine.melds.SUIT_RUN_MELDS`), its leftover cards
(:data:`~engine.melds.SUIT_DEADWOOD_CARDS`) and their value (:data:`~engine.melds.RUN_DEADWOOD`),
so a hand with no set is arranged with a dozen look-ups and no search. :func:`best_arrangement`
goes further: its result holds only two masks (the cards of its runs and of its sets) and builds
its fields from those tables when one is first read; read or not, it equals, hashes, prints and
pickles the same. Choices of sets are listed highest rank first, which puts ties in the order the
general search (the one run with extra melds) lists them: the first is what
:func:`best_arrangement` returns and the knocker's choice prefers.

``extra_melds`` (Gem Rummy's vaults and Queen's Diamonds) join the search as further candidates;
with them the pruning above no longer holds and every pairwise-disjoint choice is tried.

This module must not know about knocking, lay-offs or scores. It is over 400 lines because the
fast arrangement, its lazy result and the general search with extra melds share one set of
per-hand tables and must list tying arrangements in the same order; the least-deadwood fast paths,
which need none of that, live in :mod:`engine.deadwood`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Final, cast

from engine.cards import CARD_BIT, DECK_MASK, cards_to_mask, format_cards
from engine.deadwood import (
    NONE,
    PRUNED_OPTIONS,
    SET_OPTIONS,
    min_deadwood,
    min_deadwood_after_discard,
)
from engine.errors import CardError, gettext_noop
from engine.melds import (
    MELD_BY_MASK,
    RANK_MASKS,
    RUN_DEADWOOD,
    RUNNABLE,
    SUIT_DEADWOOD_CARDS,
    SUIT_RUN_MELDS,
    Meld,
    MeldKind,
)

__all__ = [
    "MAX_HAND",
    "Arrangement",
    "all_best_arrangements",
    "best_arrangement",
    "extra_melds_in",
    "hand_mask",
    "min_deadwood",
    "min_deadwood_after_discard",
    "plan_melds",
]

MAX_HAND: Final = 13
"""The most cards an arrangement search accepts."""

_SUIT: Final = (1 << 13) - 1
_SPREAD: Final = RANK_MASKS[0]
_NONE: Final = NONE


@dataclass(frozen=True)
class Arrangement:
    """Disjoint melds of a hand and what is left over as deadwood.

    >>> from engine.cards import parse_cards
    >>> arrangement = best_arrangement(parse_cards("5S 6S 7S 7H JH 2D 7D KD 7C QC"))
    >>> [str(meld) for meld in arrangement.melds], arrangement.deadwood, arrangement.is_gin
    (['5S 6S 7S', '7H 7D 7C'], 32, False)
    >>> str(arrangement)
    '5S 6S 7S | 7H 7D 7C | deadwood JH 2D KD QC (32)'

    An arrangement the search returns holds only its hand's two masks until a field is first
    read; the fields are then built from the per-suit tables, once. Nothing else tells the two
    apart: equality, hashing, ``repr``, pickling and :mod:`dataclasses` all read the fields.
    """

    # Slots by hand (not ``slots=True``) for the private ``_hand``, which is no field.
    __slots__ = ("_hand", "deadwood", "deadwood_cards", "melds")

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[int, ...]
    deadwood: int

    @property
    def is_gin(self) -> bool:
        """True when no card is left over (deadwood 0 and no deadwood cards)."""
        return not self.deadwood_cards

    @property
    def melded_cards(self) -> tuple[int, ...]:
        """Every melded card, in canonical order."""
        return tuple(sorted(card for meld in self.melds for card in meld.cards))

    def __str__(self) -> str:
        parts = [str(meld) for meld in self.melds]
        left = format_cards(self.deadwood_cards)
        parts.append(f"deadwood {left} ({self.deadwood})" if left else "gin")
        return " | ".join(parts)

    def __getstate__(self) -> list[object]:
        # As ``dataclass(frozen=True, slots=True)`` pickles and copies: the fields, in order.
        return [self.melds, self.deadwood_cards, self.deadwood]

    def __setstate__(self, state: list[object]) -> None:
        for name, value in zip(("melds", "deadwood_cards", "deadwood"), state, strict=True):
            object.__setattr__(self, name, value)

    if not TYPE_CHECKING:  # mypy still sees only the fields

        def __getattr__(self, name: str) -> object:
            # Called only when a slot is empty: a field of a search result not read before.
            if name not in _FIELDS:
                raise AttributeError(
                    f"{type(self).__name__!r} object has no attribute {name!r}", name=name, obj=self
                )
            return _fill(self, self._hand, name)


_FIELDS: Final = frozenset(("melds", "deadwood_cards", "deadwood"))
_new_arrangement: Final = object.__new__
_SETTERS: Final[dict[str, Callable[[Arrangement, object], None]]] = {
    name: vars(Arrangement)[name].__set__ for name in Arrangement.__slots__
}
"""Each slot's own setter, which a frozen dataclass's ``__setattr__`` does not stop."""
_set_hand: Final = _SETTERS["_hand"]
_set_melds: Final = _SETTERS["melds"]
_set_deadwood_cards: Final = _SETTERS["deadwood_cards"]
_set_deadwood: Final = _SETTERS["deadwood"]


def _fields(hand: int) -> tuple[tuple[Meld, ...], tuple[int, ...], int]:
    """The fields of an arrangement the search returned, from its ``hand``: the cards of its runs
    (a mask), plus the cards of its sets shifted 52 bits up. The runs are the low mask's (its
    other cards are deadwood), and a rank's set cards are one set: the melds, deadwood cards and
    deadwood are exactly those :func:`_build` gives."""
    rest = hand & DECK_MASK
    a = rest & _SUIT
    b = rest >> 13 & _SUIT
    c = rest >> 26 & _SUIT
    d = rest >> 39
    set_cards = hand >> 52
    if set_cards:
        # Each meld paired with its place in the order (see _ORDER), sorted in C.
        pairs = _PAIRS_S[a] + _PAIRS_H[b] + _PAIRS_D[c] + _PAIRS_C[d]
        if set_cards in _SET_PAIR:  # one set
            pairs += (_SET_PAIR[set_cards],)
        else:
            ranks = (set_cards | set_cards >> 13 | set_cards >> 26 | set_cards >> 39) & _SUIT
            pairs += tuple(map(_SET_PAIR.__getitem__, _set_masks(set_cards, ranks)))
        melds = tuple([meld for _, meld in sorted(pairs)])
    else:
        melds = _RUNS_S[a] + _RUNS_H[b] + _RUNS_D[c] + _RUNS_C[d]
        if len(melds) > 1:
            melds = tuple(
                [meld for _, meld in sorted(_PAIRS_S[a] + _PAIRS_H[b] + _PAIRS_D[c] + _PAIRS_C[d])]
            )
    dw = RUN_DEADWOOD
    left = _LEFT_S[a] + _LEFT_H[b] + _LEFT_D[c] + _LEFT_C[d]
    deadwood = dw[a] + dw[b] + dw[c] + dw[d]
    return melds, left, deadwood


def _fill(arrangement: Arrangement, hand: int, name: str) -> object:
    """Set the fields of an arrangement the search returned from its ``hand`` (see
    :func:`_fields`), the first time one is read. Returns the field ``name``."""
    melds, left, deadwood = _fields(hand)
    _set_melds(arrangement, melds)
    _set_deadwood_cards(arrangement, left)
    _set_deadwood(arrangement, deadwood)
    return melds if name == "melds" else left if name == "deadwood_cards" else deadwood


_Draft = type("_Draft", (), {"__slots__": Arrangement.__slots__})
"""An :class:`Arrangement` being built: the same slots and nothing else
(see :func:`arranged_hand`)."""


def hand_mask(cards: Sequence[int] | int) -> int:
    """The mask of a hand given as cards or as a mask, checked; at most :data:`MAX_HAND` cards."""
    if isinstance(cards, int):
        if isinstance(cards, bool) or not 0 <= cards <= DECK_MASK:
            raise CardError(
                gettext_noop("{mask} is not a card mask: a mask is an integer 0 to 2**52 - 1"),
                mask=repr(cards),
            )
        mask = cards
    else:
        mask = cards_to_mask(cards)
    if mask.bit_count() > MAX_HAND:
        raise CardError(
            gettext_noop("Expected at most {most} cards, got {got}"),
            most=MAX_HAND,
            got=mask.bit_count(),
        )
    return mask


def extra_melds_in(mask: int, extra_melds: Sequence[Meld]) -> dict[int, Meld]:
    """The extra melds that lie inside the hand, by mask (the others cannot be made)."""
    lookup: dict[int, Meld] = {}
    for meld in extra_melds:
        meld_mask = meld.mask
        if meld_mask & mask == meld_mask:
            lookup.setdefault(meld_mask, meld)
    return lookup


def plan_melds(
    mask: int, extra: Sequence[int], *, discard: bool
) -> tuple[tuple[int, ...], list[tuple[int, tuple[int, ...]]]]:
    """The sets every best arrangement takes, and every choice of further melds worth scoring.

    Returns ``(forced, choices)``: ``forced`` are set masks taken in any case (ranks whose cards
    cannot be in a run; none when there are ``extra`` melds), ``choices`` are ``(used mask, meld
    masks)`` pairs, always starting with the empty choice. With ``discard`` every set of a
    contested rank is a candidate, so that the choices also cover the hand less any one card.
    """
    a = mask & _SUIT
    b = mask >> 13 & _SUIT
    c = mask >> 26 & _SUIT
    d = mask >> 39
    sets = a & b & (c | d) | c & d & (a | b)
    runnable = RUNNABLE[a] | RUNNABLE[b] << 13 | RUNNABLE[c] << 26 | RUNNABLE[d] << 39
    forced: list[int] = []
    candidates: list[int] = []
    while sets:
        low = sets & -sets
        bits = low * _SPREAD
        sets ^= low
        if not extra and not runnable & bits:
            forced.append(mask & bits)
        elif discard or extra:
            candidates.extend(SET_OPTIONS[mask & bits])
        else:
            key = mask & bits | (runnable & bits) << 52
            candidates.extend(option for option in PRUNED_OPTIONS[key] if option)
    candidates.extend(extra)
    choices: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    for candidate in candidates:
        choices += [
            (used | candidate, (*melds, candidate))
            for used, melds in choices
            if not used & candidate
        ]
    return tuple(forced), choices


def _deadwood(mask: int) -> int:
    """The deadwood of ``mask`` when only runs are made."""
    return (
        RUN_DEADWOOD[mask & _SUIT]
        + RUN_DEADWOOD[mask >> 13 & _SUIT]
        + RUN_DEADWOOD[mask >> 26 & _SUIT]
        + RUN_DEADWOOD[mask >> 39]
    )


def _meld_order(meld: Meld) -> tuple[int, int]:
    """Melds are listed by their lowest rank, then by their first card."""
    first = meld.cards[0]
    return first % 13, first


_RUNS_S, _RUNS_H, _RUNS_D, _RUNS_C = SUIT_RUN_MELDS
_LEFT_S, _LEFT_H, _LEFT_D, _LEFT_C = SUIT_DEADWOOD_CARDS


def _order(meld: Meld) -> int:
    """Where ``meld`` goes among disjoint melds, as one number: by its lowest rank, then by its
    first card (the order of :func:`_meld_order`; disjoint melds have different first cards)."""
    first = meld.cards[0]
    return first % 13 * 52 + first


_SET_PAIR: Final = {
    mask: (_order(meld), meld) for mask, meld in MELD_BY_MASK.items() if meld.kind is MeldKind.SET
}
"""Each set by its mask, paired with its :func:`_order`."""
_PAIRED: Final = {
    melds: tuple([(_order(meld), meld) for meld in melds])
    for suit in SUIT_RUN_MELDS
    for melds in set(suit)
}
_PAIRS_S, _PAIRS_H, _PAIRS_D, _PAIRS_C = (
    tuple(map(_PAIRED.__getitem__, suit)) for suit in SUIT_RUN_MELDS
)
"""Per suit and suit mask, :data:`SUIT_RUN_MELDS` with each run paired with its :func:`_order`:
sorting pairs compares only the numbers, in C, where a sort by :func:`_meld_order` calls Python
for every meld."""


def _build(rest: int, meld_masks: Sequence[int], extra: dict[int, Meld]) -> Arrangement:
    """The arrangement of ``meld_masks`` plus the runs of ``rest``; its other cards are deadwood."""
    a = rest & _SUIT
    b = rest >> 13 & _SUIT
    c = rest >> 26 & _SUIT
    d = rest >> 39
    melds = _RUNS_S[a] + _RUNS_H[b] + _RUNS_D[c] + _RUNS_C[d]
    if extra:
        melds += tuple([extra.get(mask) or MELD_BY_MASK[mask] for mask in meld_masks])
    elif meld_masks:
        melds += tuple(map(MELD_BY_MASK.__getitem__, meld_masks))
    if len(melds) > 1:
        melds = tuple(sorted(melds, key=_meld_order))
    dw = RUN_DEADWOOD
    return Arrangement(
        melds,
        _LEFT_S[a] + _LEFT_H[b] + _LEFT_D[c] + _LEFT_C[d],
        dw[a] + dw[b] + dw[c] + dw[d],
    )


def _scored(
    cards: Sequence[int] | int, extra_melds: Sequence[Meld]
) -> tuple[int, dict[int, Meld], tuple[int, ...], list[tuple[int, int, tuple[int, ...]]]]:
    """Every choice of melds worth scoring for ``cards``, with its deadwood.

    Returns ``(mask, extra lookup, forced set masks, [(deadwood, rest mask, meld masks)])``.
    """
    mask = hand_mask(cards)
    extra = extra_melds_in(mask, extra_melds)
    forced, choices = plan_melds(mask, tuple(extra), discard=False)
    rest = mask ^ sum(forced)
    scored = [(_deadwood(rest ^ used), rest ^ used, melds) for used, melds in choices]
    return mask, extra, forced, scored


def _combos(mask: int, runnable: int, contested: int) -> Sequence[int]:
    """Every pruned choice of sets at the ``contested`` ranks, highest rank first: the
    cross-product of :data:`PRUNED_OPTIONS` for each rank (``runnable``: the hand's runnable
    cards, shifted past the 52 card bits, as the table's index wants them)."""
    high = 1 << (contested.bit_length() - 1)
    bits = high * _SPREAD
    combos: Sequence[int] = PRUNED_OPTIONS[mask & bits | runnable & bits << 52]
    contested ^= high
    while contested:
        high = 1 << (contested.bit_length() - 1)
        bits = high * _SPREAD
        options = PRUNED_OPTIONS[mask & bits | runnable & bits << 52]
        combos = [x | o for x in combos for o in options]
        contested ^= high
    return combos


def _set_choices(
    mask: int, a: int, b: int, c: int, d: int, sets: int
) -> tuple[int, int, Sequence[int], list[int]]:
    """The choices of sets worth scoring for ``mask`` (no extra melds), with their deadwood.

    Returns ``(rest, free, combos, values)``: ``free`` are the ranks whose whole set every best
    arrangement takes, ``rest`` is the hand without them, and each combo is the cards of one
    choice of sets at the other ranks (the pruned choices of :func:`min_deadwood`), ``values``
    its deadwood. Combos come highest rank first, so the first least one is the one the general
    search (:func:`_plan`, which lists choices by candidate, lowest rank first) would meet first.
    ``a`` to ``d`` are the hand's suit masks and ``sets`` its ranks of 3 or 4 cards.
    """
    ra = RUNNABLE[a]
    rb = RUNNABLE[b]
    rc = RUNNABLE[c]
    rd = RUNNABLE[d]
    contested = sets & (ra | rb | rc | rd)
    free = sets ^ contested
    rest = mask & ~(free * _SPREAD)
    combos: Sequence[int] = (0,)
    if contested:
        runnable = (ra | rb << 13 | rc << 26 | rd << 39) << 52
        combos = _combos(mask, runnable, contested)
    dw = RUN_DEADWOOD
    values = []
    for removed in combos:
        m = rest ^ removed
        values.append(dw[m & _SUIT] + dw[m >> 13 & _SUIT] + dw[m >> 26 & _SUIT] + dw[m >> 39])
    return rest, free, combos, values


def _best_hands(mask: int, a: int, b: int, c: int, d: int, sets: int) -> list[int]:
    """Every best arrangement of ``mask`` (no extra melds), each as :func:`best_hand` gives it,
    in the order of :func:`all_best_arrangements`. The arguments are :func:`_set_choices`'."""
    rest, _, combos, values = _set_choices(mask, a, b, c, d, sets)
    least = min(values)
    return [
        rest ^ removed | (mask ^ rest | removed) << 52
        for removed, value in zip(combos, values, strict=True)
        if value == least
    ]


def _set_masks(mask: int, ranks: int) -> list[int]:
    """The set masks of ``mask`` at each rank of the 13-bit ``ranks`` (ranks without cards skip)."""
    found = []
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        cards = mask & low * _SPREAD
        if cards:
            found.append(cards)
    return found


def best_hand(mask: int) -> int:
    """The first best arrangement of ``mask`` (no extra melds) as one number: the cards of its
    runs, plus the cards of its sets shifted 52 bits up (what :func:`_fill` reads)."""
    a = mask & _SUIT
    b = mask >> 13 & _SUIT
    c = mask >> 26 & _SUIT
    d = mask >> 39
    ab = a & b
    cd = c & d
    if not (ab or cd):  # no rank has three cards (most hands): runs alone arrange the hand
        return mask
    sets = ab & (c | d) | cd & (a | b)
    if not sets:
        return mask
    # _set_choices, inline, keeping only the first least choice.
    ra = RUNNABLE[a]
    rb = RUNNABLE[b]
    rc = RUNNABLE[c]
    rd = RUNNABLE[d]
    contested = sets & (ra | rb | rc | rd)
    rest = mask & ~((sets ^ contested) * _SPREAD)
    if not contested:
        return rest | (mask ^ rest) << 52
    runnable = (ra | rb << 13 | rc << 26 | rd << 39) << 52
    combos = _combos(mask, runnable, contested)
    dw = RUN_DEADWOOD
    least = _NONE
    chosen = 0
    for removed in combos:
        m = rest ^ removed
        value = dw[m & _SUIT] + dw[m >> 13 & _SUIT] + dw[m >> 26 & _SUIT] + dw[m >> 39]
        if value < least:
            least = value
            chosen = removed
    return rest ^ chosen | (mask ^ rest | chosen) << 52


def arranged_hand(hand: int) -> Arrangement:
    """The arrangement of ``hand`` (runs' cards, plus sets' cards 52 bits up), its fields built
    at once, for callers that read them anyway.

    A frozen dataclass's fields can only be set through ``object.__setattr__`` or the slots'
    setters, each several times slower than a plain store; so the fields are stored in a
    :data:`_Draft` (the same slots, nothing frozen), which then becomes an Arrangement: Python
    lets an object change class between two classes of the same layout.
    """
    arrangement = _Draft()
    arrangement.melds, arrangement.deadwood_cards, arrangement.deadwood = _fields(hand)
    arrangement.__class__ = Arrangement
    return cast(Arrangement, arrangement)


def best_arrangement(
    cards: Sequence[int] | int, *, extra_melds: Sequence[Meld] = ()
) -> Arrangement:
    """An arrangement of ``cards`` (cards or a mask, 0-13 of them) with the least deadwood.

    It is the first of :func:`all_best_arrangements`. ``extra_melds`` are further candidate
    melds (Gem Rummy's vaults and Queen's Diamonds); those not inside the hand are ignored.

    >>> from engine.cards import parse_cards
    >>> str(best_arrangement(parse_cards("AS 2S 3S 4S 5S KS AH QH AD AC")))
    'AS AH AD AC | 2S 3S 4S 5S | deadwood KS QH (20)'
    """
    if not extra_melds:
        if type(cards) is list or type(cards) is tuple:
            # The fast path of cards_to_mask, inline (see there); hand_mask has the last word on
            # anything it does not accept at once, and names what is wrong.
            try:
                mask = sum(itemgetter(*cards)(CARD_BIT))
            except (KeyError, TypeError):
                mask = hand_mask(cards)
            else:
                if not (mask.bit_count() == len(cards) <= MAX_HAND and type(sum(cards)) is int) or (
                    mask & 3  # card 0 or 1 (and a bool may stand for it)
                    and not (
                        (not mask & 1 or type(cards[cards.index(0)]) is int)
                        and (not mask & 2 or type(cards[cards.index(1)]) is int)
                    )
                ):
                    mask = hand_mask(cards)
        else:
            mask = hand_mask(cards)
        arrangement: Arrangement = _new_arrangement(Arrangement)
        _set_hand(arrangement, best_hand(mask))
        return arrangement
    _, extra, forced, scored = _scored(cards, extra_melds)
    best = scored[0]
    for entry in scored:
        if entry[0] < best[0]:
            best = entry
    return _build(best[1], (*forced, *best[2]), extra)


def all_best_arrangements(
    cards: Sequence[int] | int, *, extra_melds: Sequence[Meld] = ()
) -> tuple[Arrangement, ...]:
    """Every arrangement of ``cards`` with the least deadwood, each set of melds once.

    Lay-offs depend on which one the knocker shows (docs/rules.md §3.2), so all are listed.

    >>> from engine.cards import parse_cards
    >>> for arrangement in all_best_arrangements(parse_cards("4S 5S 6S 4H 5H 6H 4D 5D 6D KC")):
    ...     print(arrangement)
    4S 5S 6S | 4H 5H 6H | 4D 5D 6D | deadwood KC (10)
    4S 4H 4D | 5S 5H 5D | 6S 6H 6D | deadwood KC (10)
    """
    if not extra_melds:
        # Without extra melds no two choices of sets give the same melds: nothing to merge.
        mask = hand_mask(cards)
        a = mask & _SUIT
        b = mask >> 13 & _SUIT
        c = mask >> 26 & _SUIT
        d = mask >> 39
        sets = a & b & (c | d) | c & d & (a | b)
        if not sets:
            return (arranged_hand(mask),)
        return tuple(map(arranged_hand, _best_hands(mask, a, b, c, d, sets)))
    _, extra, forced, scored = _scored(cards, extra_melds)
    least = min(entry[0] for entry in scored)
    found: dict[frozenset[int], Arrangement] = {}
    for deadwood, rest, melds in scored:
        if deadwood == least:
            arrangement = _build(rest, (*forced, *melds), extra)
            found.setdefault(frozenset(meld.mask for meld in arrangement.melds), arrangement)
    return tuple(found.values())
