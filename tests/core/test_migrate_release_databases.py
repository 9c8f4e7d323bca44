"""Databases made by Knock's past releases migrate forward to the schema of a fresh database,
with every row kept.

Each file in ``fixtures/releases`` is the SQLite database of one release (``git worktree add``
of the commit, its ``manage.py migrate`` and ``manage.py demo``) dumped as SQL: schema, the
``django_migrations`` rows, content types, permissions and the demo's rows (hand submissions and
their history cut to a few, which nothing points at with a constraint). The demo makes no
online entries, so ``b63be6a``'s database (the release that made ``tournaments_entry``) also
has four, made in that release's ``manage.py shell`` (accepted with its registration, waiting,
merged into the waiting one, refused), which ``entries`` 0001 took over. Releases whose
migrations are the same share a file: ``953591f`` is ``2a24038``'s, ``2103e52`` is
``c4918a7``'s. Their databases have some of a squashed migration's replaced migrations applied,
so Django migrates them by the old chain; a fresh database by the squashes.

Each is loaded into a fresh SQLite file and migrated with ``manage.py migrate`` (as an operator
does); then ``migrate`` must find the models' state (no "changes not yet reflected"), its
schema must be a fresh database's (tables, columns, constraints and indexes), every row it had
must be there, the content types of moved models must carry their new app (so permissions
granted on them follow) and none be made again in the old one, and every squash must be
recorded as applied.
"""

from __future__ import annotations

import gzip
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.core.sqlite_schema import SCHEMA_ROWS, schema

ROOT = Path(__file__).resolve().parents[2]
RELEASES = sorted((Path(__file__).parent / "fixtures" / "releases").glob("*.sql.gz"))
# Rows Django makes or drops on its own when it migrates (and the migration records themselves).
NOT_DATA = {"django_migrations", "django_content_type", "auth_permission", "sqlite_sequence"}
SQUASHES = {
    ("clubs", "0001_squashed_0002_role_invitation"),
    ("tournaments", "0001_squashed_0009_event_options_help_text"),
    ("scoring", "0001_squashed_0007_acted_by"),
}
TYPES = "SELECT id, model FROM django_content_type"
ALL_TYPES = "SELECT id, app_label, model FROM django_content_type"
# Models that moved out of ``tournaments``, keeping their tables: model -> its app now.
MOVED = {
    "club": "clubs",
    "clubrole": "clubs",
    "player": "clubs",
    "rating": "ratings",
    "ratinghistory": "ratings",
    "workdue": "core",
    "entry": "entries",
}


def _migrate(database: Path) -> str:
    """Run ``manage.py migrate`` on the SQLite file ``database``; its output."""
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="config.settings.test",
        DATABASE_URL=f"sqlite:///{database}",
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _rows(made: sqlite3.Connection) -> dict[str, set[int]]:
    """Each table's row ids (``rowid``: the primary key of every table Django makes)."""
    tables = [
        name
        for (name,) in made.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if name not in NOT_DATA and not name.startswith("sqlite_")
    ]
    return {
        table: {rowid for (rowid,) in made.execute(f'SELECT rowid FROM "{table}"')}
        for table in tables
    }


@pytest.fixture(scope="module")
def fresh_schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    fresh = tmp_path_factory.mktemp("fresh") / "fresh.sqlite3"
    _migrate(fresh)
    with sqlite3.connect(fresh) as made:
        return schema(made.execute(SCHEMA_ROWS).fetchall())


def test_there_are_release_databases():
    assert len(RELEASES) >= 5, RELEASES


@pytest.mark.parametrize("dump", RELEASES, ids=[path.name.split(".")[0] for path in RELEASES])
def test_a_release_database_migrates_to_a_fresh_schema_with_its_rows(tmp_path, fresh_schema, dump):
    database = tmp_path / "release.sqlite3"
    with sqlite3.connect(database) as made:
        made.executescript(gzip.decompress(dump.read_bytes()).decode())
        rows_before = _rows(made)
        types_before = dict(
            made.execute(
                "SELECT id, model FROM django_content_type WHERE app_label = 'tournaments'"
            )
        )
        permissions_before = set(made.execute("SELECT id, content_type_id FROM auth_permission"))
    made.close()
    assert sum(len(ids) for ids in rows_before.values()) > 500  # demo rows, not an empty schema

    said = _migrate(database)
    # the state the old chain ends at is the models' (``migrate`` compares them)
    assert "have changes that are not yet reflected" not in said, said

    with sqlite3.connect(database) as made:
        migrated = schema(made.execute(SCHEMA_ROWS).fetchall())
        rows_after = _rows(made)
        types_after = {
            row[0]: row[1:]
            for row in made.execute("SELECT id, app_label, model FROM django_content_type")
        }
        permissions_after = set(made.execute("SELECT id, content_type_id FROM auth_permission"))
        applied = set(made.execute("SELECT app, name FROM django_migrations"))
    made.close()

    differ = sorted(
        name
        for name in migrated.keys() | fresh_schema.keys()
        if migrated.get(name) != fresh_schema.get(name)
    )
    assert not differ, differ
    lost = {
        table: sorted(ids - rows_after.get(table, set()))[:5]
        for table, ids in rows_before.items()
        if ids - rows_after.get(table, set())
    }
    assert not lost, lost
    for type_id, model in types_before.items():
        if model in MOVED:
            assert types_after[type_id] == (MOVED[model], model)
    # and no content type is made again for a model that left ``tournaments``
    stale = [(app, model) for app, model in types_after.values() if model in MOVED]
    assert sorted(stale) == sorted((app, model) for model, app in MOVED.items()), stale
    assert permissions_before <= permissions_after
    assert applied >= SQUASHES
