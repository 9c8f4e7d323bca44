"""The vocabulary of the event settings form: the rule parameters, match formats, tie-breaks and
event options it offers, with their labels and help."""

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

CLUB_RULE_CHOICES = (
    ("allow", _("allow")),
    ("soft", _("avoid if possible")),
    ("hard", _("never")),
)

NUMBER_OPTIONS: dict[str, Any] = {
    "win_points": _("Win points"),
    "bye_points": _("Bye points"),
    "requested_bye_points": _("Requested bye"),
    "late_entry_points": _("Late entry"),
}
NUMBER_OPTION_HELP: dict[str, Any] = {
    "requested_bye_points": _("Points for a bye a player asked for."),
    "late_entry_points": _("Points for each round missed."),
}
WHOLE_OPTIONS: dict[str, Any] = {
    "groups": _("Groups"),
    "playoff_cut": _("Playoff cut"),
}
WHOLE_OPTION_HELP: dict[str, Any] = {
    "groups": _("Round robin in groups."),
    "playoff_cut": _("The top N go to a playoff."),
}
FLAG_OPTIONS: dict[str, Any] = {
    "double_round_robin": _("Double round robin"),
    "avoid_same_table": _("Avoid the same table twice"),
    "third_place": _("Third-place match"),
    "grand_final_reset": _("Grand final reset (double elimination)"),
    "registered_only": _("Registered players only (club nights and leagues)"),
    "confirm_by_seat_link": _("Confirm on the player's own link, not the table's phone"),
}
FLAG_OPTION_HELP: dict[str, Any] = {
    "confirm_by_seat_link": _(
        "The other side confirms or disputes an entry on their own seat's link or signed in; "
        "the table link still enters hands."
    ),
}
CHOICE_OPTIONS: dict[str, tuple[Any, tuple[tuple[str, Any], ...]]] = {
    "pair_by": (
        _("Order round 1 and score groups by"),
        (("rating", _("rating")), ("seed", _("seed"))),
    ),
    "forbid_same_club": (_("Two players of one club may meet"), CLUB_RULE_CHOICES),
    "forbid_family": (_("Two players of one family may meet"), CLUB_RULE_CHOICES),
}
FORM_OPTIONS = frozenset({*NUMBER_OPTIONS, *WHOLE_OPTIONS, *FLAG_OPTIONS, *CHOICE_OPTIONS})


def _param_pattern(names: Any) -> re.Pattern[str]:
    return re.compile(r"(?<![\w])(" + "|".join(sorted(names, key=len, reverse=True)) + r")(?![\w])")


RULE_NAME = _param_pattern(p.name for p in RULE_PARAMS)
OPTION_NAME = _param_pattern(FORM_OPTIONS)


NUMBER_KINDS = ("int", "int?", "limit", "deal")


_SWISS, _RR, _SE, _DE = "swiss", "round_robin", "single_elim", "double_elim"
_NIGHT, _LEAGUE = "club_night", "league"
OPTION_KINDS: dict[str, tuple[str, ...]] = {
    "win_points": (_SWISS, _RR, _NIGHT, _LEAGUE),
    "bye_points": (_SWISS, _RR),
    "requested_bye_points": (_SWISS,),
    "late_entry_points": (_SWISS,),
    "groups": (_RR,),
    "playoff_cut": (_SWISS, _RR),
    "double_round_robin": (_RR,),
    "avoid_same_table": (_SWISS, _RR, _SE, _DE),
    "third_place": (_SE, _SWISS, _RR),
    "grand_final_reset": (_DE,),
    "registered_only": (_NIGHT, _LEAGUE),
    "pair_by": (_SWISS,),
    "forbid_same_club": (_SWISS,),
    "forbid_family": (_SWISS,),
}
"""Which kinds of event each option applies to: the form shows (and stores) only those. A
Swiss or round robin's third-place match is its playoff's (after ``playoff_cut``)."""

SETTING_KINDS: dict[str, tuple[str, ...]] = {"rounds_planned": (_SWISS,)}
"""Event settings outside the options that only some kinds use."""
