"""Two players and partnership boards: each board scored with the engine as two players."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.i18n import engine_message
from engine.cards import parse_card
from engine.errors import EngineError, Message, gettext_noop
from engine.game import ScoredHand
from engine.scoring import (
    HandOutcome,
    HandResult,
    Role,
    check_claim,
    score_hand,
    score_hand_counts,
    score_partnership_hand,
)
from scoring.selectors import HandContext, MatchState
from scoring.services.entries.kinds import (
    DeadHand,
    PartnershipEntry,
    Prepared,
    TwoPlayerEntry,
)
from scoring.services.entries.verdicts import (
    deck_map_of,
    parse_outcome,
    refused_error,
    scored_dict,
    seat_check,
    verdict_dict,
)


def _board(
    state: MatchState,
    entry: TwoPlayerEntry,
    playing: Sequence[int],
    *,
    prefix: str = "",
    partnership: bool = False,
) -> tuple[str, HandResult, int | None, int | None]:
    """Score one two-player board with the engine: (entry kind, result, knocker, defender)."""
    rules = state.rules
    outcome = parse_outcome(entry.outcome, prefix)
    by_cards = entry.knocker_cards is not None or entry.defender_cards is not None
    try:
        upcard = parse_card(entry.upcard) if entry.upcard else None
    except EngineError as exc:
        raise ApplicationError(
            engine_message(Message(gettext_noop("Upcard: {reason}"), reason=exc.message)),
            field=f"{prefix}upcard",
        ) from None
    if entry.taken_from_discard is not None and not by_cards:
        raise ApplicationError(
            _(
                "The card taken from the discard pile is checked against the knocker's cards:"
                " enter the hand by cards."
            ),
            field=f"{prefix}taken_from_discard",
        )
    if outcome is HandOutcome.DEAD:
        if by_cards:
            raise ApplicationError(
                _("A dead hand is entered without cards."), field=f"{prefix}knocker_cards"
            )
        try:
            dead = score_hand_counts(
                rules,
                outcome=HandOutcome.DEAD,
                knocker_deadwood=entry.knocker_deadwood,
                defender_deadwood=entry.defender_deadwood,
                upcard=upcard,
            )
        except EngineError as exc:
            raise refused_error(exc, prefix) from None
        return "dead", dead, None, None
    knocker = seat_check(state, entry.knocker, f"{prefix}knocker", playing)
    if partnership or entry.defender is not None:
        defender = seat_check(state, entry.defender, f"{prefix}defender", playing)
    else:
        others = [p for p in playing if p != knocker]
        if len(others) != 1:
            raise ApplicationError(_("Name the defender."), field=f"{prefix}defender")
        defender = others[0]
    if defender == knocker or state.side_of(defender) == state.side_of(knocker):
        raise ApplicationError(
            _("The knocker and the defender must be opponents."), field=f"{prefix}defender"
        )
    claimed_winner: Role | None = None
    if entry.winner is not None:
        if entry.winner not in (knocker, defender):
            raise ApplicationError(
                _("The winner must be the knocker or the defender."), field=f"{prefix}winner"
            )
        claimed_winner = "knocker" if entry.winner == knocker else "defender"
    try:
        if by_cards:
            if entry.knocker_cards is None or entry.defender_cards is None:
                missing = "knocker_cards" if entry.knocker_cards is None else "defender_cards"
                raise ApplicationError(
                    _("Enter both hands by cards, or neither."), field=f"{prefix}{missing}"
                )
            result = score_hand(
                rules,
                knocker_cards=entry.knocker_cards,
                defender_cards=entry.defender_cards,
                knocker_melds=entry.knocker_melds,
                upcard=upcard,
                knock_limit=entry.knock_limit,
                diamond_number=entry.diamond_number,
                deck_map=deck_map_of(state) if rules.family == "gem" else None,
                taken_from_discard=entry.taken_from_discard,
            )
            check_claim(
                result,
                claimed_outcome=outcome,
                claimed_knocker_deadwood=entry.knocker_deadwood,
                claimed_defender_deadwood=entry.defender_deadwood,
                claimed_points=entry.points,
                claimed_winner=claimed_winner,
            )
            kind = "cards"
        else:
            if outcome is None:
                raise ApplicationError(
                    _("Give the outcome, or enter the hand by cards."), field=f"{prefix}outcome"
                )
            result = score_hand_counts(
                rules,
                outcome=outcome,
                knocker_deadwood=entry.knocker_deadwood,
                defender_deadwood=entry.defender_deadwood,
                defender_deadwood_without_layoffs=entry.defender_deadwood_before_layoffs,
                winner=claimed_winner,
                upcard=upcard,
                knock_limit=entry.knock_limit,
                knocker_gem_bonus=entry.knocker_gem_bonus,
                defender_gem_bonus=entry.defender_gem_bonus,
            )
            check_claim(result, claimed_points=entry.points)
            kind = "counts"
    except EngineError as exc:
        raise refused_error(exc, prefix) from None
    return kind, result, knocker, defender


def prepare_two(state: MatchState, ctx: HandContext, entry: TwoPlayerEntry) -> Prepared:
    kind, result, knocker, defender = _board(state, entry, ctx.playing)
    if knocker is None or defender is None:
        hand = ScoredHand.dead()
    else:
        hand = ScoredHand.from_hand(result, knocker=knocker, defender=defender)
    verdict = verdict_dict(result, knocker, defender)
    verdict["scored"] = scored_dict(hand)
    return Prepared(kind, entry.as_payload(), verdict)


def prepare_partnership(
    state: MatchState, ctx: HandContext, entry: PartnershipEntry | DeadHand
) -> Prepared:
    rules = state.rules
    if isinstance(entry, DeadHand) or (
        entry.outcome == HandOutcome.DEAD.value and not entry.boards
    ):
        verdict: dict[str, Any] = {
            "outcome": "dead",
            "winner": None,
            "points": 0,
            "team_points": [0, 0],
            "boards": [],
            "winner_team": None,
            "scored": scored_dict(ScoredHand.dead()),
        }
        return Prepared("dead", entry.as_payload(), verdict)
    if len(entry.boards) != 2:
        raise ApplicationError(_("A partnership hand has two boards: enter both."), field="boards")
    results: list[HandResult] = []
    verdicts: list[dict[str, Any]] = []
    teams: list[int] = []
    seats_used: list[int] = []
    kinds: set[str] = set()
    for index, board in enumerate(entry.boards):
        prefix = f"boards[{index}]."
        kind, result, knocker, defender = _board(
            state, board, ctx.playing, prefix=prefix, partnership=board.outcome != "dead"
        )
        kinds.add(kind)
        results.append(result)
        verdicts.append(verdict_dict(result, knocker, defender))
        if knocker is not None and defender is not None:
            seats_used += [knocker, defender]
            teams.append(state.side_of(knocker))
        else:
            teams.append(0)
    if len(set(seats_used)) != len(seats_used):
        raise ApplicationError(_("Each player plays on one board only."), field="boards[1].knocker")
    try:
        combined = score_partnership_hand(
            rules, results[0], results[1], knocker_team_a=teams[0], knocker_team_b=teams[1]
        )
    except EngineError as exc:
        raise refused_error(exc, "boards.") from None
    hand = ScoredHand.from_partnership(combined)
    verdict = {
        "outcome": "dead" if hand.winner is None else combined.outcome.value,
        "winner": combined.winner,
        "winner_team": combined.winner,
        "points": combined.points,
        "team_points": list(combined.team_points),
        "boards": verdicts,
        "scored": scored_dict(hand),
    }
    kind = "cards" if "cards" in kinds else ("dead" if kinds == {"dead"} else "counts")
    return Prepared(kind, entry.as_payload(), verdict)
