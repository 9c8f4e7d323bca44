"""An SQLite database's schema in a form two databases can be compared by."""

from __future__ import annotations

import re
from collections.abc import Iterator


def split_clauses(body: str) -> Iterator[str]:
    """The comma-separated clauses of a CREATE TABLE body, commas inside brackets kept."""
    depth, start = 0, 0
    for at, char in enumerate(body):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            yield body[start:at].strip()
            start = at + 1
    yield body[start:].strip()


def schema(rows: list[tuple[str, str, str | None]]) -> dict[str, object]:
    """Tables and indexes by name; a table's columns and constraints in any order (a column
    added later by ALTER TABLE comes last in its table and is still the same column)."""
    schema: dict[str, object] = {}
    for kind, name, sql in rows:
        if name.startswith("sqlite_") or sql is None:
            continue
        if kind == "table":
            head, body = sql.split("(", 1)
            schema[name] = (head.strip(), sorted(split_clauses(body.rsplit(")", 1)[0])))
        else:
            schema[name] = re.sub(r"\s+", " ", sql)
    return schema


SCHEMA_ROWS = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
