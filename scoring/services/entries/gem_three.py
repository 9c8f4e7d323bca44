"""Three-player Gem Rummy: the knocker against each non-knocker separately (RULES.md §8)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.i18n import engine_message
from engine.cards import format_cards
from engine.errors import EngineError, Message
from engine.game import ScoredHand
from engine.scoring import (
    GemThreeHandResult,
    HandOutcome,
    check_claim,
    score_gem_three_counts,
    score_gem_three_hand,
)
from scoring.selectors import HandContext, MatchState
from scoring.services.entries.kinds import (
    GemThreeEntry,
    Prepared,
    TwoPlayerEntry,
    build_entry,
)
from scoring.services.entries.two_player import prepare_two
from scoring.services.entries.verdicts import (
    deck_map_of,
    field_for,
    parse_outcome,
    scored_dict,
    seat_check,
    verdict_dict,
)

# The fields of an engine message that belong to one defender's pairing.
_DEFENDER_FIELDS = frozenset(
    {
        "defender_cards",
        "defender_deadwood",
        "defender_deadwood_before_layoffs",
        "outcome",
        "points",
        "winner",
    }
)


def _refused_pairing(exc: EngineError, index: int | None) -> ApplicationError:
    """An engine error about a three-player Gem hand, at the defender's field it is about.

    The engine says which pairing an error is about ("against defender N: …"); ``index`` is
    given for an error raised while checking one pairing's claims.
    """
    reason = exc.message
    number = exc.params.get("number")
    inner = exc.params.get("reason")
    if index is None and isinstance(number, int) and isinstance(inner, Message):
        index, reason = number - 1, inner
    name = field_for(str(reason))
    if index is not None and name in _DEFENDER_FIELDS:
        name = f"defenders[{index}].{name}"
    return ApplicationError(engine_message(exc), status=400, field=name)


def _gem_three_verdict(
    three: GemThreeHandResult, knocker: int, defenders: Sequence[int], hand: ScoredHand
) -> dict[str, Any]:
    seats = (knocker, *defenders)
    first = three.pairings[0]
    return {
        "outcome": three.outcome.value,
        "winner": seats[three.winner],
        "knocker": knocker,
        "defenders": list(defenders),
        "points": three.scores[three.winner],
        "scores": {str(seat): score for seat, score in zip(seats, three.scores, strict=True)},
        "knock_limit": three.knock_limit,
        "knocker_deadwood": three.knocker_deadwood,
        "knocker_melds": [str(m) for m in first.knocker_melds],
        "knocker_melds_given": first.knocker_melds_given,
        "knocker_deadwood_cards": format_cards(first.knocker_deadwood_cards),
        "gem_bonus_knocker": three.gem_bonus_knocker,
        "pairings": [
            verdict_dict(pairing, knocker, defender)
            for pairing, defender in zip(three.pairings, defenders, strict=True)
        ],
        "explanation": three.explain(),
        "explanation_messages": [line.as_dict() for line in three.explain_messages()],
        "scored": scored_dict(hand),
    }


def prepare_gem_three(state: MatchState, ctx: HandContext, entry: GemThreeEntry) -> Prepared:
    """A three-player Gem hand: one knock, scored against each defender separately.

    Entered by counts (the knocker's deadwood, and each defender's deadwood after lay-offs and
    outcome against the knocker) or by cards (all three hands, with the club's deck map). The
    hand's winner, who deals next, is the player credited with the most this hand.
    """
    rules = state.rules
    if entry.outcome == HandOutcome.DEAD.value and not entry.defenders:
        return prepare_two(state, ctx, build_entry(TwoPlayerEntry, entry.given(), ""))
    knocker = seat_check(state, entry.knocker, "knocker", ctx.playing)
    others = [p for p in ctx.playing if p != knocker]
    if len(entry.defenders) != 2:
        raise ApplicationError(
            _("Three players: enter the hand of each of the two defenders."), field="defenders"
        )
    seats: list[int] = []
    for index, given in enumerate(entry.defenders):
        seat = given.defender if given.defender is not None else others[index]
        seats.append(seat_check(state, seat, f"defenders[{index}].defender", others))
    if seats[0] == seats[1]:
        raise ApplicationError(
            _("The two defenders must be different players."), field="defenders[1].defender"
        )
    by_cards = entry.knocker_cards is not None or any(
        d.defender_cards is not None for d in entry.defenders
    )
    outcomes = [
        parse_outcome(d.outcome or entry.outcome, f"defenders[{i}].")
        for i, d in enumerate(entry.defenders)
    ]
    try:
        if by_cards:
            if entry.knocker_cards is None:
                raise ApplicationError(
                    _("Enter all three hands by cards, or none."), field="knocker_cards"
                )
            cards: list[str] = []
            for index, given in enumerate(entry.defenders):
                if given.defender_cards is None:
                    raise ApplicationError(
                        _("Enter all three hands by cards, or none."),
                        field=f"defenders[{index}].defender_cards",
                    )
                cards.append(given.defender_cards)
            three = score_gem_three_hand(
                rules,
                knocker_cards=entry.knocker_cards,
                defender_cards=cards,
                knocker_melds=entry.knocker_melds,
                knock_limit=entry.knock_limit,
                diamond_number=entry.diamond_number,
                deck_map=deck_map_of(state),
            )
            kind = "cards"
        else:
            missing = [i for i, o in enumerate(outcomes) if o is None]
            if missing:
                raise ApplicationError(
                    _("Give the outcome against each defender, or enter the hand by cards."),
                    field=f"defenders[{missing[0]}].outcome",
                )
            three = score_gem_three_counts(
                rules,
                outcomes=[o for o in outcomes if o is not None],
                knocker_deadwood=entry.knocker_deadwood,
                defender_deadwoods=[d.defender_deadwood for d in entry.defenders],
                defender_deadwoods_without_layoffs=[
                    d.defender_deadwood_before_layoffs for d in entry.defenders
                ],
                knock_limit=entry.knock_limit,
                knocker_gem_bonus=entry.knocker_gem_bonus,
                defender_gem_bonuses=[d.defender_gem_bonus for d in entry.defenders],
            )
            kind = "counts"
    except EngineError as exc:
        raise _refused_pairing(exc, None) from None
    for index, (pairing, given) in enumerate(zip(three.pairings, entry.defenders, strict=True)):
        try:
            check_claim(
                pairing,
                claimed_outcome=outcomes[index] if by_cards else None,
                claimed_knocker_deadwood=entry.knocker_deadwood if by_cards else None,
                claimed_defender_deadwood=given.defender_deadwood if by_cards else None,
                claimed_points=given.points,
            )
        except EngineError as exc:
            raise _refused_pairing(exc, index) from None
    hand = ScoredHand.from_gem_three(three, knocker=knocker, defenders=(seats[0], seats[1]))
    verdict = _gem_three_verdict(three, knocker, seats, hand)
    return Prepared(kind, entry.as_payload(), verdict)
