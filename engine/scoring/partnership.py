"""Partnership hands: four players, two boards, two teams (docs/rules.md §5, seed 000).

Each board is a two-player hand scored on its own; :func:`score_partnership_hand` adds each team's
points and gives the difference to the higher team.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import RuleError, ScoreError, gettext_noop
from engine.rules import RuleSet
from engine.scoring.outcome import HandOutcome, HandResult

__all__ = ["PartnershipHandResult", "score_partnership_hand"]


@dataclass(frozen=True, slots=True)
class PartnershipHandResult:
    """A four-player hand: two boards, each team's sum, and the difference to the higher team."""

    boards: tuple[HandResult, HandResult]
    knocker_teams: tuple[int, int]
    team_points: tuple[int, int]
    winner: int | None
    points: int
    outcome: HandOutcome


def score_partnership_hand(
    rules: RuleSet,
    board_a: HandResult,
    board_b: HandResult,
    *,
    knocker_team_a: int,
    knocker_team_b: int,
) -> PartnershipHandResult:
    """Combine two boards (docs/rules.md §5): each team adds its players' points; the higher sum
    scores the difference. ``knocker_team_*`` is the team (0 or 1) of each board's knocker.

    Seed 000 says only that partners add their points and compare them with the other team's
    sum to decide who wins. Knock reads it as scoring the **difference** for the higher team (as a
    knock scores the difference of deadwood): below, team 0 knocks 25 − 5 = 20 on board A and
    team 1 goes gin on board B, 25 + 12 = 37, so team 1 wins the hand with 37 − 20 = 17. Equal
    sums score nothing and no team wins the hand.

    >>> from engine.scoring import score_hand_counts
    >>> a = score_hand_counts(RuleSet(), outcome=HandOutcome.KNOCK,
    ...                       knocker_deadwood=5, defender_deadwood=25)
    >>> b = score_hand_counts(RuleSet(), outcome=HandOutcome.GIN,
    ...                       knocker_deadwood=0, defender_deadwood=12)
    >>> p = score_partnership_hand(RuleSet(table="partnership"), a, b,
    ...                            knocker_team_a=0, knocker_team_b=1)
    >>> p.team_points, p.winner, p.points  # 20 against 25 + 12
    ((20, 37), 1, 17)
    """
    if rules.table != "partnership":
        raise RuleError(
            gettext_noop("A partnership hand needs a 'partnership' rule set, not table '{table}'"),
            table=rules.table,
        )
    teams = (knocker_team_a, knocker_team_b)
    if any(team not in (0, 1) for team in teams):
        raise ScoreError(gettext_noop("A knocker's team is 0 or 1, not {teams}"), teams=str(teams))
    sums = [0, 0]
    for board, team in zip((board_a, board_b), teams, strict=True):
        sums[team] += board.score_for("knocker")
        sums[1 - team] += board.score_for("defender")
    if sums[0] == sums[1]:
        winner, points = None, 0
        outcome = HandOutcome.DEAD
    else:
        winner = 0 if sums[0] > sums[1] else 1
        points = abs(sums[0] - sums[1])
        outcome = HandOutcome.KNOCK
    return PartnershipHandResult(
        boards=(board_a, board_b),
        knocker_teams=(knocker_team_a, knocker_team_b),
        team_points=(sums[0], sums[1]),
        winner=winner,
        points=points,
        outcome=outcome,
    )
