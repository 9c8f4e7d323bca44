"""Reading the hand entry forms of the match page into the services' ``HandEntry``.

This module only types the posted text (numbers are numbers, empty is absent) and reports a
field that is not a whole number; every rule (who may knock, what a count may be, whether the
claim holds) is the services' and the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from scoring.services import HandEntry

MODES = ("counts", "cards", "dead", "rummy", "partnership")

_INTS = (
    "knocker",
    "defender",
    "knocker_deadwood",
    "defender_deadwood",
    "knock_limit",
    "diamond_number",
    "went_out",
)
_TEXTS = ("outcome", "knocker_cards", "defender_cards", "knocker_melds", "upcard")
_FLAGS = ("knocker_gem_bonus", "defender_gem_bonus", "rummy")

# The fields each entry tab shows (an error about another field is shown above the form).
TAB_FIELDS: dict[str, frozenset[str]] = {
    "counts": frozenset(
        {
            "knocker",
            "outcome",
            "knocker_deadwood",
            "defender_deadwood",
            "upcard",
            "knock_limit",
            "knocker_gem_bonus",
            "points",
            "winner",
        }
    ),
    "cards": frozenset(
        {
            "knocker",
            "knocker_cards",
            "defender_cards",
            "knocker_melds",
            "upcard",
            "knock_limit",
            "diamond_number",
            "outcome",
            "defender_deadwood",
            "knocker_deadwood",
        }
    ),
    "dead": frozenset({"outcome"}),
    "rummy": frozenset({"went_out", "leftovers", "rummy", "points"}),
    "partnership": frozenset(
        {
            f"boards[{b}].{name}"
            for b in (0, 1)
            for name in ("knocker", "defender", "outcome", "knocker_deadwood", "defender_deadwood")
        }
    ),
}


@dataclass(slots=True)
class EntryInput:
    """What a posted entry form says: the tab, the entry, who the sender says they are."""

    mode: str
    entry: HandEntry | None
    as_position: int | None
    errors: dict[str, str] = field(default_factory=dict)


def _int(
    data: Mapping[str, Any], name: str, errors: dict[str, str], key: str | None = None
) -> int | None:
    raw = (data.get(name) or "").strip()
    if raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        errors[key or name] = _("Enter a whole number.")
        return None


def _text(data: Mapping[str, Any], name: str) -> str | None:
    raw = (data.get(name) or "").strip()
    return raw or None


def read_entry(data: Mapping[str, Any], *, positions: list[int]) -> EntryInput:
    """The entry posted from one tab of the match page (``positions``: the table's seats)."""
    mode = data.get("mode") or "counts"
    if mode not in MODES:
        mode = "counts"
    errors: dict[str, str] = {}
    as_position = _int(data, "as_position", errors)
    values: dict[str, Any] = {}
    if mode == "dead":
        values["outcome"] = "dead"
    elif mode == "rummy":
        values["went_out"] = _int(data, "went_out", errors)
        values["rummy"] = bool(data.get("rummy"))
        leftovers: dict[int, str | int] = {}
        for position in positions:
            raw = (data.get(f"left_{position}") or "").strip()
            if raw == "" or position == values["went_out"]:
                continue
            leftovers[position] = int(raw) if raw.isdigit() else raw
        values["leftovers"] = leftovers
    elif mode == "partnership":
        boards = []
        for b in (0, 1):
            board: dict[str, Any] = {}
            for name in ("knocker", "defender", "knocker_deadwood", "defender_deadwood"):
                board[name] = _int(data, f"b{b}_{name}", errors, f"boards[{b}].{name}")
            board["outcome"] = _text(data, f"b{b}_outcome")
            boards.append(board)
        values["boards"] = boards
    else:
        for name in _INTS:
            values[name] = _int(data, name, errors)
        for name in _TEXTS:
            values[name] = _text(data, name)
        for name in _FLAGS:
            values[name] = bool(data.get(name))
        if mode == "cards":
            values["outcome"] = None  # the engine finds the outcome from the cards
    if errors:
        return EntryInput(mode, None, as_position, errors)
    return EntryInput(mode, HandEntry.from_dict(values), as_position)
