"""The apps' migrations depend one way, and every plan gives a fresh database the same schema.

Between two apps, migrations may depend in one direction only: ``scoring`` on ``tournaments``
(``Match.event``), ``ratings`` on ``scoring`` (``RatingHistory.match``), never back. Two
dependencies are older than that rule and stay, named in ``CLUBS_MOVE``: clubs' move out of
``tournaments`` (``clubs`` 0001 needs the tables ``tournaments`` 0001 made, and ``tournaments``
0004 may forget ``tournaments.Player`` only after ``scoring`` 0005 stopped pointing at it).
Databases made before that move have ``tournaments`` and ``scoring`` migrations applied that
name ``tournaments.Player``, so the two cannot be taken out of the history. Any other cycle fails
here, with the migrations that make it.

Django applies a migration once and runs it again never: an edited migration changes the state,
not an existing database. So the second test migrates a fresh SQLite database, app by app in
another order than the test database was, and compares its schema with the test database's.
"""

from __future__ import annotations

import itertools
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.loader import MigrationLoader

ROOT = Path(__file__).resolve().parents[2]

Key = tuple[str, str]
# The dependencies of one app's migration on another's that make a cycle, and why they stay.
CLUBS_MOVE: dict[tuple[Key, Key], str] = {
    (("clubs", "0001_initial"), ("tournaments", "0003_round_float_directions")): (
        "clubs' tables were made by tournaments 0001; clubs 0001 takes them over"
    ),
    (("tournaments", "0004_clubs_players_roles_moved"), ("scoring", "0005_players_from_clubs")): (
        "scoring 0002 and 0003 point at tournaments.Player until scoring 0005"
    ),
}


def _project_apps() -> set[str]:
    """The labels of Knock's own apps (those whose code lives in this repository)."""
    return {
        config.label
        for config in apps.get_app_configs()
        if ROOT in Path(config.path).parents and ".venv" not in Path(config.path).parts
    }


def _app_edges() -> dict[tuple[str, str], list[tuple[Key, Key]]]:
    """Each pair (app, app it depends on) with the migration dependencies that make it."""
    ours = _project_apps()
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    edges: dict[tuple[str, str], list[tuple[Key, Key]]] = {}
    for key, node in graph.node_map.items():
        for parent in node.parents:
            if key[0] in ours and parent.key[0] in ours and parent.key[0] != key[0]:
                edges.setdefault((key[0], parent.key[0]), []).append((key, parent.key))
    return edges


def _cycle(edges: dict[tuple[str, str], list[tuple[Key, Key]]]) -> list[str]:
    """A cycle of apps (the first app repeated at its end), or an empty list when there is none."""
    needs: dict[str, set[str]] = {}
    for app, dependency in edges:
        needs.setdefault(app, set()).add(dependency)
    done: set[str] = set()

    def visit(app: str, path: list[str]) -> list[str]:
        if app in path:
            return [*path[path.index(app) :], app]
        if app in done:
            return []
        for dependency in sorted(needs.get(app, ())):
            found = visit(dependency, [*path, app])
            if found:
                return found
        done.add(app)
        return []

    for app in sorted(needs):
        found = visit(app, [])
        if found:
            return found
    return []


def test_cycle_finder_finds_a_cycle_and_its_absence():
    assert _cycle({("a", "b"): [], ("b", "c"): [], ("c", "a"): []}) == ["a", "b", "c", "a"]
    assert _cycle({("a", "b"): [], ("b", "c"): [], ("a", "c"): []}) == []


def test_apps_migrations_depend_one_way():
    edges = _app_edges()
    for (key, parent), _why in CLUBS_MOVE.items():
        pairs = edges.get((key[0], parent[0]), [])
        assert (key, parent) in pairs, f"{key} no longer needs {parent}: take it out of CLUBS_MOVE"
        pairs.remove((key, parent))
    edges = {pair: found for pair, found in edges.items() if found}
    cycle = _cycle(edges)
    made_by = [
        f"{app} -> {dependency}: "
        + ", ".join(f"{k[0]}.{k[1]} needs {p[0]}.{p[1]}" for k, p in edges[(app, dependency)])
        for app, dependency in itertools.pairwise(cycle)
    ]
    assert not cycle, (
        "migrations depend in a cycle: " + " -> ".join(cycle) + "\n" + "\n".join(made_by)
    )


def _split_clauses(body: str) -> Iterator[str]:
    """The comma-separated clauses of a CREATE TABLE body, commas inside brackets kept."""
    depth, start = 0, 0
    for at, char in enumerate(body):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            yield body[start:at].strip()
            start = at + 1
    yield body[start:].strip()


def _schema(rows: list[tuple[str, str, str | None]]) -> dict[str, object]:
    """Tables and indexes by name; a table's columns and constraints in any order (a column
    added later by ALTER TABLE comes last in its table and is still the same column)."""
    schema: dict[str, object] = {}
    for kind, name, sql in rows:
        if name.startswith("sqlite_") or sql is None:
            continue
        if kind == "table":
            head, body = sql.split("(", 1)
            schema[name] = (head.strip(), sorted(_split_clauses(body.rsplit(")", 1)[0])))
        else:
            schema[name] = re.sub(r"\s+", " ", sql)
    return schema


SCHEMA_ROWS = "SELECT type, name, sql FROM sqlite_master ORDER BY name"


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "sqlite", reason="compares SQLite schemas")
# ``tournaments`` up to clubs' move first: that plan failed before ``tournaments`` 0004 depended
# on ``scoring`` 0005 ("Related model 'tournaments.player' cannot be resolved").
@pytest.mark.parametrize("first", [("tournaments", "0004_clubs_players_roles_moved"), ("scoring",)])
def test_fresh_database_migrated_in_another_order_has_the_test_database_schema(tmp_path, first):
    fresh = tmp_path / "fresh.sqlite3"
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="config.settings.test",
        DATABASE_URL=f"sqlite:///{fresh}",
    )
    for target in (first, ()):
        done = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0", *target],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-3000:]
    with sqlite3.connect(fresh) as made:
        fresh_schema = _schema(made.execute(SCHEMA_ROWS).fetchall())
    with connection.cursor() as cursor:
        cursor.execute(SCHEMA_ROWS)
        test_schema = _schema(cursor.fetchall())
    differ = sorted(
        name
        for name in fresh_schema.keys() | test_schema.keys()
        if fresh_schema.get(name) != test_schema.get(name)
    )
    assert not differ, differ
    assert "tournaments_ratinghistory" in fresh_schema
