"""What the standings' columns are called where space is short (the event page's table, the
printed standings) and what each means (the legend under the table and the headers' tooltips),
in the reader's language. One place, so the page and the PDF name a column alike."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

TIEBREAK_LABELS: dict[str, Any] = {
    "match_points": gettext_lazy("MP"),
    "game_points": gettext_lazy("Game pts"),
    "head_to_head": gettext_lazy("H2H"),
    "buchholz": gettext_lazy("Buchholz"),
    "buchholz_cut1": gettext_lazy("Buch. cut 1"),
    "median_buchholz": gettext_lazy("Median Buch."),
    "sonneborn_berger": gettext_lazy("SB"),
    "hands_won": gettext_lazy("Hands won"),
    "gins": gettext_lazy("Gins"),
    "opponents_match_win": gettext_lazy("Opp. win %"),
    "lots": gettext_lazy("Lots"),
}

# What each standings column means, for the legend under the table and the headers' <abbr>:
# "Name: explanation" (the printed legend puts the short header first: see exports.py).
TIEBREAK_LEGENDS: dict[str, Any] = {
    "match_points": gettext_lazy("Match points: the points for the matches won and drawn"),
    "record": gettext_lazy("Matches won, drawn and lost"),
    "game_points": gettext_lazy(
        "Game points: the margins of the games won less those of the games lost (below zero "
        "when behind)"
    ),
    "head_to_head": gettext_lazy("Head to head: the results between the tied players"),
    "buchholz": gettext_lazy("Buchholz: the opponents' match points added up"),
    "buchholz_cut1": gettext_lazy("Buchholz cut 1: Buchholz without the weakest opponent"),
    "median_buchholz": gettext_lazy(
        "Median Buchholz: Buchholz without the strongest and the weakest opponent"
    ),
    "sonneborn_berger": gettext_lazy(
        "Sonneborn-Berger: the match points of the opponents beaten, and half of those drawn"
    ),
    "hands_won": gettext_lazy("Hands won: the hands won in every match"),
    "gins": gettext_lazy("Gins: the hands won by going gin"),
    "opponents_match_win": gettext_lazy(
        "Opponents' match win %: the opponents' share of matches won"
    ),
}
