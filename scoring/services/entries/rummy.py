"""Rummy: the player who went out, the melds and the cards left in every other hand."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.i18n import engine_message
from engine.cards import format_cards
from engine.errors import EngineError
from engine.rummy import RummyHandResult, score_rummy_hand
from scoring.selectors import HandContext, MatchState
from scoring.services.entries.kinds import Prepared, RummyEntry
from scoring.services.entries.verdicts import scored_dict, seat_check


def prepare_rummy(state: MatchState, ctx: HandContext, entry: RummyEntry) -> Prepared:
    went_out = seat_check(state, entry.went_out, "went_out", ctx.playing)
    leftovers = entry.leftovers or {}
    try:
        result: RummyHandResult = score_rummy_hand(
            state.rules,
            players=len(state.seats),
            went_out=went_out,
            rummy=entry.rummy,
            leftovers=leftovers,
        )
    except EngineError as exc:
        raise ApplicationError(
            engine_message(exc), field="leftovers" if "went out" not in str(exc) else "went_out"
        ) from None
    if entry.points is not None and entry.points != result.points:
        raise ApplicationError(
            _("The hand scores %(points)s, not %(claimed)s.")
            % {"points": result.points, "claimed": entry.points},
            field="points",
        )
    hand = result.to_scored_hand()
    verdict = {
        "outcome": "rummy" if result.rummy else "out",
        "winner": went_out,
        "went_out": went_out,
        "rummy": result.rummy,
        "multiplier": result.multiplier,
        "counts": list(result.counts),
        "cards_left": [format_cards(c) if c is not None else None for c in result.cards_left],
        "points": result.points,
        "scored": scored_dict(hand),
    }
    return Prepared("rummy", entry.as_payload(), verdict)
