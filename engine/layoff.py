"""Lay-offs after a knock, and the knocker's choice of melds (docs/rules.md §3.2-§3.3).

The defender lays deadwood on the knocker's melds: the 4th card on a set of 3 (nothing on a set
of 4), and cards extending a run at either end, one after another (ace low: nothing below an ace
or above a king). Nothing is laid on gin. Gem Rummy hands lay off with
:func:`engine.gem.lay_off_in_turn` (vaults take cards, three players lay off in turn); here Gem
melds take nothing.

The defender's own melds and the lay-offs are chosen *jointly*: laying a card off can break one of
the defender's melds, and a card of the defender's meld can be what a chain needs. So every legal
set of lay-offs (any number of cards from each run end, any 4th cards) is tried, and each leaves a
hand whose least deadwood comes from :func:`engine.arrange.min_deadwood`. Ties go to the fewest
cards laid off, then to the first found (knocker melds in order, low end before high end).

This module must not score hands; :mod:`engine.scoring` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, cast

from engine.arrange import (
    Arrangement,
    all_best_arrangements,
    arranged_hand,
    best_arrangement,
    best_hand,
    hand_mask,
    min_deadwood,
)
from engine.cards import card_value, format_card, format_cards, mask_to_cards
from engine.errors import CardError, MeldError, gettext_noop
from engine.melds import RANK_MASKS, Meld, MeldKind

__all__ = ["Layoff", "LayoffResult", "knocker_choice", "lay_off", "validate_knocker_melds"]


@dataclass(frozen=True, slots=True)
class Layoff:
    """One card laid off, onto ``knocker_melds[meld_index]``."""

    card: int
    meld_index: int


@dataclass(frozen=True, slots=True)
class LayoffResult:
    """The defender's side of a knock: their melds, lay-offs and remaining deadwood.

    ``layoffs`` are in an order in which they can be made (a chain outwards from its run).
    ``deadwood_without_layoffs`` is the defender's least deadwood had nothing been laid off.
    """

    knocker_melds: tuple[Meld, ...]
    defender_melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...]
    deadwood_cards: tuple[int, ...]
    deadwood: int
    deadwood_without_layoffs: int

    @property
    def laid_off_cards(self) -> tuple[int, ...]:
        """The cards laid off, in the order of :attr:`layoffs`."""
        return tuple(layoff.card for layoff in self.layoffs)

    def __str__(self) -> str:
        laid = format_cards(self.laid_off_cards) or "nothing"
        melds = " | ".join(str(meld) for meld in self.defender_melds) or "no melds"
        return f"{melds}; laid off {laid}; deadwood {self.deadwood}"


_LayoffDraft = type("_LayoffDraft", (), {"__slots__": Layoff.__slots__})
_ResultDraft = type("_ResultDraft", (), {"__slots__": LayoffResult.__slots__})
"""A :class:`Layoff` and a :class:`LayoffResult` being built: the same slots and nothing else.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, several times
slower than storing it; the builders below store the fields in a draft, which then becomes the
frozen class (Python lets an object change class between two classes of the same layout)."""


def make_layoff(card: int, meld_index: int) -> Layoff:
    """``Layoff(card, meld_index)``, built through a draft."""
    layoff = _LayoffDraft()
    layoff.card = card
    layoff.meld_index = meld_index
    layoff.__class__ = Layoff
    return cast(Layoff, layoff)


def layoff_result(
    knocker_melds: tuple[Meld, ...],
    defender_melds: tuple[Meld, ...],
    layoffs: tuple[Layoff, ...],
    deadwood_cards: tuple[int, ...],
    deadwood: int,
    deadwood_without_layoffs: int,
) -> LayoffResult:
    """``LayoffResult(...)`` of every field, built through a draft."""
    result = _ResultDraft()
    result.knocker_melds = knocker_melds
    result.defender_melds = defender_melds
    result.layoffs = layoffs
    result.deadwood_cards = deadwood_cards
    result.deadwood = deadwood
    result.deadwood_without_layoffs = deadwood_without_layoffs
    result.__class__ = LayoffResult
    return cast(LayoffResult, result)


_RUN: Final = MeldKind.RUN
_SET: Final = MeldKind.SET


_Move = tuple[int, int]  # (card, meld index): a Layoff, built only for the chosen lay-offs
_Option = tuple[int, tuple[_Move, ...]]
_NO_LAYOFF: tuple[_Option, ...] = ((0, ()),)


def _chain(start: int, step: int, stop: int, defender: int, index: int) -> list[_Option]:
    """The lay-offs at one run end: nothing, or the first 1, 2, ... cards of the chain."""
    options: list[_Option] = [(0, ())]
    used = 0
    moves: tuple[_Move, ...] = ()
    card = start
    while card != stop and defender >> card & 1:
        used |= 1 << card
        moves = (*moves, (card, index))
        options.append((used, moves))
        card += step
    return options


def _layoff_groups(melds: Sequence[Meld], defender: int) -> list[list[_Option]]:
    """For each place cards can go (a set of 3, a run end), the lay-offs possible there."""
    groups: list[list[_Option]] = []
    for index, meld in enumerate(melds):
        kind = meld.kind
        cards = meld.cards
        if kind is _RUN:
            low, high = cards[0], cards[-1]
            if low % 13 and defender >> (low - 1) & 1:
                groups.append(_chain(low - 1, -1, low - low % 13 - 1, defender, index))
            if high % 13 != 12 and defender >> (high + 1) & 1:
                groups.append(_chain(high + 1, 1, high - high % 13 + 13, defender, index))
        elif kind is _SET and len(cards) == 3:
            fourth = RANK_MASKS[cards[0] % 13] & defender
            if fourth:
                groups.append([(0, ()), (fourth, ((fourth.bit_length() - 1, index),))])
    return groups


def _check_apart(knocker: int, defender: int) -> None:
    """Raise :class:`CardError` naming a card that is in both hands."""
    both = knocker & defender
    if both:
        raise CardError(
            gettext_noop("Card {card} is in both hands"), card=format_card(mask_to_cards(both)[0])
        )


def _search(
    knocker: Sequence[Meld], defender: int, allow_layoffs: bool, extra: Sequence[Meld]
) -> tuple[int, int, tuple[_Move, ...], int]:
    """The defender's best lay-offs: ``(deadwood, cards laid off, moves, deadwood before)``.

    Every legal set of lay-offs is scored; ties go to the fewest cards, then to the first found.
    """

    least = (lambda mask: best_arrangement(mask, extra_melds=extra).deadwood) if extra else None
    without = least(defender) if least else min_deadwood(defender)
    best_value, best_used = without, 0
    best_moves: tuple[_Move, ...] = ()
    if allow_layoffs and without:
        groups = _layoff_groups(knocker, defender)
        if groups:
            choices: list[_Option] | tuple[_Option, ...] = _NO_LAYOFF
            for group in groups:
                choices = [
                    (used | laid, moves + more)
                    for used, moves in choices
                    for laid, more in group
                    if not used & laid
                ]
            best_count = 0
            for used, moves in choices[1:]:  # the first lays nothing off: that is ``without``
                value = least(defender ^ used) if least else min_deadwood(defender ^ used)
                if value < best_value or (value == best_value and len(moves) < best_count):
                    best_value, best_used, best_moves, best_count = value, used, moves, len(moves)
    return best_value, best_used, best_moves, without


def _result(
    knocker: tuple[Meld, ...],
    defender: int,
    found: tuple[int, int, tuple[_Move, ...], int],
    extra: Sequence[Meld],
) -> LayoffResult:
    """The :class:`LayoffResult` of what :func:`_search` found."""
    value, used, moves, without = found
    if extra:
        rest = best_arrangement(defender ^ used, extra_melds=extra)
    else:
        rest = arranged_hand(best_hand(defender ^ used))
    return layoff_result(
        knocker,
        rest.melds,
        tuple([make_layoff(card, index) for card, index in moves]) if moves else (),
        rest.deadwood_cards,
        value,
        without,
    )


def lay_off(
    knocker_melds: Sequence[Meld],
    defender_cards: Sequence[int],
    *,
    allow_layoffs: bool = True,
    defender_extra: Sequence[Meld] = (),
) -> LayoffResult:
    """The defender's best play against ``knocker_melds``: least deadwood after lay-offs.

    With ``allow_layoffs`` false (the knocker went gin) nothing is laid off. ``defender_extra``
    are meld candidates beyond sets and runs that the defender may form (Gem Rummy's vaults and
    Queen's Diamond); they are chosen jointly with the lay-offs too.

    >>> from engine.cards import parse_cards
    >>> knocker = [Meld.parse("5S 6S 7S"), Meld.parse("2H 2D 2C")]
    >>> result = lay_off(knocker, parse_cards("8S 9S 9H 9D 4C 5C 6C KH QD JC"))
    >>> format_cards(result.laid_off_cards), result.deadwood, result.deadwood_without_layoffs
    ('8S', 30, 38)
    >>> print(result)
    4C 5C 6C | 9S 9H 9D; laid off 8S; deadwood 30
    """
    knocker = tuple(knocker_melds)
    knocker_mask = 0
    for meld in knocker:
        meld_mask = meld.mask
        if knocker_mask & meld_mask:
            card = mask_to_cards(knocker_mask & meld_mask)[0]
            raise MeldError(
                gettext_noop("Card {card} is in two of the knocker's melds"),
                card=format_card(card),
            )
        knocker_mask |= meld_mask
    defender = hand_mask(defender_cards)
    _check_apart(knocker_mask, defender)
    extra = tuple(defender_extra)
    return _result(knocker, defender, _search(knocker, defender, allow_layoffs, extra), extra)


def knocker_choice(
    knocker_cards: Sequence[int],
    defender_cards: Sequence[int],
    *,
    extra_melds: Sequence[Meld] = (),
    defender_extra: Sequence[Meld] = (),
) -> tuple[Arrangement, LayoffResult]:
    """The knocker's least-deadwood arrangement that leaves the defender the most deadwood.

    Ties go to the first of :func:`engine.arrange.all_best_arrangements`. Against gin (no
    deadwood cards) nothing is laid off. ``extra_melds`` and ``defender_extra`` are the
    knocker's and the defender's Gem meld candidates (vaults, Queen's Diamond).

    >>> from engine.cards import parse_cards
    >>> knocker = parse_cards("4S 5S 6S 4H 5H 6H 4D 5D 6D KC")
    >>> defender = parse_cards("4C 6C 9C TC QC JH 2H 8D 3C KD")
    >>> arrangement, result = knocker_choice(knocker, defender)
    >>> print(arrangement)
    4S 5S 6S | 4H 5H 6H | 4D 5D 6D | deadwood KC (10)
    >>> print(result)  # showing the three sets instead would let 4C and 6C be laid off
    no melds; laid off nothing; deadwood 72
    """
    knocker = hand_mask(knocker_cards)
    defender = hand_mask(defender_cards)
    _check_apart(knocker, defender)
    return choose_layoffs(knocker, defender, tuple(extra_melds), tuple(defender_extra))


def choose_layoffs(
    knocker: int, defender: int, extra_melds: tuple[Meld, ...], extra: tuple[Meld, ...]
) -> tuple[Arrangement, LayoffResult]:
    """:func:`knocker_choice` of two checked, disjoint hand masks."""
    best: tuple[Arrangement, tuple[int, int, tuple[_Move, ...], int]] | None = None
    for arrangement in all_best_arrangements(knocker, extra_melds=extra_melds):
        melds = arrangement.melds
        found = _search(melds, defender, bool(arrangement.deadwood_cards), extra)
        if best is None or found[0] > best[1][0]:
            best = arrangement, found
    assert best is not None  # every hand has at least one best arrangement
    arrangement, found = best
    return arrangement, _result(arrangement.melds, defender, found, extra)


def validate_knocker_melds(knocker_cards: Sequence[int], melds: Sequence[Meld]) -> Arrangement:
    """Check melds the knocker laid down and return them with the rest of the hand as deadwood.

    The melds must lie inside the hand and not share a card; each is legal by construction
    (:class:`~engine.melds.Meld` checks its shape). Their order is kept, since lay-offs refer to
    the melds by index.

    >>> from engine.cards import parse_cards
    >>> hand = parse_cards("AS 2S 3S 9H 9D 9C KC QH 4D 5D")
    >>> validate_knocker_melds(hand, [Meld.parse("AS 2S 3S")]).deadwood
    56
    >>> validate_knocker_melds(hand, [Meld.parse("9S 9H 9D")])
    Traceback (most recent call last):
    ...
    engine.errors.MeldError: Meld 9S 9H 9D uses 9S, which is not in the hand
    """
    hand = hand_mask(knocker_cards)
    used = 0
    for meld in melds:
        meld_mask = meld.mask
        if meld_mask & ~hand:
            card = mask_to_cards(meld_mask & ~hand)[0]
            raise MeldError(
                gettext_noop("Meld {meld} uses {card}, which is not in the hand"),
                meld=str(meld),
                card=format_card(card),
            )
        if meld_mask & used:
            card = mask_to_cards(meld_mask & used)[0]
            raise MeldError(gettext_noop("Card {card} is in two melds"), card=format_card(card))
        used |= meld_mask
    rest = mask_to_cards(hand ^ used)
    return Arrangement(tuple(melds), rest, sum(card_value(card) for card in rest))
