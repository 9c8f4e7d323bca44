"""Scoring one hand of the gin family, by family (docs/rules.md §3, Oklahoma §6, Gem §8, §9 checks).

A hand is entered either **by cards** (:func:`score_hand`: the engine arranges both hands, picks or
validates the knocker's melds, lays off, and scores) or **by counts** (:func:`score_hand_counts`:
the entry is checked for what counts alone can show). :func:`check_claim` compares what a player
claims with the engine's result and explains the difference. Partnership hands combine two boards
(:func:`score_partnership_hand`); three-player Gem hands score the knocker against each defender
(:func:`score_gem_three_hand`). This package must not add hands into games (:mod:`engine.game`)
and must not do I/O. Basic Rummy, which has no knock, is scored by :mod:`engine.rummy`.

One module per part, and this package re-exports every public name, so callers import from
``engine.scoring`` only:

- :mod:`engine.scoring.outcome`: what every family shares: :class:`HandOutcome`, :data:`Role`,
  the verdict :class:`HandResult` with its formula and explanation, and :func:`dead_hand`.
- :mod:`engine.scoring.two_player`: the two-player knock, gin and undercut: the knock limit, the
  deadwood a count may claim, the outcome and the points, and a hand entered by counts.
- :mod:`engine.scoring.by_cards`: a two-player hand entered by cards, and the knock discard check.
- :mod:`engine.scoring.claims`: a player's claim against the engine's verdict.
- :mod:`engine.scoring.partnership`: four players, two boards, two teams.
- :mod:`engine.scoring.gem_three`: three-player Gem, the knocker against two defenders.

Decisions where the rule texts are silent:

- ``knocker_min_points`` applies to every hand the knocker wins (knock, gin, big gin); in Gem
  Rummy gin is at least 25 anyway, so only knocks feel it.
- Points are multiplied (Oklahoma's spade upcard) after the knocker's minimum is applied.
- ``points`` is what the hand's winner scores for the hand; Gem's gem parts bonus is kept apart
  (``gem_bonus_knocker`` / ``gem_bonus_defender``, either player may earn it) and
  :meth:`HandResult.score_for` adds it.
- The knocker enters the cards left after the discard; for big gin, the cards held after the draw
  (one more). A knock with no deadwood is gin, and is scored as gin.
- A knock limit entered with a hand must agree with the rule set (a die roll 1-6 for Gem's
  ``dice``; Oklahoma takes the upcard instead). An ace upcard in Oklahoma allows gin only when
  ``ace_upcard_gin_only``, else the limit is 1.
- By cards, Gem Rummy needs the club's deck map and the diamond number; without a deck map Gem
  hands are entered by counts. Each non-knocker of a three-player Gem hand is scored as a separate
  two-player hand against the knocker.
- Partnership (seed 000: add your points to your partner's and compare with the other team's
  sum): a board's points go to its winner's team; the team with the higher sum scores the
  difference and wins the hand (for the box bonus); equal sums score nothing, no team wins the
  hand, and it is kept like a dead hand (the same dealer deals again). See
  :func:`score_partnership_hand`.
- Three-player Gem (:func:`score_gem_three_hand`, :func:`score_gem_three_counts`,
  :func:`combine_gem_three`): the knocker lays down one set of melds; the defenders lay off in
  turn, one card at a time, clockwise, onto those melds as they grow, cards the other defender
  laid off included (seed 003; :func:`engine.gem.lay_off_in_turn`). Each defender is then scored
  against the knocker separately: each pairing is a two-player hand with its own outcome, minimum
  and undercut, so the knocker may win against one defender and be undercut by the other.
  Without melds given, the knocker shows the least-deadwood arrangement that leaves the two
  defenders together the most deadwood after lay-offs (§3.2 for two defenders; ties to the
  first). The gem parts bonus is once per player per hand (16 to the knocker, 8 to each
  defender). The hand's winner (who deals next, and the game's record of hands won) is the
  player credited with the most this hand; a tie goes to the knocker, then to the first defender.

>>> from engine.rules import find_rules
>>> score_hand_counts(find_rules("standard"), outcome=HandOutcome.GIN,
...                   knocker_deadwood=0, defender_deadwood=12).points  # 25 + 12
37
"""

from engine.scoring.by_cards import check_knock_discard, score_hand
from engine.scoring.claims import check_claim
from engine.scoring.gem_three import (
    GemThreeHandResult,
    combine_gem_three,
    score_gem_three_counts,
    score_gem_three_hand,
)
from engine.scoring.outcome import HandOutcome, HandResult, Role, dead_hand
from engine.scoring.partnership import PartnershipHandResult, score_partnership_hand
from engine.scoring.two_player import hand_knock_limit, max_deadwood, score_hand_counts

__all__ = [
    "GemThreeHandResult",
    "HandOutcome",
    "HandResult",
    "PartnershipHandResult",
    "Role",
    "check_claim",
    "check_knock_discard",
    "combine_gem_three",
    "dead_hand",
    "hand_knock_limit",
    "max_deadwood",
    "score_gem_three_counts",
    "score_gem_three_hand",
    "score_hand",
    "score_hand_counts",
    "score_partnership_hand",
]
