"""One entered hand as a game sees it (:class:`ScoredHand`), built from any kind of scored hand.

Part of :mod:`engine.game`; players are indices ``0 .. n-1``. It never looks at cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import ScoreError, gettext_noop
from engine.scoring import (
    GemThreeHandResult,
    HandOutcome,
    HandResult,
    PartnershipHandResult,
    Role,
)

__all__ = ["ScoredHand"]


@dataclass(frozen=True, slots=True)
class ScoredHand:
    """One entered hand as the game sees it: who won it and what each player is credited.

    ``winner`` is a player index, or ``None`` for a dead hand. ``points`` go to the winner;
    ``others`` are extra credits to players who did not win the hand (Gem Rummy's 8-point gem
    bonus to a non-knocker), as ``(player, points)`` pairs. ``dealer`` is checked when given.

    >>> ScoredHand(winner=1, points=12).credits()
    {1: 12}
    >>> ScoredHand(winner=None, points=5)
    Traceback (most recent call last):
    ...
    engine.errors.ScoreError: A knock hand needs a winner; only a dead hand has none
    """

    winner: int | None
    points: int = 0
    outcome: HandOutcome = HandOutcome.KNOCK
    others: tuple[tuple[int, int], ...] = ()
    dealer: int | None = None

    def __post_init__(self) -> None:
        if self.outcome is HandOutcome.DEAD:
            if self.winner is not None:
                raise ScoreError(
                    gettext_noop("A dead hand has no winner, not player {player}"),
                    player=self.winner,
                )
            if self.points or self.others:
                raise ScoreError(
                    gettext_noop("A dead hand scores nothing: points must be 0, not {points}"),
                    points=self.points,
                )
        elif self.winner is None:
            raise ScoreError(
                gettext_noop("A {outcome} hand needs a winner; only a dead hand has none"),
                outcome=self.outcome.label_message,
            )
        if self.points < 0:
            raise ScoreError(
                gettext_noop("Points must not be negative, not {points}"), points=self.points
            )
        seen = {self.winner}
        for player, points in self.others:
            if player in seen:
                raise ScoreError(
                    gettext_noop("Player {player} is credited twice in one hand"), player=player
                )
            if points <= 0:
                raise ScoreError(
                    gettext_noop("An extra credit must be positive, not {points}"), points=points
                )
            seen.add(player)

    @classmethod
    def dead(cls, *, dealer: int | None = None) -> ScoredHand:
        """A dead hand (no score, same dealer again).

        >>> ScoredHand.dead().outcome.value
        'dead'
        """
        return cls(winner=None, outcome=HandOutcome.DEAD, dealer=dealer)

    @classmethod
    def from_hand(
        cls, result: HandResult, *, knocker: int, defender: int, dealer: int | None = None
    ) -> ScoredHand:
        """Map a two-player :class:`~engine.scoring.HandResult` onto player indices."""
        if knocker == defender:
            raise ScoreError(
                gettext_noop(
                    "The knocker and the defender must be different players, not {player}"
                ),
                player=knocker,
            )
        if result.winner is None:
            return cls.dead(dealer=dealer)
        seat = {"knocker": knocker, "defender": defender}
        winner = seat[result.winner]
        loser_role: Role = "defender" if result.winner == "knocker" else "knocker"
        loser_credit = result.score_for(loser_role)
        return cls(
            winner=winner,
            points=result.score_for(result.winner),
            outcome=result.outcome,
            others=((seat[loser_role], loser_credit),) if loser_credit else (),
            dealer=dealer,
        )

    @classmethod
    def from_gem_three(
        cls,
        result: GemThreeHandResult,
        *,
        knocker: int,
        defenders: tuple[int, int],
        dealer: int | None = None,
    ) -> ScoredHand:
        """Map a three-player Gem hand onto player indices: its winner (the most credited) wins
        the hand; every other player credited this hand is in ``others``.

        >>> from engine.rules import find_rules
        >>> from engine.scoring import combine_gem_three, score_hand_counts
        >>> gem3 = find_rules("gem").with_overrides(table="open")
        >>> a = score_hand_counts(gem3, outcome=HandOutcome.UNDERCUT, knock_limit=5,
        ...                       knocker_deadwood=4, defender_deadwood=2)
        >>> b = score_hand_counts(gem3, outcome=HandOutcome.KNOCK, knock_limit=5,
        ...                       knocker_deadwood=4, defender_deadwood=9)
        >>> three = combine_gem_three(gem3, a, b)
        >>> hand = ScoredHand.from_gem_three(three, knocker=2, defenders=(0, 1))
        >>> hand.winner, hand.points, hand.others
        (0, 25, ((2, 11),))
        """
        seats = (knocker, *defenders)
        if len(set(seats)) != 3:
            raise ScoreError(
                gettext_noop(
                    "The knocker and the two defenders must be three different players,"
                    " not {knocker}, {first}, {second}"
                ),
                knocker=knocker,
                first=defenders[0],
                second=defenders[1],
            )
        winner = seats[result.winner]
        return cls(
            winner=winner,
            points=result.scores[result.winner],
            outcome=result.outcome,
            others=tuple(
                (seat, score)
                for seat, score in zip(seats, result.scores, strict=True)
                if seat != winner and score
            ),
            dealer=dealer,
        )

    @classmethod
    def from_partnership(
        cls, result: PartnershipHandResult, *, dealer: int | None = None
    ) -> ScoredHand:
        """A partnership hand as a hand between teams 0 and 1."""
        if result.winner is None:
            return cls.dead(dealer=dealer)
        return cls(
            winner=result.winner, points=result.points, outcome=result.outcome, dealer=dealer
        )

    def credits(self) -> dict[int, int]:
        """Points credited to each player in this hand (the winner first)."""
        out: dict[int, int] = {} if self.winner is None else {self.winner: self.points}
        out.update(self.others)
        return out
