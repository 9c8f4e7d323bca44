"""A player's claim against the engine's verdict: every difference, with its proof.

:func:`check_claim` compares a claimed outcome, deadwood counts, winner and points with a
:class:`~engine.scoring.HandResult` and raises one :class:`~engine.errors.ScoreError` listing each
difference with the arrangement, lay-offs or formula that shows it.
"""

from __future__ import annotations

from engine.errors import Message, ScoreError, gettext_noop, joined
from engine.rules import RuleSet
from engine.scoring.outcome import (
    HandOutcome,
    HandResult,
    Role,
    formula_text,
    layoff_text,
    role_text,
    shown_text,
)
from engine.scoring.two_player import outcome_reason

__all__ = ["check_claim"]


def check_claim(
    result: HandResult,
    *,
    claimed_outcome: HandOutcome | None = None,
    claimed_knocker_deadwood: int | None = None,
    claimed_defender_deadwood: int | None = None,
    claimed_points: int | None = None,
    claimed_winner: Role | None = None,
) -> None:
    """Raise :class:`ScoreError` when a claim differs from the engine's result, with the proof.

    Every difference is listed, each with the arrangement, lay-offs or formula that shows it.

    >>> from engine.scoring import score_hand_counts
    >>> r = score_hand_counts(RuleSet(), outcome=HandOutcome.KNOCK,
    ...                       knocker_deadwood=7, defender_deadwood=22)
    >>> check_claim(r, claimed_points=16)
    Traceback (most recent call last):
    ...
    engine.errors.ScoreError: The knocker scores 15, not 16: defender 22 − knocker 7 = 15
    """
    problems: list[Message] = []
    if claimed_outcome is not None and claimed_outcome is not result.outcome:
        if result.is_dead or claimed_outcome is HandOutcome.DEAD:
            problems.append(
                Message(
                    gettext_noop("{outcome}, not {claimed}"),
                    outcome=result.outcome.capital_message,
                    claimed=claimed_outcome.label_message,
                )
            )
        else:
            problems.append(
                outcome_reason(
                    _rules_for(result),
                    result.outcome,
                    claimed_outcome,
                    result.knocker_deadwood or 0,
                    result.defender_deadwood or 0,
                )
            )
    if claimed_knocker_deadwood is not None and claimed_knocker_deadwood != result.knocker_deadwood:
        if result.by_cards:
            problems.append(
                Message(
                    gettext_noop("The knocker's deadwood is {deadwood}, not {claimed} ({shown})"),
                    deadwood=result.knocker_deadwood,
                    claimed=claimed_knocker_deadwood,
                    shown=shown_text(result.knocker_melds, result.knocker_deadwood_cards),
                )
            )
        else:
            problems.append(
                Message(
                    gettext_noop("The knocker's deadwood is {deadwood}, not {claimed}"),
                    deadwood=result.knocker_deadwood,
                    claimed=claimed_knocker_deadwood,
                )
            )
    if (
        claimed_defender_deadwood is not None
        and claimed_defender_deadwood != result.defender_deadwood
    ):
        problems.append(_defender_reason(result, claimed_defender_deadwood))
    if claimed_winner is not None and claimed_winner != result.winner:
        problems.append(
            Message(
                gettext_noop("The {winner} wins the hand, not the {claimed}"),
                winner=role_text(result.winner),
                claimed=role_text(claimed_winner),
            )
        )
    if claimed_points is not None and claimed_points != result.points:
        problems.append(
            Message(
                gettext_noop("The {winner} scores {points}, not {claimed}: {formula}")
                if result.winner
                else gettext_noop("Nobody scores {points}, not {claimed}: {formula}"),
                winner=role_text(result.winner),
                points=result.points,
                claimed=claimed_points,
                formula=formula_text(result),
            )
        )
    if problems:
        reason = joined(gettext_noop("{first}; {rest}"), problems)
        assert isinstance(reason, Message)  # at least one problem, each a message
        raise ScoreError(reason)


def _rules_for(result: HandResult) -> RuleSet:
    """A rule set that reproduces ``result``'s tie rule, for explaining an outcome."""
    tie_undercut = (
        result.outcome is HandOutcome.UNDERCUT
        and result.knocker_deadwood == result.defender_deadwood
    )
    return RuleSet(undercut_on_tie=tie_undercut)


def _defender_reason(result: HandResult, claimed: int) -> Message:
    left = result.defender_deadwood
    if not result.by_cards:
        return Message(
            gettext_noop("The defender's deadwood is {deadwood}, not {claimed}"),
            deadwood=left,
            claimed=claimed,
        )
    shown = shown_text(result.defender_melds, result.defender_deadwood_cards)
    if result.layoffs:
        template = gettext_noop(
            "Defender lays off {layoffs}: {deadwood} left, not {claimed} ({shown})"
        )
    elif result.outcome in (HandOutcome.GIN, HandOutcome.BIG_GIN):
        template = gettext_noop(
            "The defender's deadwood is {deadwood}, not {claimed}:"
            " no lay-offs against gin ({shown})"
        )
    else:
        template = gettext_noop("The defender's deadwood is {deadwood}, not {claimed} ({shown})")
    return Message(
        template, layoffs=layoff_text(result), deadwood=left, claimed=claimed, shown=shown
    )
