"""Each hand's best arrangement of the cards given so far, for a hand's preview.

The engine scores a hand only once it is whole; while a player picks cards, the preview shows
how the cards picked so far meld. Reads nothing from the database; cards that cannot be read, or
that are in both hands, are refused here with the field they are in (a 400).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import ApplicationError
from core.i18n import engine_message
from engine.arrange import best_arrangement
from engine.cards import format_card, format_cards, parse_cards
from engine.errors import CardError, gettext_noop
from engine.rules import RuleSet

_MOST = 13  # more cards than any hand holds: no arrangement is shown


@dataclass(frozen=True, slots=True)
class Arranged:
    """One hand's cards so far: how many, their melds, deadwood cards and deadwood count."""

    cards: int
    melds: tuple[str, ...]
    deadwood_cards: str
    deadwood: int


@dataclass(frozen=True, slots=True)
class PartialHands:
    knocker: Arranged | None
    defender: Arranged | None


def _read(text: str | None, field: str) -> tuple[int, ...]:
    if not text:
        return ()
    try:
        return parse_cards(text)
    except CardError as exc:
        raise ApplicationError(engine_message(exc), field=field) from None


def _arranged(cards: tuple[int, ...], rules: RuleSet) -> Arranged | None:
    if not cards or len(cards) > _MOST or rules.family != "gin":
        return None
    arrangement = best_arrangement(cards)
    return Arranged(
        cards=len(cards),
        melds=tuple(str(meld) for meld in arrangement.melds),
        deadwood_cards=format_cards(arrangement.deadwood_cards),
        deadwood=arrangement.deadwood,
    )


def partial_hands(
    *, rules: RuleSet, knocker_cards: str | None, defender_cards: str | None
) -> PartialHands:
    """The knocker's and the defender's cards so far, arranged (None: no cards, or a family
    whose melds need more than the cards, such as Gem Rummy's deck map)."""
    knocker = _read(knocker_cards, "knocker_cards")
    defender = _read(defender_cards, "defender_cards")
    both = sorted(set(knocker) & set(defender))
    if both:
        error = CardError(gettext_noop("Card {card} is in both hands"), card=format_card(both[0]))
        raise ApplicationError(engine_message(error), field="defender_cards")
    return PartialHands(knocker=_arranged(knocker, rules), defender=_arranged(defender, rules))
