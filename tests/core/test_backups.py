"""Backups: ``manage.py backup`` and ``restore`` as a user runs them, on SQLite and PostgreSQL.

The commands run as separate processes on throwaway databases of the same kind as the suite's
(a file under tmp_path, or two PostgreSQL databases named after the test database), so the test
database itself is never restored over.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import stat
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import override_settings

from clubs.models import Club
from core import backup_container
from core.backups import backup_create, backup_list, backup_nightly
from scoring.models import Confirmation, HandSubmission
from tests.clubs.factories import UserFactory
from tests.conftest import ROOT
from tests.scoring.factories import HandSubmissionFactory, MatchFactory
from tests.support import database_url
from tests.tournaments.factories import EventFactory

MANAGE = [sys.executable, str(ROOT / "manage.py")]


def _pg_admin(sql: str, dbname: str = "postgres") -> None:
    import psycopg

    settings = connection.settings_dict
    with psycopg.connect(
        host=settings.get("HOST") or "127.0.0.1",
        port=settings.get("PORT") or 5432,
        user=settings.get("USER") or "postgres",
        password=settings.get("PASSWORD") or None,
        dbname=dbname,
        autocommit=True,
    ) as conn:
        conn.execute(sql)


def _pg_tool_env() -> dict[str, str]:
    settings = connection.settings_dict
    env = dict(os.environ)
    env.update(
        PGHOST=str(settings.get("HOST") or "127.0.0.1"),
        PGPORT=str(settings.get("PORT") or 5432),
        PGUSER=str(settings.get("USER") or "postgres"),
    )
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings["PASSWORD"])
    return env


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
    url = database_url(connection.settings_dict)
    try:
        yield tuple(url.rsplit("/", 1)[0] + "/" + n for n in names)  # type: ignore[misc]
    finally:
        for name in names:
            _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _run(
    url: str, tmp_path: Path, *args: str, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "SECRET_KEY")}
    env.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="config.settings.local",
        KNOCK_VAR_DIR=str(tmp_path / "var"),
        **(extra or {}),
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
    assert re.fullmatch(r"knock-\d{8}-\d{6}\.(sqlite3|pgdump)\.tar", path.name)
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
    _manifest, payload = _unpack(path, tmp_path / "unpacked")
    copy = sqlite3.connect(payload)
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
        "knock-20261103-210000.sqlite3.tar",
        "knock-20261104-210000.sqlite3.tar",
        "knock-20261105-210000.sqlite3.tar",
    ]


# --- Signed backups: what a restore refuses, and that a refusal changes nothing -------------


def _unpack(backup: Path, into: Path) -> tuple[dict[str, Any], Path]:
    """The manifest and the database copy of a backup, as ``tar xf`` gives them."""
    into.mkdir(parents=True, exist_ok=True)
    with tarfile.open(backup) as tar:
        tar.extractall(into, filter="data")
    manifest = json.loads((into / backup_container.MANIFEST_NAME).read_text())
    return manifest, into / manifest["payload"]["name"]


def _pack(target: Path, manifest: dict[str, Any], payload: Path) -> Path:
    """What someone editing a backup by hand does: put the pieces back together with tar."""
    manifest_file = payload.parent / backup_container.MANIFEST_NAME
    manifest_file.write_text(json.dumps(manifest))
    with tarfile.open(target, "w", format=tarfile.GNU_FORMAT) as tar:
        tar.add(manifest_file, arcname=backup_container.MANIFEST_NAME)
        tar.add(payload, arcname=payload.name)
    return target


def _edit_payload(payload: Path, sql: str) -> None:
    """Run ``sql`` on a backup's database copy (a pg_dump goes through a scratch database)."""
    if connection.vendor == "sqlite":
        db = sqlite3.connect(payload)
        try:
            assert db.execute(sql).rowcount == 1
            db.commit()
        finally:
            db.close()
        return
    scratch = f"{str(connection.settings_dict['NAME'])[:40]}_bk_edit"
    _pg_admin(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
    _pg_admin(f'CREATE DATABASE "{scratch}"')
    env = _pg_tool_env()
    try:
        tool = ["pg_restore", "--no-owner", f"--dbname={scratch}", str(payload)]
        subprocess.run(tool, env=env, check=True, capture_output=True)
        _pg_admin(sql, dbname=scratch)
        payload.unlink()
        dump = ["pg_dump", "--format=custom", "--no-owner", f"--file={payload}", scratch]
        subprocess.run(dump, env=env, check=True, capture_output=True)
    finally:
        _pg_admin(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')


def _edited_copy(backup: Path, tmp_path: Path, sql: str | None, *, fix_checksum: bool) -> Path:
    """A copy of ``backup`` with ``sql`` run on its data; with ``fix_checksum`` the manifest's
    size and SHA-256 are made to match the edited data (the signature cannot be)."""
    work = tmp_path / f"edit-{len(list(tmp_path.glob('edit-*')))}"
    manifest, payload = _unpack(backup, work)
    if sql:
        _edit_payload(payload, sql)
    if fix_checksum:
        size, sha256 = backup_container.file_digest(payload)
        manifest["payload"].update(size=size, sha256=sha256)
    return _pack(work / backup.name, manifest, payload)


def _make_superuser() -> str:
    return (
        f"UPDATE {get_user_model()._meta.db_table} SET is_superuser = true WHERE username = 'alice'"
    )


def _change_winner() -> str:
    return (
        f"UPDATE {HandSubmission._meta.db_table} SET winner_position = 1 WHERE status = 'confirmed'"
    )


EDITS = {"superuser": _make_superuser, "winner": _change_winner}


@pytest.fixture
def club_night(transactional_db: None) -> None:
    """An account that is not a superuser and a confirmed hand won by seat 0."""
    UserFactory(username="alice", is_superuser=False, is_staff=False)
    hand = HandSubmissionFactory(
        match=MatchFactory(event=EventFactory(confirmation=Confirmation.NONE))
    )
    assert hand.status == HandSubmission.Status.CONFIRMED
    assert hand.winner_position == 0


@pytest.fixture
def signed_backup(club_night: None, tmp_path: Path) -> Path:
    return backup_create(directory=tmp_path / "backups")


def _state() -> list[Any]:
    """What a restore would change in the test database."""
    with connection.cursor() as cursor:
        tables = sorted(connection.introspection.table_names(cursor))
    return [
        tables,
        sorted(get_user_model().objects.values_list("username", "is_superuser")),
        sorted(HandSubmission.objects.values_list("pk", "status", "winner_position")),
        sorted(Club.objects.values_list("slug", flat=True)),
    ]


def _refused(path: Path, **options: Any) -> str:
    """``manage.py restore`` refuses ``path`` (a non-zero exit) and changes nothing."""
    before = _state()
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(path), **options)
    assert _state() == before
    return str(refused.value)


def test_a_backup_put_back_together_unchanged_passes_every_check(signed_backup, tmp_path):
    """The control for the edits below: unpacked and packed again, untouched, a backup passes
    every check of the file and stops only at the test database, which is not empty."""
    again = _edited_copy(signed_backup, tmp_path, None, fix_checksum=False)
    assert "is not empty" in _refused(again)
    assert "is not empty" in _refused(signed_backup)


@pytest.mark.parametrize("fix_checksum", [False, True], ids=["data", "data-and-checksum"])
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_restore_refuses_a_backup_edited_by_hand(signed_backup, tmp_path, edit, fix_checksum):
    edited = _edited_copy(signed_backup, tmp_path, EDITS[edit](), fix_checksum=fix_checksum)
    message = _refused(edited)
    assert "has been tampered with" in message
    if fix_checksum:
        assert "its signature does not match its contents" in message
    elif connection.vendor == "sqlite":  # a pg_dump made again differs in size too
        assert "the database copy does not match its signed SHA-256" in message
    assert "Nothing was changed" in message


def test_restore_refuses_a_truncated_backup(signed_backup, tmp_path):
    data = signed_backup.read_bytes()
    with tarfile.open(signed_backup) as tar:
        payload = tar.getmembers()[1]
    ends = payload.offset_data + payload.size
    for cut in (100, 700, payload.offset_data + payload.size // 2, ends - 1):
        short = tmp_path / f"cut-{cut}.tar"
        short.write_bytes(data[:cut])
        message = _refused(short)
        assert "is truncated" in message, (cut, message)
        assert "tampered" not in message


def test_restore_refuses_a_backup_made_by_another_install(club_night, tmp_path):
    other_key = "another-install-" + "k" * 60
    with override_settings(SECRET_KEY=other_key):
        foreign = backup_create(directory=tmp_path / "backups")
    message = _refused(foreign)
    assert "was made by another Knock install" in message
    assert "SECRET_KEY" in message
    assert "--allow-foreign-key" in message
    assert "tampered" not in message
    # --allow-foreign-key skips the signature check only: the file goes on to the next checks
    assert "is not empty" in _refused(foreign, allow_foreign_key=True)
    edited = _edited_copy(foreign, tmp_path, _make_superuser(), fix_checksum=False)
    assert "has been tampered with" in _refused(edited, allow_foreign_key=True)
    # A rotated key: the old one in SECRET_KEY_FALLBACKS still verifies its backups.
    with override_settings(SECRET_KEY="rotated-" + "r" * 60, SECRET_KEY_FALLBACKS=[other_key]):
        assert "is not empty" in _refused(foreign)


def test_restore_refuses_an_unrelated_sqlite_file_and_other_archives(transactional_db, tmp_path):
    recipes = tmp_path / "recipes.sqlite3"
    db = sqlite3.connect(recipes)
    db.execute("CREATE TABLE recipe (name TEXT)")
    db.execute("INSERT INTO recipe VALUES ('kimchi')")
    db.commit()
    db.close()
    assert "is not a Knock backup (a bare SQLite database)" in _refused(recipes)
    archive = tmp_path / "recipes.tar"
    with tarfile.open(archive, "w") as tar:
        tar.add(recipes, arcname="recipes.sqlite3")
    assert "is not a Knock backup (a tar archive of something else)" in _refused(archive)
    if connection.vendor != "sqlite":
        return
    # The same file dressed as a Knock backup by someone with another key, restored with
    # --allow-foreign-key: the schema and integrity checks still see it is no Knock database.
    from core.backups import code_schema

    size, sha256 = backup_container.file_digest(recipes)
    manifest = backup_container.Manifest(
        vendor="sqlite",
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        schema=code_schema(),
        payload_name="database.sqlite3",
        payload_size=size,
        payload_sha256=sha256,
    )
    dressed = tmp_path / "knock-20260101-000000.sqlite3.tar"
    payload = tmp_path / "database.sqlite3"
    payload.write_bytes(recipes.read_bytes())
    backup_container.write(dressed, backup_container.sign(manifest, secret="x" * 60), payload)
    assert "another Knock install" in _refused(dressed)
    message = _refused(dressed, allow_foreign_key=True)
    assert "whose migrations are not the ones its manifest names" in message


@pytest.mark.parametrize("change", ["newer", "older"])
def test_restore_refuses_a_backup_taken_at_another_schema(club_night, tmp_path, change):
    from django.db.migrations.recorder import MigrationRecorder

    recorder = MigrationRecorder(connection)
    future, past = ("scoring", "9999_from_the_future"), ("sessions", "0001_initial")
    if change == "newer":
        recorder.record_applied(*future)
    else:
        recorder.record_unapplied(*past)
    try:
        backup = backup_create(directory=tmp_path / "backups")
    finally:
        if change == "newer":
            recorder.record_unapplied(*future)
        else:
            recorder.record_applied(*past)
    message = _refused(backup)
    assert "was taken at another schema" in message
    if change == "newer":
        assert "has migrations this version of Knock lacks: scoring.9999_from_the_future" in message
        assert "Upgrade Knock" in message
    else:
        assert "lacks migrations this version has: sessions.0001_initial" in message
        assert "manage.py migrate" in message


def _table_count(url: str) -> int:
    """Tables in the database at ``url`` (read directly: no Django process to start)."""
    if url.startswith("sqlite:///"):
        db = sqlite3.connect(url.removeprefix("sqlite:///"))
        try:
            return len(db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall())
        finally:
            db.close()
    import psycopg

    with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as conn:
        row = conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_refused_restore_leaves_the_empty_database_empty(signed_backup, tmp_path, two_databases):
    """As a user runs it: refused with a non-zero exit, the new database keeps no table; the
    move to another install goes through with the old key, or with --allow-foreign-key."""
    _source, target = two_databases
    same_key = {"SECRET_KEY": django_settings.SECRET_KEY}
    edited = _edited_copy(signed_backup, tmp_path, _make_superuser(), fix_checksum=True)
    done = _run(target, tmp_path, "restore", str(edited), extra=same_key)
    assert done.returncode != 0
    assert "has been tampered with" in done.stderr
    assert "Restored" not in done.stdout
    assert _table_count(target) == 0

    other_install = _run(target, tmp_path, "restore", str(signed_backup))  # var/secret_key's key
    assert other_install.returncode != 0
    assert "was made by another Knock install" in other_install.stderr
    assert _table_count(target) == 0

    moved = _run(target, tmp_path, "restore", "--allow-foreign-key", str(signed_backup))
    assert moved.returncode == 0, moved.stderr
    assert "the signature is not checked" in moved.stderr
    users = (
        "from django.contrib.auth import get_user_model; "
        "print(list(get_user_model().objects.filter(username='alice')"
        ".values_list('is_superuser', flat=True)))"
    )
    done = _run(target, tmp_path, "shell", "-c", users)
    assert done.stdout.strip().splitlines()[-1] == "[False]"


# --- Private files ----------------------------------------------------------------------------


def _mode(path: Path | str) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.django_db(transaction=True)
def test_the_database_its_wal_var_and_the_backups_are_private(tmp_path):
    old = os.umask(0o022)  # what a user's shell usually has: files 0644 unless Knock says so
    try:
        Club.objects.create(name="Private", slug="private")
        backup = backup_create(directory=tmp_path / "backups")
    finally:
        os.umask(old)
    assert _mode(backup) == 0o600
    assert _mode(backup.parent) == 0o700
    assert _mode(django_settings.VAR_DIR) == 0o700
    if connection.vendor == "sqlite":
        name = str(connection.settings_dict["NAME"])
        for each in (name, f"{name}-wal", f"{name}-shm"):
            assert _mode(each) == 0o600, each


def test_files_an_older_version_left_readable_are_tightened_on_start(tmp_path):
    var = tmp_path / "var"
    backups = var / "backups"
    backups.mkdir(parents=True)
    db = var / "knock.sqlite3"
    sqlite3.connect(db).close()
    files = [
        db,
        var / "knock.sqlite3-wal",
        var / "knock.sqlite3-shm",
        var / "secret_key",
        var / "celery-broker.sqlite3",
        backups / "knock-20250101-000000.sqlite3.tar",
    ]
    for path in files:
        path.touch()
        path.chmod(0o644)
    (var / "secret_key").write_text("k" * 80 + "\n")
    for folder in (var, backups):
        folder.chmod(0o755)
    done = _run(f"sqlite:///{db}", tmp_path, "check")
    assert done.returncode == 0, done.stderr
    assert {str(p): _mode(p) for p in files} == {str(p): 0o600 for p in files}
    assert (_mode(var), _mode(backups)) == (0o700, 0o700)
