"""Game and match scoring: running totals, end of game, bonuses, dealers, Hollywood, seat rotation.

This module owns the game rules of ``docs/rules.md`` (a game, Hollywood) and the seating of three
and four players. It adds up hands that are already scored
(:class:`ScoredHand`, built from a :class:`~engine.scoring.HandResult`, a partnership hand or a
Basic Rummy hand); it never looks at cards. Players are indices ``0 .. n-1`` (teams in a
partnership game). It must not do I/O.

Decisions where the rule texts are silent:

- A game that has not reached its end is a valid, unfinished :class:`GameResult` (a score sheet
  in progress): ``finished`` is false, there is no winner and no end bonus yet.
- The game ends after the first hand in which a total reaches ``target``, or after ``max_hands``
  scored hands, or (both ``None``) after the first scored hand. The player who ended it (the
  highest running total; a tie for that lead goes to the tied player who scored more in the last
  hand, ``last_hand_tiebreak``, and if that does not separate them the game goes on for another
  hand) takes the game bonus: :attr:`GameResult.ended_by`. Dead hands never count as hands (not
  toward ``max_hands``, not as hands won).
- **The winner is decided on the final totals** (seed 000: after all the tallying, game bonus,
  box bonuses and shutout, the highest total wins). With box bonuses the player who reached the
  target can lose: six hands of 15 for player 0 (90) and then one hand of 100 for player 1 end
  the standard game at 90 + 6 × 25 = 240 against 100 + 100 + 25 = 225, so player 0 wins by 15.
  A tie on the final totals goes to the player who ended the game (``final_tie`` is then true and
  the margin 0). The same holds for teams in a partnership game and for each Hollywood column.
- Shutout: the opponents of the player who ended the game together won no hand (a hand won with
  0 points is a hand won). ``double_total`` doubles that player's whole final total, game and box
  bonuses included.
- Margin: the winner's final total minus the best final total among the others (never negative).
- Dealers: after a dead hand the same dealer deals again (§3.5); otherwise the rule set's
  ``next_dealer`` (``loser``, ``winner``, ``rotate``). In the box the box deals, and the box is
  always the last hand's winner; at a dealer-out table the deal rotates and the dealer sits out.
- Hollywood: see :func:`score_hollywood`. No won hand vanishes: a closed column takes no more
  entries, and a player who never scored in a column that has closed enters their next win as
  their first score in the next column still open.
- Best-of-k matches: ``k`` is odd; the first dealer of each later game is the player who would
  have dealt the next hand of the game before.

The package holds one idea a module: :mod:`~engine.game.hands` (:class:`ScoredHand`),
:mod:`~engine.game.seats` (dealers, the box, dealer-out seats), :mod:`~engine.game.tally`
(one game: :func:`score_game`, :func:`score_three_box`), :mod:`~engine.game.hollywood` and
:mod:`~engine.game.match` and :mod:`~engine.game.stands` (a match scored as it stands at
time). Import from ``engine.game``.
"""

from engine.game.hands import ScoredHand
from engine.game.hollywood import HollywoodResult, score_hollywood
from engine.game.match import MATCH_KINDS, MatchFormat, MatchResult, score_match
from engine.game.seats import BoxRoles, dealer_out_seats, table_seats, three_box_roles
from engine.game.stands import StandingResult, score_as_it_stands
from engine.game.tally import GameResult, score_game, score_three_box

__all__ = [
    "MATCH_KINDS",
    "BoxRoles",
    "GameResult",
    "HollywoodResult",
    "MatchFormat",
    "MatchResult",
    "ScoredHand",
    "StandingResult",
    "dealer_out_seats",
    "score_as_it_stands",
    "score_game",
    "score_hollywood",
    "score_match",
    "score_three_box",
    "table_seats",
    "three_box_roles",
]
