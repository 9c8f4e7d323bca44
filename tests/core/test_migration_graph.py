"""The apps' migrations depend one way, and every plan gives a fresh database the same schema.

Between two apps, migrations may depend in one direction only, as the models point: ``clubs``
on nothing of Knock's, ``tournaments`` on ``clubs``, ``scoring`` on ``tournaments`` and ``clubs``
(``Match.event``), ``ratings`` on ``scoring`` (``RatingHistory.match``), never back. Any cycle
between apps fails here, with the migrations that make it; there is no exception. It holds for
the graph a fresh database migrates by (the squashed migrations: ``clubs`` 0001_squashed_0002,
``tournaments`` 0001_squashed_0009, ``scoring`` 0001_squashed_0007) and for the one a database
made before them migrates by (the migrations they replace), since Django takes either for each
squash. ``tests/core/test_migrate_release_databases.py`` migrates databases of past releases.

Django applies a migration once and runs it again never: an edited migration changes the state,
not an existing database. So the last test migrates a fresh SQLite database, app by app in
another order than the test database was, and compares its schema with the test database's.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from tests.core.sqlite_schema import SCHEMA_ROWS, schema

ROOT = Path(__file__).resolve().parents[2]

Key = tuple[str, str]


def _project_apps() -> set[str]:
    """The labels of Knock's own apps (those whose code lives in this repository)."""
    return {
        config.label
        for config in apps.get_app_configs()
        if ROOT in Path(config.path).parents and ".venv" not in Path(config.path).parts
    }


def _app_edges(*, squashed: bool) -> dict[tuple[str, str], list[tuple[Key, Key]]]:
    """Each pair (app, app it depends on) with the migration dependencies that make it, in the
    graph with the squashed migrations (a fresh database's) or with the ones they replace."""
    ours = _project_apps()
    loader = MigrationLoader(None, ignore_no_migrations=True, replace_migrations=squashed)
    graph = loader.graph
    if not squashed:
        for key, migration in loader.replacements.items():
            graph.remove_replacement_node(key, migration.replaces)
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


@pytest.mark.parametrize("squashed", [True, False], ids=["squashed", "replaced"])
def test_apps_migrations_depend_one_way(squashed):
    edges = _app_edges(squashed=squashed)
    cycle = _cycle(edges)
    made_by = [
        f"{app} -> {dependency}: "
        + ", ".join(f"{k[0]}.{k[1]} needs {p[0]}.{p[1]}" for k, p in edges[(app, dependency)])
        for app, dependency in itertools.pairwise(cycle)
    ]
    assert not cycle, (
        "migrations depend in a cycle: " + " -> ".join(cycle) + "\n" + "\n".join(made_by)
    )


def test_a_fresh_database_migrates_by_the_squashes():
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    for key in [
        ("clubs", "0001_squashed_0002_role_invitation"),
        ("tournaments", "0001_squashed_0009_event_options_help_text"),
        ("scoring", "0001_squashed_0007_acted_by"),
    ]:
        assert key in graph.nodes
    assert ("tournaments", "0004_clubs_players_roles_moved") not in graph.nodes


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "sqlite", reason="compares SQLite schemas")
# One app first, then the rest: each pulls only what it depends on.
@pytest.mark.parametrize("first", [("tournaments",), ("scoring",), ("core",)])
def test_fresh_database_migrated_in_another_order_has_the_test_databaseschema(tmp_path, first):
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
        fresh_schema = schema(made.execute(SCHEMA_ROWS).fetchall())
    with connection.cursor() as cursor:
        cursor.execute(SCHEMA_ROWS)
        test_schema = schema(cursor.fetchall())
    differ = sorted(
        name
        for name in fresh_schema.keys() | test_schema.keys()
        if fresh_schema.get(name) != test_schema.get(name)
    )
    assert not differ, differ
    assert "tournaments_ratinghistory" in fresh_schema
