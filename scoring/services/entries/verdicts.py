"""What the families' scoring shares: engine errors as the one application error naming its
field, checks of outcomes and seats, and the verdict stored with a submission."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from clubs.models import Club
from core.errors import ApplicationError
from core.i18n import engine_message
from engine.cards import format_card, format_cards
from engine.errors import EngineError
from engine.game import ScoredHand
from engine.gem import DeckMap
from engine.scoring import (
    HandOutcome,
    HandResult,
)
from scoring.organiser import organiser
from scoring.permissions import no_seat_message
from scoring.selectors import MatchState

# -- engine errors -----------------------------------------------------------------------------

_FIELD_HINTS: tuple[tuple[str, str], ...] = (
    ("discard pile", "taken_from_discard"),
    ("Knock over the limit", "knocker_deadwood"),
    ("knocker's melds", "knocker_melds"),
    ("Knocker's melds", "knocker_melds"),  # a refusal starts with a capital
    ("knocker:", "knocker_cards"),
    ("Knocker:", "knocker_cards"),
    ("defender:", "defender_cards"),
    ("Defender:", "defender_cards"),
    ("upcard", "upcard"),
    ("Upcard", "upcard"),
    ("die", "knock_limit"),
    ("diamond", "diamond_number"),
    ("deck map", "knocker_cards"),
    ("The knocker's deadwood", "knocker_deadwood"),
    ("the knocker's deadwood", "knocker_deadwood"),
    ("Defender lays off", "defender_deadwood"),
    ("The defender's deadwood", "defender_deadwood"),
    ("before lay-offs", "defender_deadwood_before_layoffs"),
    ("lay-offs", "defender_deadwood"),
    ("the defender's deadwood", "defender_deadwood"),
    ("both deadwood", "knocker_deadwood"),
    ("scores", "points"),
    ("wins", "winner"),
    ("gem", "knocker_gem_bonus"),
    ("big gin", "outcome"),
    ("not knock", "outcome"),
    ("not undercut", "outcome"),
    ("not gin", "outcome"),
    ("claimed", "outcome"),
    ("went out", "went_out"),
    ("player", "leftovers"),
    ("counts", "leftovers"),
    ("card", "knocker_cards"),
)


def field_for(message: str) -> str | None:
    for needle, name in _FIELD_HINTS:
        if needle in message:
            return name
    return None


def refused_error(exc: EngineError, prefix: str = "") -> ApplicationError:
    """An engine error as the one application error, naming the field it is about."""
    name = field_for(str(exc))
    return ApplicationError(
        engine_message(exc), status=400, field=f"{prefix}{name}" if name else prefix or None
    )


# -- hands: scoring with the engine ------------------------------------------------------------


def parse_outcome(value: str | None, prefix: str) -> HandOutcome | None:
    if value is None:
        return None
    try:
        return HandOutcome(value)
    except ValueError:
        choices = ", ".join(o.value for o in HandOutcome)
        raise ApplicationError(
            _("Unknown outcome %(value)s: one of %(choices)s.")
            % {"value": value, "choices": choices},
            field=f"{prefix}outcome",
        ) from None


def _seat_name(state: MatchState, position: int) -> str:
    seat = state.seat(position)
    return seat.player.name if seat is not None else str(position + 1)


def seat_check(state: MatchState, position: int | None, name: str, allowed: Sequence[int]) -> int:
    if position is None:
        raise ApplicationError(_("This field is required."), field=name)
    if state.seat(position) is None:
        raise ApplicationError(
            no_seat_message(position),
            field=name,
        )
    if position not in allowed:
        # Names, not positions: a person reads this on the entry page (seats count from 1
        # there, positions from 0).
        raise ApplicationError(
            _("%(name)s cannot be chosen here; choose one of: %(playing)s.")
            % {
                "name": _seat_name(state, position),
                "playing": ", ".join(_seat_name(state, p) for p in allowed),
            },
            field=name,
        )
    return position


def verdict_dict(result: HandResult, knocker: int | None, defender: int | None) -> dict[str, Any]:
    seat = {"knocker": knocker, "defender": defender}
    return {
        "outcome": result.outcome.value,
        "winner_role": result.winner,
        "winner": seat[result.winner] if result.winner else None,
        "knocker": knocker,
        "defender": defender,
        "points": result.points,
        "base_points": result.base_points,
        "multiplier": result.multiplier,
        "knock_limit": result.knock_limit,
        "knocker_deadwood": result.knocker_deadwood,
        "defender_deadwood": result.defender_deadwood,
        "defender_deadwood_before_layoffs": result.defender_deadwood_without_layoffs,
        "knocker_melds": [str(m) for m in result.knocker_melds],
        "knocker_melds_given": result.knocker_melds_given,
        "knocker_deadwood_cards": format_cards(result.knocker_deadwood_cards),
        "defender_melds": [str(m) for m in result.defender_melds],
        "defender_deadwood_cards": format_cards(result.defender_deadwood_cards),
        "layoffs": [
            {"card": format_card(lo.card), "onto": str(result.knocker_melds[lo.meld_index])}
            for lo in result.layoffs
        ],
        "upcard": format_card(result.upcard) if result.upcard is not None else None,
        "taken_from_discard": (
            format_card(result.taken_from_discard)
            if result.taken_from_discard is not None
            else None
        ),
        "gem_bonus_knocker": result.gem_bonus_knocker,
        "gem_bonus_defender": result.gem_bonus_defender,
        "formula": result.formula(),
        "formula_message": result.formula_message().as_dict(),
        "explanation": result.explain(),
        "explanation_messages": [line.as_dict() for line in result.explain_messages()],
    }


def scored_dict(hand: ScoredHand) -> dict[str, Any]:
    return {
        "winner": hand.winner,
        "points": hand.points,
        "outcome": hand.outcome.value,
        "others": [list(o) for o in hand.others],
    }


def deck_map_of(state: MatchState) -> DeckMap | None:
    """The club's Gem deck map (which gem each card carries: club data, RULES.md §8), or None
    when the club has not given one, in which case Gem hands are entered by counts."""
    club_id = organiser().terms_for(match=state.match).club_id
    raw = Club.objects.filter(pk=club_id).values_list("gem_deck_map", flat=True).first()
    return DeckMap.from_mapping(raw) if raw else None
