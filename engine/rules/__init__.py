"""Rule sets: every parameter of docs/rules.md §3-§8 in one value, and the presets of §6.

This module owns the *parameters* only; scoring lives in :mod:`engine.scoring`, :mod:`engine.game`,
:mod:`engine.gem` and :mod:`engine.rummy`. It must not compute scores or import anything but the
standard library and :mod:`engine.errors`.

A rule set is validated when it is built: an impossible combination raises
:class:`~engine.errors.RuleError` with a message that names the parameter and what is allowed.

Decisions where the rule texts are silent (each is a parameter a club may change):

- ``next_dealer``: who deals the next hand after a scored hand. Seed 000 (``standard``) says the
  loser deals; seed 003 (``gem``) says the winner deals; seed 004 (``online-table``) alternates;
  pagat's ``classic`` alternates; Basic Rummy passes the deal to the left (``rotate``). In the box
  (``three-box``) the box deals every hand and the box is always the previous hand's winner, so
  ``winner``. A dead hand is always dealt again by the same dealer (§3.5).
- ``max_hands``: a fixed number of (non-dead) hands, for Basic Rummy's "or N hands" (§7); when both
  ``target`` and ``max_hands`` are set the game ends at whichever comes first.
- ``ace_upcard_gin_only``: Oklahoma's "ace = gin only" (§6) is a parameter, on in the preset.
- ``last_hand_tiebreak``: a tie for the lead when the game ends goes to the player with more points
  in the last hand (§4, Gem's rule, on in every preset): that player ended the game and takes the
  game bonus (the winner is then decided on the final totals, :mod:`engine.game`); if that is
  tied too, or the parameter is off, the game goes on for another hand.
- ``hollywood_games``: 0 for an ordinary game, else the number of Hollywood columns (3 in §4).
- The preset ``online-table`` plays a single hand by default (seed 004: "한 판(기본값)", one hand
  is the default match length) so its ``target`` is ``None``; the seed's other option, a match to
  100, is ``find_rules("online-table", target=100)``.
- ``name`` is the preset a rule set started from; :meth:`RuleSet.with_overrides` keeps it, and
  :meth:`RuleSet.to_dict` records every value, so a stored rule set never depends on a preset
  staying the same.

The package: :mod:`~engine.rules.parameters` (the allowed values of each parameter) and
:mod:`~engine.rules.ruleset` (:class:`RuleSet`, the presets, :func:`find_rules`). Import from
``engine.rules``.
"""

from engine.rules.parameters import (
    FAMILIES,
    KNOCK_LIMIT_MODES,
    NEXT_DEALER_RULES,
    SHUTOUT_RULES,
    TABLES,
)
from engine.rules.ruleset import RULE_PRESETS, RuleSet, find_rules

__all__ = [
    "FAMILIES",
    "KNOCK_LIMIT_MODES",
    "NEXT_DEALER_RULES",
    "RULE_PRESETS",
    "SHUTOUT_RULES",
    "TABLES",
    "RuleSet",
    "find_rules",
]
