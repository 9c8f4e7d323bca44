"""Backups: ``manage.py backup`` and ``restore`` as a user runs them, on SQLite and PostgreSQL.

The commands run as separate processes on throwaway databases of the same kind as the suite's
(a file under tmp_path, or two PostgreSQL databases named after the test database), so the test
database itself is never restored over.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.db import connection

from clubs.models import Club
from core.backups import backup_create, backup_list, backup_nightly
from tests.conftest import ROOT, _database_url

MANAGE = [sys.executable, str(ROOT / "manage.py")]


def _pg_admin(sql: str) -> None:
    import psycopg

    settings = connection.settings_dict
    with psycopg.connect(
        host=settings.get("HOST") or "127.0.0.1",
        port=settings.get("PORT") or 5432,
        user=settings.get("USER") or "postgres",
        password=settings.get("PASSWORD") or None,
        dbname="postgres",
        autocommit=True,
    ) as conn:
        conn.execute(sql)


@pytest.fixture
def two_databases(tmp_path: Path, django_db_setup: None) -> Iterator[tuple[str, str]]:
    """URLs of two new, empty databases of the suite's kind: a source and a restore target."""
    if connection.vendor == "sqlite":
        yield (f"sqlite:///{tmp_path / 'source.sqlite3'}", f"sqlite:///{tmp_path / 'new.sqlite3'}")
        return
    base = str(connection.settings_dict["NAME"])[:40]
    names = [f"{base}_bk_source", f"{base}_bk_target"]
    for name in names:
        _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        _pg_admin(f'CREATE DATABASE "{name}"')
    url = _database_url(connection.settings_dict)
    try:
        yield tuple(url.rsplit("/", 1)[0] + "/" + n for n in names)  # type: ignore[misc]
    finally:
        for name in names:
            _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _run(url: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="config.settings.local",
        KNOCK_VAR_DIR=str(tmp_path / "var"),
    )
    return subprocess.run([*MANAGE, *args], env=env, capture_output=True, text=True, cwd=ROOT)


def _clubs(url: str, tmp_path: Path) -> str:
    done = _run(
        url,
        tmp_path,
        "shell",
        "-c",
        "from clubs.models import Club; print(sorted(Club.objects.values_list('name', flat=True)))",
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_backup_then_restore_into_an_empty_database(tmp_path, two_databases):
    source, target = two_databases
    assert _run(source, tmp_path, "migrate", "--noinput").returncode == 0
    made = _run(
        source,
        tmp_path,
        "shell",
        "-c",
        "from clubs.models import Club; "
        "Club.objects.create(name='Backed up', slug='backed-up'); "
        "Club.objects.create(name='Seoul Knockers', slug='seoul')",
    )
    assert made.returncode == 0, made.stderr

    done = _run(source, tmp_path, "backup", "--dir", str(tmp_path / "backups"))
    assert done.returncode == 0, done.stderr
    [path] = backup_list(directory=tmp_path / "backups")
    assert re.fullmatch(r"knock-\d{8}-\d{6}\.(sqlite3|pgdump)", path.name)
    assert path.name[6:14] == datetime.now(UTC).strftime("%Y%m%d")  # TIME_ZONE is UTC
    assert f"Backup written: {path}" in done.stdout

    refused = _run(source, tmp_path, "restore", str(path))
    assert refused.returncode != 0
    assert "is not empty" in refused.stderr
    assert "Restore only into an empty database" in refused.stderr

    keep = "from django.core.cache import cache; cache.set('live-region', 'old', 600)"
    assert _run(target, tmp_path, "shell", "-c", keep).returncode == 0
    restored = _run(target, tmp_path, "restore", str(path))
    assert restored.returncode == 0, restored.stderr
    # what was kept in the shared cache (spectators' live regions by version) is dropped
    read = "from django.core.cache import cache; print(cache.get('live-region'))"
    assert _run(target, tmp_path, "shell", "-c", read).stdout.splitlines()[-1] == "None"
    assert _clubs(target, tmp_path) == "['Backed up', 'Seoul Knockers']"
    # The restored database is a whole Knock database: migrations are all applied already.
    plan = _run(target, tmp_path, "migrate", "--check")
    assert plan.returncode == 0, plan.stdout + plan.stderr


def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path, two_databases):
    _source, target = two_databases
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database")
    done = _run(target, tmp_path, "restore", str(junk))
    assert done.returncode != 0
    assert "is not a Knock backup" in done.stderr
    missing = _run(target, tmp_path, "restore", str(tmp_path / "nope.sqlite3"))
    assert "No backup at" in missing.stderr


@pytest.mark.django_db(transaction=True)
def test_a_sqlite_backup_holds_what_was_just_written(tmp_path):
    """The online backup includes rows still only in the WAL, which a file copy can miss."""
    if connection.vendor != "sqlite":
        pytest.skip("WAL rows are a SQLite matter; the pg_dump backup is tested end to end above")
    Club.objects.create(name="Fresh", slug="fresh")
    path = backup_create(directory=tmp_path)
    copy = sqlite3.connect(path)
    try:
        rows = copy.execute("SELECT name FROM tournaments_club").fetchall()
        integrity = copy.execute("PRAGMA integrity_check").fetchone()
    finally:
        copy.close()
    assert rows == [("Fresh",)]
    assert integrity == ("ok",)


@pytest.mark.django_db(transaction=True)
def test_nightly_backup_writes_one_a_day_and_keeps_the_newest(tmp_path, settings):
    settings.KNOCK_BACKUP_KEEP = 3
    settings.TIME_ZONE = "UTC"
    start = datetime(2026, 11, 1, 21, 0, tzinfo=UTC)
    written = []
    for day in range(5):
        for hour in (0, 1):  # beat asks again later the same day: nothing new
            written.append(
                backup_nightly(at=start + timedelta(days=day, hours=hour), directory=tmp_path)
            )
    if connection.vendor != "sqlite":
        assert written == [None] * 10  # PostgreSQL: the server's own backups, not beat's
        assert backup_list(directory=tmp_path) == []
        return
    assert [p is not None for p in written] == [True, False] * 5
    assert [p.name for p in backup_list(directory=tmp_path)] == [
        "knock-20261103-210000.sqlite3",
        "knock-20261104-210000.sqlite3",
        "knock-20261105-210000.sqlite3",
    ]
