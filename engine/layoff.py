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

from engine.arrange import (
    Arrangement,
    all_best_arrangements,
    best_arrangement,
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


_Option = tuple[int, tuple[Layoff, ...]]


def _chain(start: int, step: int, stop: int, defender: int, index: int) -> list[_Option]:
    """The lay-offs at one run end: nothing, or the first 1, 2, ... cards of the chain."""
    options: list[_Option] = [(0, ())]
    used = 0
    moves: tuple[Layoff, ...] = ()
    card = start
    while card != stop and defender >> card & 1:
        used |= 1 << card
        moves = (*moves, Layoff(card, index))
        options.append((used, moves))
        card += step
    return options


def _layoff_groups(melds: Sequence[Meld], defender: int) -> list[list[_Option]]:
    """For each place cards can go (a set of 3, a run end), the lay-offs possible there."""
    groups: list[list[_Option]] = []
    for index, meld in enumerate(melds):
        if meld.kind is MeldKind.SET and len(meld.cards) == 3:
            fourth = RANK_MASKS[meld.cards[0] % 13] ^ meld.mask
            if fourth & defender:
                groups.append([(0, ()), (fourth, (Layoff(fourth.bit_length() - 1, index),))])
        elif meld.kind is MeldKind.RUN:
            low, high = meld.cards[0], meld.cards[-1]
            suit_start = low - low % 13
            for group in (
                _chain(low - 1, -1, suit_start - 1, defender, index),
                _chain(high + 1, 1, suit_start + 13, defender, index),
            ):
                if len(group) > 1:
                    groups.append(group)
    return groups


def _check_apart(knocker: int, defender: int) -> None:
    """Raise :class:`CardError` naming a card that is in both hands."""
    both = knocker & defender
    if both:
        raise CardError(
            gettext_noop("card {card} is in both hands"), card=format_card(mask_to_cards(both)[0])
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
                gettext_noop("card {card} is in two of the knocker's melds"),
                card=format_card(card),
            )
        knocker_mask |= meld_mask
    defender = hand_mask(defender_cards)
    _check_apart(knocker_mask, defender)
    extra = tuple(defender_extra)

    def least(mask: int) -> int:
        return best_arrangement(mask, extra_melds=extra).deadwood if extra else min_deadwood(mask)

    without = least(defender)
    best_value, best_used = without, 0
    best_moves: tuple[Layoff, ...] = ()
    if allow_layoffs:
        choices: list[_Option] = [(0, ())]
        for group in _layoff_groups(knocker, defender):
            choices = [
                (used | laid, moves + more)
                for used, moves in choices
                for laid, more in group
                if not used & laid
            ]
        for used, moves in choices:
            value = least(defender ^ used)
            if value < best_value or (value == best_value and len(moves) < len(best_moves)):
                best_value, best_used, best_moves = value, used, moves
    rest = best_arrangement(defender ^ best_used, extra_melds=extra)
    return LayoffResult(
        knocker_melds=knocker,
        defender_melds=rest.melds,
        layoffs=best_moves,
        deadwood_cards=rest.deadwood_cards,
        deadwood=best_value,
        deadwood_without_layoffs=without,
    )


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
    _check_apart(hand_mask(knocker_cards), hand_mask(defender_cards))
    best: tuple[Arrangement, LayoffResult] | None = None
    for arrangement in all_best_arrangements(knocker_cards, extra_melds=extra_melds):
        result = lay_off(
            arrangement.melds,
            defender_cards,
            allow_layoffs=not arrangement.is_gin,
            defender_extra=defender_extra,
        )
        if best is None or result.deadwood > best[1].deadwood:
            best = arrangement, result
    assert best is not None  # every hand has at least one best arrangement
    return best


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
    engine.errors.MeldError: meld 9S 9H 9D uses 9S, which is not in the hand
    """
    hand = hand_mask(knocker_cards)
    used = 0
    for meld in melds:
        meld_mask = meld.mask
        if meld_mask & ~hand:
            card = mask_to_cards(meld_mask & ~hand)[0]
            raise MeldError(
                gettext_noop("meld {meld} uses {card}, which is not in the hand"),
                meld=str(meld),
                card=format_card(card),
            )
        if meld_mask & used:
            card = mask_to_cards(meld_mask & used)[0]
            raise MeldError(gettext_noop("card {card} is in two melds"), card=format_card(card))
        used |= meld_mask
    rest = mask_to_cards(hand ^ used)
    return Arrangement(tuple(melds), rest, sum(card_value(card) for card in rest))
