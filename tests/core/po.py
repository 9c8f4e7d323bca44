"""A small reader of PO files (the Korean catalogue's tests share it): enough for the files
``makemessages`` writes, so that the tests need no PO library."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field


@dataclass
class Entry:
    """One entry of a PO file: its msgid (and plural, context), translations, flags, whether it
    is obsolete (``#~``), and the line it starts on."""

    msgid: str = ""
    msgid_plural: str = ""
    msgctxt: str | None = None
    msgstrs: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False
    line: int = 0


def _unquote(chunk: str) -> str:
    value = ast.literal_eval(chunk.strip())
    assert isinstance(value, str)
    return value


def po_entries(text: str) -> list[Entry]:
    """A small PO reader: enough for the files ``makemessages`` writes."""
    entries: list[Entry] = []
    for block_start, block in _blocks(text):
        entry = Entry(line=block_start)
        current: str | None = None
        parts: dict[str, str] = {}
        for raw in block:
            line = raw
            if line.startswith("#~"):
                entry.obsolete = True
                line = line[2:].lstrip()
            if line.startswith("#,"):
                entry.flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
                continue
            if line.startswith("#") or not line.strip():
                continue
            keyword = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(.*)$", line)
            if keyword:
                current = keyword.group(1)
                parts[current] = _unquote(keyword.group(2))
            else:
                assert current is not None, f"line {block_start}: stray text {line!r}"
                parts[current] += _unquote(line)
        if "msgid" not in parts:
            continue
        entry.msgid = parts["msgid"]
        entry.msgid_plural = parts.get("msgid_plural", "")
        entry.msgctxt = parts.get("msgctxt")
        entry.msgstrs = [v for k, v in sorted(parts.items()) if k.startswith("msgstr")]
        entries.append(entry)
    return entries


def _blocks(text: str) -> list[tuple[int, list[str]]]:
    """The file's blank-line separated blocks, each with the number of its first line."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 1
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            if not current:
                start = number
            current.append(line)
        elif current:
            blocks.append((start, current))
            current = []
    if current:
        blocks.append((start, current))
    return blocks
