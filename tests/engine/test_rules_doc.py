"""docs/rules.md agrees with the engine: its preset table and its parameter defaults."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from engine.rules import RULE_PRESETS, RuleSet

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def _shown(value: object) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return "/".join(str(v) for v in value)
    return str(value)


def _rows(header: str) -> dict[str, list[str]]:
    """The table whose first line starts with ``header``: parameter -> the other cells."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows: dict[str, list[str]] = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = cells[1:]
    return rows


def test_the_preset_table_is_the_engines() -> None:
    rows = _rows("| parameter | `standard` |")
    names = list(RULE_PRESETS)
    expected = {
        f.name: [_shown(getattr(RULE_PRESETS[n], f.name)) for n in names]
        for f in fields(RuleSet)
        if f.name != "name"
    }
    assert rows == expected


def test_every_parameter_is_described_with_its_default() -> None:
    rows = _rows("| parameter | default (`standard`) |")
    standard = RULE_PRESETS["standard"]
    assert sorted(rows) == sorted(f.name for f in fields(RuleSet) if f.name != "name")
    for name, (default, meaning) in rows.items():
        value = getattr(standard, name)
        assert default == ("empty" if value is None else _shown(value)), name
        assert meaning, name
