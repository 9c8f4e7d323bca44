"""The vocabulary of the event settings form: the rule parameters, match formats and tie-breaks
it offers, with their labels and help, and which event options it offers (the options themselves
are declared in :mod:`tournaments.options`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from engine.rules import (
    FAMILIES,
    NEXT_DEALER_RULES,
    SHUTOUT_RULES,
    TABLES,
)
from tournaments.models import Event
from tournaments.options import OPTIONS, Option

# -- event settings ----------------------------------------------------------------------------


CHOICE_LABELS: dict[str, Any] = {
    "gin": _("gin rummy"),
    "gem": _("Gem Rummy"),
    "rummy": _("Basic Rummy"),
    "two": _("two players"),
    "three_box": _("three, in the box"),
    "three_dealer_out": _("three, dealer sits out"),
    "partnership": _("partnership (four)"),
    "open": _("open table (2-6)"),
    "add_game_bonus": _("adds the game bonus again"),
    "double_total": _("doubles the total"),
    "none": _("nothing extra"),
    "loser": _("the loser"),
    "winner": _("the winner"),
    "rotate": _("the next seat"),
}
"""Readable names of the rule parameters' choices (the stored value is the engine's word)."""


@dataclass(frozen=True)
class RuleParam:
    """How one ``engine.rules.RuleSet`` parameter is edited on the event form."""

    name: str
    label: Any
    kind: str  # int, int?, bool, choice, limit, deal
    main: bool = True
    help: Any = ""
    choices: tuple[str, ...] = ()


RULE_PARAMS: tuple[RuleParam, ...] = (
    RuleParam(
        "knock_limit",
        _("Knock limit"),
        "limit",
        help=_("Points of deadwood a knocker may hold (0-100), or upcard (Oklahoma), dice (Gem)."),
    ),
    RuleParam("gin_bonus", _("Gin bonus"), "int"),
    RuleParam("big_gin_bonus", _("Big gin bonus"), "int?", help=_("Blank: no big gin.")),
    RuleParam("undercut_bonus", _("Undercut bonus"), "int"),
    RuleParam("undercut_scores_difference", _("Undercut also scores the difference"), "bool"),
    RuleParam(
        "undercut_on_tie", _("A tie is an undercut"), "bool", help=_("Off: the knocker wins a tie.")
    ),
    RuleParam("target", _("Target"), "int?", help=_("Points that win a game. Blank: one hand.")),
    RuleParam("game_bonus", _("Game bonus"), "int"),
    RuleParam("box_bonus", _("Box bonus"), "int", help=_("Points for each hand won.")),
    RuleParam("shutout", _("Shutout"), "choice", choices=SHUTOUT_RULES),
    RuleParam("family", _("Game family"), "choice", main=False, choices=FAMILIES),
    RuleParam("table", _("Table"), "choice", main=False, choices=TABLES),
    RuleParam("hand_size", _("Cards a hand"), "int", main=False),
    RuleParam("ace_upcard_gin_only", _("Ace upcard: gin only"), "bool", main=False),
    RuleParam("spade_doubles", _("Spade upcard doubles"), "bool", main=False),
    RuleParam("knocker_min_points", _("Knocker's least points"), "int", main=False),
    RuleParam("dead_hand_stock", _("Dead hand at stock of"), "int", main=False),
    RuleParam("max_hands", _("Most hands"), "int?", main=False, help=_("Blank: no limit.")),
    RuleParam("last_hand_tiebreak", _("Last hand breaks a tie"), "bool", main=False),
    RuleParam(
        "hollywood_games",
        _("Hollywood games"),
        "int",
        main=False,
        help=_("0: no Hollywood; 3 in the usual game."),
    ),
    RuleParam("next_dealer", _("Next dealer"), "choice", main=False, choices=NEXT_DEALER_RULES),
    RuleParam("gem_bonus_knocker", _("Gem bonus (knocker)"), "int", main=False),
    RuleParam("gem_bonus_other", _("Gem bonus (other)"), "int", main=False),
    RuleParam("rummy_doubles", _("Rummy doubles"), "bool", main=False),
    RuleParam("ace_high", _("Ace high"), "bool", main=False),
    RuleParam(
        "rummy_deal",
        _("Rummy deal (2-6 players)"),
        "deal",
        main=False,
        help=_("Cards dealt for 2, 3, 4, 5 and 6 players."),
    ),
)

MATCH_FORMATS = (
    ("single_game", _("Single game")),
    ("best_of", _("Best of")),
    ("hollywood", _("Hollywood")),
    ("fixed_hands", _("Fixed number of hands")),
)

TIEBREAK_NAMES: dict[str, Any] = {
    "game_points": _("Game points"),
    "head_to_head": _("Head to head"),
    "buchholz": _("Buchholz"),
    "buchholz_cut1": _("Buchholz cut 1"),
    "median_buchholz": _("Median Buchholz"),
    "sonneborn_berger": _("Sonneborn-Berger"),
    "hands_won": _("Hands won"),
    "gins": _("Gins"),
    "opponents_match_win": _("Opponents' match-win %"),
}
"""Tie-breaks a director orders; match points always come first and lots always last."""

FORM_OPTIONS: tuple[Option, ...] = tuple(o for o in OPTIONS if o.on_form)
"""The event options the settings form offers, in their declared order (each one's label, help,
bounds or choices and the kinds it applies to are in :mod:`tournaments.options`)."""

FORM_OPTION_NAMES = frozenset(o.name for o in FORM_OPTIONS)


def _param_pattern(names: Any) -> re.Pattern[str]:
    return re.compile(r"(?<![\w])(" + "|".join(sorted(names, key=len, reverse=True)) + r")(?![\w])")


RULE_NAME = _param_pattern(p.name for p in RULE_PARAMS)


NUMBER_KINDS = ("int", "int?", "limit", "deal")


SETTING_KINDS: dict[str, tuple[str, ...]] = {"rounds_planned": (Event.Kind.SWISS.value,)}
"""Event settings outside the options that only some kinds use."""
