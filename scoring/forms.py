"""Reading the hand entry forms of the match page (one hand, or a whole paper score sheet) into
the services' ``HandEntry``, and the CSV import form.

This module only types the posted text (numbers are numbers, empty is absent) and reports a
field that is not a whole number; every rule (who may knock, what a count may be, whether the
claim holds) is the services' and the engine's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import ApplicationError
from core.parsing import parse_ascii_int
from scoring.services import HandEntry, entry_from_dict

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
_TEXTS = (
    "outcome",
    "knocker_cards",
    "defender_cards",
    "knocker_melds",
    "upcard",
    "taken_from_discard",
)
_FLAGS = ("knocker_gem_bonus", "defender_gem_bonus", "rummy")

# A three-player Gem hand's per-defender fields, posted as ``d0_<name>`` and ``d1_<name>``.
DEFENDER_INTS = ("defender", "defender_deadwood")
DEFENDER_TEXTS = ("outcome", "defender_cards")
DEFENDER_FIELDS = frozenset(
    f"defenders[{d}].{name}"
    for d in (0, 1)
    for name in (*DEFENDER_INTS, *DEFENDER_TEXTS, "defender_gem_bonus", "points")
)

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
            "defenders",
        }
    )
    | DEFENDER_FIELDS,
    "cards": frozenset(
        {
            "knocker",
            "knocker_cards",
            "defender_cards",
            "knocker_melds",
            "taken_from_discard",
            "upcard",
            "knock_limit",
            "diamond_number",
            "outcome",
            "defender_deadwood",
            "knocker_deadwood",
            "defenders",
        }
    )
    | DEFENDER_FIELDS,
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
    number = parse_ascii_int(raw, signed=True)
    if number is None:
        errors[key or name] = _("Enter a whole number.")
    return number


def _text(data: Mapping[str, Any], name: str) -> str | None:
    raw = (data.get(name) or "").strip()
    return raw or None


def _defenders(data: Mapping[str, Any], mode: str, errors: dict[str, str]) -> list[dict[str, Any]]:
    """The two defenders of a three-player Gem hand (``d0_…``, ``d1_…``), if the form has them."""
    if not any(key.startswith(("d0_", "d1_")) for key in data):
        return []
    out = []
    for d in (0, 1):
        one: dict[str, Any] = {}
        for name in DEFENDER_INTS:
            one[name] = _int(data, f"d{d}_{name}", errors, f"defenders[{d}].{name}")
        for name in DEFENDER_TEXTS:
            one[name] = _text(data, f"d{d}_{name}")
        one["defender_gem_bonus"] = bool(data.get(f"d{d}_defender_gem_bonus"))
        if mode == "cards":
            one["outcome"] = None
        out.append(one)
    return out


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
            count = parse_ascii_int(raw)
            leftovers[position] = count if count is not None else raw
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
        defenders = _defenders(data, mode, errors)
        if defenders:
            values["defenders"] = defenders
    if errors:
        return EntryInput(mode, None, as_position, errors)
    try:
        entry = entry_from_dict(values)
    except ApplicationError as exc:
        return EntryInput(mode, None, as_position, {exc.field or "mode": exc.message})
    return EntryInput(mode, entry, as_position)


# -- a whole paper score sheet -------------------------------------------------------------------

# The columns of one score sheet row (the entry by counts; ``points`` is an optional check).
SHEET_FIELDS = (
    "knocker",
    "outcome",
    "knocker_deadwood",
    "defender_deadwood",
    "points",
    "upcard",
    "knock_limit",
)
_SHEET_INTS = ("knocker", "knocker_deadwood", "defender_deadwood", "points", "knock_limit")
SHEET_ROWS = 8  # rows a fresh sheet shows
SHEET_MORE = 5  # rows the "add rows" button adds
SHEET_MAX = 60  # more hands than any game needs
_ROW_KEY = re.compile(r"^h([0-9]{1,6})_", re.ASCII)


@dataclass(slots=True)
class SheetInput:
    """A posted score sheet: each row's text (to show it again), the hands and their rows.

    ``entries[i]`` is the hand the service numbers ``hands[i]``; ``rows_of[i]`` is the sheet row
    it was typed in (blank rows are left out, so the two can differ). ``errors`` maps a sheet
    row to its fields' messages.
    """

    rows: list[dict[str, str]]
    entries: list[HandEntry]
    rows_of: list[int]
    game: int | None
    errors: dict[int, dict[str, str]] = field(default_factory=dict)


def sheet_row_count(data: Mapping[str, Any]) -> int:
    """How many rows the posted sheet has (the JS may have added rows the server never drew)."""
    raw = str(data.get("rows") or "")
    count = min(parse_ascii_int(raw) or 0, 10_000)
    for key in data:
        m = _ROW_KEY.match(key)
        if m:
            count = max(count, int(m.group(1)) + 1)
    return max(1, min(count, SHEET_MAX))


def blank_sheet_rows(n: int) -> list[dict[str, str]]:
    return [dict.fromkeys(SHEET_FIELDS, "") for _ in range(n)]


def read_sheet(data: Mapping[str, Any]) -> SheetInput:
    """The hands typed into a paper score sheet, in order (blank rows are skipped)."""
    errors: dict[int, dict[str, str]] = {}
    rows: list[dict[str, str]] = []
    entries: list[HandEntry] = []
    rows_of: list[int] = []
    for index in range(sheet_row_count(data)):
        row = {name: str(data.get(f"h{index}_{name}") or "").strip() for name in SHEET_FIELDS}
        rows.append(row)
        if not any(row.values()):
            continue
        row_errors: dict[str, str] = {}
        values: dict[str, Any] = {}
        for name in _SHEET_INTS:
            values[name] = _int(row, name, row_errors)
        values["outcome"] = row["outcome"] or None
        values["upcard"] = row["upcard"] or None
        if values["outcome"] == "dead":
            # A dead hand has no knocker and no counts (as the match page's "dead hand" tab).
            values = {"outcome": "dead", "upcard": values["upcard"]}
        if row_errors:
            errors[index] = row_errors
            continue
        try:
            entries.append(entry_from_dict(values))
        except ApplicationError as exc:
            errors[index] = {exc.field or "outcome": exc.message}
            continue
        rows_of.append(index)
    game_raw = str(data.get("game") or "").strip()
    game = parse_ascii_int(game_raw)
    return SheetInput(rows, entries, rows_of, game, errors)


# -- CSV import ------------------------------------------------------------------------------------


class ImportCsvForm(forms.Form):
    """The CSV to import: pasted text or an uploaded file (the file wins when both are given)."""

    csv = forms.CharField(
        label=gettext_lazy("CSV text"), required=False, strip=False, widget=forms.Textarea
    )
    file = forms.FileField(label=gettext_lazy("…or a CSV file"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        text = data.get("csv") or ""
        if upload is not None:
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("file", _("The file is not UTF-8 text."))
                return data
        if not text.strip():
            self.add_error("csv", _("Paste the CSV or choose a file."))
        data["text"] = text
        return data
