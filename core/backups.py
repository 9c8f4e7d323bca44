"""Backups of the database: a consistent, signed copy while Knock runs, and restoring one.

SQLite (the embedded default) is copied with SQLite's online backup API, page by page under
SQLite's own locking, so a copy taken while the web server and worker write is consistent (copying
the file of a WAL-mode database is not). PostgreSQL is dumped with ``pg_dump`` in its custom format
(one consistent snapshot) and restored with ``pg_restore``.

Each backup is one file (core.backup_container): the copy, the migrations it was taken at and a
signature made with this install's ``SECRET_KEY``. A restore checks all of it before it touches
the database and refuses, saying which, a file that is not a Knock backup, is truncated, was
edited, was made by another install or at another schema. It goes only into an empty database
(no tables at all): restoring over live data would mix two histories. The backup's file name
carries the date and time it was taken. Backups are private files (core.private).
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from core import backup_container as container
from core.errors import ApplicationError
from core.private import private_directory, sqlite_files, tighten

logger = logging.getLogger(__name__)

PREFIX = "knock-"
SUFFIXES = {"sqlite": ".sqlite3.tar", "postgresql": ".pgdump.tar"}
SHOWN = 8  # migrations named in a refusal; the rest are counted


def backup_directory() -> Path:
    return Path(settings.KNOCK_BACKUP_DIR)


def _vendor(alias: str) -> str:
    return connections[alias].vendor


def _pg_env(db: dict[str, Any]) -> dict[str, str]:
    env = dict(os.environ)
    for key, var in (
        ("HOST", "PGHOST"),
        ("PORT", "PGPORT"),
        ("USER", "PGUSER"),
        ("PASSWORD", "PGPASSWORD"),
    ):
        if db.get(key):
            env[var] = str(db[key])
    return env


def _pg_tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise ApplicationError(f"{name} is not installed: install PostgreSQL's client tools.")
    return found


def _private_backup_directory(directory: Path) -> Path:
    """The backups' folder, made ``0700``; files an older version left there are tightened.

    A folder given with ``--dir`` that already exists (a USB stick) keeps its mode: only the
    configured ``KNOCK_BACKUP_DIR`` is Knock's own.
    """
    if not directory.exists() or directory.resolve() == backup_directory().resolve():
        private_directory(directory)
    for path in backup_list(directory=directory):
        tighten(path)
    return directory


def _sqlite_copy(db: dict[str, Any], into: Path, alias: str) -> container.Schema:
    """SQLite's online backup of the database into ``into``; the migrations the copy holds."""
    os.close(os.open(into, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
    source = sqlite3.connect(str(db["NAME"]), timeout=30)
    try:
        copy = sqlite3.connect(str(into))
        try:
            source.backup(copy)
        finally:
            copy.close()
    finally:
        source.close()
    return _sqlite_schema(into)


def _pg_copy(db: dict[str, Any], into: Path, alias: str) -> container.Schema:
    """``pg_dump`` of the database into ``into``; the migrations recorded in it."""
    schema = _recorded_schema(alias)
    done = subprocess.run(
        [_pg_tool("pg_dump"), "--format=custom", "--no-owner", f"--file={into}", db["NAME"]],
        env=_pg_env(db),
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise ApplicationError(f"pg_dump failed: {done.stderr.strip()}")
    if _recorded_schema(alias) != schema:  # a migrate ran meanwhile: the dump is ambiguous
        raise ApplicationError("The database was migrated while it was dumped: back up again.")
    return schema


def backup_create(
    *, directory: Path | None = None, at: datetime | None = None, alias: str = "default"
) -> Path:
    """Write a consistent, signed copy of the database; return its path.

    The file is ``knock-YYYYMMDD-HHMMSS.sqlite3.tar`` (or ``.pgdump.tar``), mode 0600, in a
    0700 folder; a half-written one never carries a backup's name.
    """
    directory = _private_backup_directory(directory or backup_directory())
    stamp = timezone.localtime(at or timezone.now())
    db = connections[alias].settings_dict
    vendor = _vendor(alias)
    if vendor not in SUFFIXES:
        raise ApplicationError(f"Backups support SQLite and PostgreSQL, not {vendor}.")
    target = directory / f"{PREFIX}{stamp.strftime('%Y%m%d-%H%M%S')}{SUFFIXES[vendor]}"
    with tempfile.TemporaryDirectory(prefix=".knock-backup-", dir=directory) as work:
        payload = Path(work) / container.PAYLOAD_NAMES[vendor]
        copy = _sqlite_copy if vendor == "sqlite" else _pg_copy
        schema = copy(db, payload, alias)
        size, sha256 = container.file_digest(payload)
        manifest = container.sign(
            container.Manifest(
                vendor=vendor,
                created=stamp.isoformat(timespec="seconds"),
                schema=schema,
                payload_name=payload.name,
                payload_size=size,
                payload_sha256=sha256,
            )
        )
        partial = Path(work) / "backup.partial"
        container.write(partial, manifest, payload)
        partial.replace(target)
    return target


def _tables(alias: str) -> list[str]:
    connection = connections[alias]
    with connection.cursor() as cursor:
        return list(connection.introspection.table_names(cursor))


def _recorded_schema(alias: str) -> container.Schema:
    """The migrations recorded in the database ``alias`` (its ``django_migrations``)."""
    return sorted(MigrationRecorder(connections[alias]).applied_migrations())


def _sqlite_schema(path: Path) -> container.Schema:
    """The migrations recorded in the SQLite file ``path``; empty without the table."""
    copy = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        known = copy.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'django_migrations'"
        ).fetchone()
        rows = copy.execute("SELECT app, name FROM django_migrations").fetchall() if known else []
    finally:
        copy.close()
    return sorted({(str(app), str(name)) for app, name in rows})


def code_schema() -> container.Schema:
    """The migrations this version of Knock has: what ``migrate`` records on a new database."""
    return sorted(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)


def _listed(pairs: list[tuple[str, str]]) -> str:
    names = [f"{app}.{name}" for app, name in pairs]
    more = len(names) - SHOWN
    return ", ".join(names[:SHOWN]) + (f" and {more} more" if more > 0 else "")


def _check_schema(path: Path, manifest: container.Manifest) -> None:
    ours = set(code_schema())
    theirs = set(manifest.schema)
    if theirs == ours:
        return
    newer = sorted(theirs - ours)
    older = sorted(ours - theirs)
    parts = []
    if newer:
        parts.append(f"it has migrations this version of Knock lacks: {_listed(newer)}")
    if older:
        parts.append(f"it lacks migrations this version has: {_listed(older)}")
    advice = (
        "Install the Knock version that made it (one with exactly these migrations), restore "
        "there, then upgrade Knock and run `manage.py migrate`"
        if older and not newer
        else "Upgrade Knock to the version that made it (or restore with that version)"
    )
    raise ApplicationError(
        f"{path} was taken at another schema than this version of Knock: "
        + "; ".join(parts)
        + f". {advice}. Nothing was changed."
    )


def _check_sqlite_copy(path: Path, copy: Path, manifest: container.Manifest) -> None:
    """The SQLite copy is a sound database recording the migrations its manifest names."""
    try:
        db = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
        try:
            integrity = db.execute("PRAGMA integrity_check").fetchone()
        finally:
            db.close()
        recorded = _sqlite_schema(copy)
    except sqlite3.DatabaseError as exc:
        raise ApplicationError(
            f"{path} holds no sound SQLite database ({exc}). Nothing was changed."
        ) from exc
    if integrity != ("ok",):
        raise ApplicationError(
            f"{path} holds a damaged SQLite database ({integrity[0] if integrity else '?'}). "
            "Nothing was changed."
        )
    if recorded != sorted(manifest.schema):
        raise ApplicationError(
            f"{path} holds a database whose migrations are not the ones its manifest names "
            "(not a Knock database, or edited). Nothing was changed."
        )


def _check_pg_copy(path: Path, copy: Path, db: dict[str, Any]) -> None:
    """``pg_restore --list`` reads the whole table of contents of the dump."""
    done = subprocess.run(
        [_pg_tool("pg_restore"), "--list", str(copy)],
        env=_pg_env(db),
        capture_output=True,
        text=True,
    )
    if done.returncode or "django_migrations" not in done.stdout:
        raise ApplicationError(
            f"{path} holds no readable Knock pg_dump ({done.stderr.strip() or 'no migrations'}). "
            "Nothing was changed."
        )


def backup_restore(*, path: Path, alias: str = "default", allow_foreign_key: bool = False) -> None:
    """Check the backup ``path`` and restore it into the empty database.

    Refuses, saying which and changing nothing: a file that is not a Knock backup, a truncated
    or edited one, one signed with another ``SECRET_KEY`` (unless ``allow_foreign_key``: that
    skips the signature check only), one taken at other migrations than this version's, one of
    the other database kind, and a database that is not empty.
    """
    db = connections[alias].settings_dict
    vendor = _vendor(alias)
    with tempfile.TemporaryDirectory(prefix="knock-restore-") as work:
        copy = Path(work) / "database"
        manifest = container.read(path, into=copy, allow_foreign_key=allow_foreign_key)
        if manifest.vendor != vendor:
            raise ApplicationError(
                f"{path} is a {manifest.vendor} backup; the database is {vendor}. Restore it "
                f"into a {manifest.vendor} database. Nothing was changed."
            )
        _check_schema(path, manifest)
        if vendor == "sqlite":
            _check_sqlite_copy(path, copy, manifest)
        else:
            _check_pg_copy(path, copy, db)
        tables = _tables(alias)
        if tables:
            raise ApplicationError(
                f"The database {db['NAME']} is not empty ({len(tables)} tables). Restore only "
                "into an empty database: point DATABASE_URL at a new one, or move the old file "
                "away."
            )
        connections[alias].close()
        # Live regions drawn for spectators are kept in the shared cache by (id, version): a
        # restored database counts versions again from the backup's, so what was kept must go.
        cache.clear()
        if vendor == "sqlite":
            _sqlite_restore(copy, db)
            for each in sqlite_files(db["NAME"]):
                tighten(each)
        else:
            _pg_restore(copy, db)


def _sqlite_restore(copy: Path, db: dict[str, Any]) -> None:
    source = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(str(db["NAME"]), timeout=30)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()


def _pg_restore(copy: Path, db: dict[str, Any]) -> None:
    done = subprocess.run(
        [
            _pg_tool("pg_restore"),
            "--no-owner",
            "--exit-on-error",
            "--single-transaction",
            f"--dbname={db['NAME']}",
            str(copy),
        ],
        env=_pg_env(db),
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise ApplicationError(f"pg_restore failed: {done.stderr.strip()}")


def backup_list(*, directory: Path | None = None) -> list[Path]:
    """Knock's backups in ``directory``, oldest first (the names sort by date)."""
    directory = directory or backup_directory()
    if not directory.is_dir():
        return []
    return sorted(
        p
        for p in directory.iterdir()
        if p.name.startswith(PREFIX) and p.name.endswith(tuple(SUFFIXES.values()))
    )


def backup_prune(*, keep: int, directory: Path | None = None) -> list[Path]:
    """Delete all but the newest ``keep`` backups; return what was deleted."""
    backups = backup_list(directory=directory)
    doomed = backups[: max(0, len(backups) - max(keep, 1))]
    for path in doomed:
        path.unlink(missing_ok=True)
    return doomed


def backup_nightly(*, at: datetime | None = None, directory: Path | None = None) -> Path | None:
    """The scheduled backup: one per calendar day on the embedded SQLite, then prune.

    Beat asks every 15 minutes, so a laptop that is off at night still gets its day's backup soon
    after it starts. PostgreSQL is left to the server's own backup routine (``manage.py backup``
    from cron, or the provider's snapshots).
    """
    if _vendor("default") != "sqlite":
        return None
    at = at or timezone.now()
    day = PREFIX + timezone.localtime(at).strftime("%Y%m%d") + "-"
    if any(p.name.startswith(day) for p in backup_list(directory=directory)):
        return None
    path = backup_create(directory=directory, at=at)
    for old in backup_prune(keep=settings.KNOCK_BACKUP_KEEP, directory=directory):
        logger.info("deleted old backup %s", old)
    logger.info("nightly backup written to %s", path)
    return path
