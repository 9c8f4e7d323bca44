"""The bracket as the pages draw it: sections (winners', losers', third place, grand final), each
a row of round columns with a name ("Semi-final"), "round 2 of 4", and the match boxes and
connector lines of that column in its own SVG (so that a phone can show one round per screen).

Placement is :func:`competition.bracket_layout.bracket_layout` (pure); this module
only names the rounds in the reader's language and cuts the connectors at the column edges.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from competition.bracket_layout import (
    BOX_HEIGHT,
    BOX_WIDTH,
    COLUMN_GAP,
    LayoutInput,
    bracket_layout,
    round_name,
)

SECTION_ORDER = ("winners", "losers", "third_place", "grand_final", "grand_final_reset")
SECTION_LABELS: dict[str, Any] = {
    "winners": gettext_lazy("Winners' bracket"),
    "losers": gettext_lazy("Losers' bracket"),
    "third_place": gettext_lazy("Third place"),
    "grand_final": gettext_lazy("Grand final"),
    "grand_final_reset": gettext_lazy("Grand final reset"),
}
NAME_LIMIT = 22


def _short(name: str) -> str:
    return name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1] + "…"


def _column_title(section: str, index: int, count: int, double: bool) -> str:
    if section in ("third_place", "grand_final", "grand_final_reset"):
        return str(SECTION_LABELS[section])
    if section == "losers":
        if index == count:
            return _("Losers' final")
        return _("Losers' round %(n)s") % {"n": index}
    code, players = round_name(index=index, count=count, players=2**count)
    if code == "final":
        return _("Winners' final") if double else pgettext("bracket round", "Final")
    if code == "semi_final":
        return _("Semi-final")
    if code == "quarter_final":
        return _("Quarter-final")
    return _("Round of %(n)s") % {"n": players}


def _slot(m: dict[str, Any], side: str, score: int | None) -> dict[str, Any]:
    s = m[side]
    won = bool(m["winner"]["player"]) and m["winner"]["player"] == s["player"]
    if s["name"]:
        label, kind = _short(s["name"]), "player"
    elif s["vacancy"] == "bye":
        label, kind = _("bye"), "bye"
    else:
        label, kind = _("to be decided"), "tbd"
    return {"label": label, "kind": kind, "won": won, "score": score}


def bracket_sections(bracket: dict[str, Any], *, double: bool) -> list[dict[str, Any]]:
    """The drawing of ``bracket`` (from :func:`tournaments.selectors.event_bracket`)."""
    grouped: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for m in bracket["matches"]:
        grouped[m["section"]].append(m)
    half = COLUMN_GAP / 2
    out = []
    for key in SECTION_ORDER:
        matches = grouped.get(key)
        if not matches:
            continue
        layout = bracket_layout(
            [LayoutInput(m["key"], m["round"], tuple(m.get("feeders") or ())) for m in matches]
        )
        placed = {p.id: p for p in layout.matches}
        columns: list[dict[str, Any]] = [
            {"boxes": [], "paths": [], "x0": 0.0} for _c in range(layout.columns)
        ]
        for index, column in enumerate(columns):
            first = next(p for p in layout.matches if p.column == index)
            column["x0"] = first.x - half
            column["title"] = _column_title(key, index + 1, layout.columns, double)
            column["position"] = _("round %(i)s of %(n)s") % {"i": index + 1, "n": layout.columns}
        for m in matches:
            p = placed[m["key"]]
            scores = m.get("scores") or [None, None]
            columns[p.column]["boxes"].append(
                {
                    "x": p.x,
                    "y": p.y,
                    "mid": p.y + BOX_HEIGHT / 2,
                    "bottom": p.y + BOX_HEIGHT,
                    "home": _slot(m, "home", scores[0]),
                    "away": _slot(m, "away", scores[1]),
                    "status": m["status"],
                    "match": m["match"],
                    "table_number": m["table_number"],
                    "bye": m["status"] == "bye",
                    "status_label": m.get("status_label", ""),
                }
            )
        for c in layout.connectors:
            # The first half (right, then up or down) in the feeder's column, the rest in the next.
            source = next(
                i
                for i, col in enumerate(columns)
                if col["x0"] <= c.x1 < col["x0"] + BOX_WIDTH + COLUMN_GAP
            )
            edge = columns[source]["x0"] + BOX_WIDTH + COLUMN_GAP
            columns[source]["paths"].append(f"M{c.x1:g} {c.y1:g}H{edge:g}V{c.y2:g}")
            if source + 1 < len(columns):
                columns[source + 1]["paths"].append(f"M{edge:g} {c.y2:g}H{c.x2:g}")
        for column in columns:
            column["width"] = BOX_WIDTH + COLUMN_GAP
            column["height"] = layout.height
        label = SECTION_LABELS[key] if double or key != "winners" else ""
        out.append({"key": key, "label": label, "columns": columns})
    return out
