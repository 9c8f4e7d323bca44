"""Backups of the database: a consistent copy while Knock runs, and restoring one.

SQLite (the embedded default) is copied with SQLite's online backup API, page by page under
SQLite's own locking, so a copy taken while the web server and worker write is consistent (copying
the file of a WAL-mode database is not). PostgreSQL is dumped with ``pg_dump`` in its custom format
(one consistent snapshot) and restored with ``pg_restore``.

A restore goes only into an empty database (no tables at all): restoring over live data would
mix two histories. The backup's file name carries the date and time it was taken.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.utils import timezone

from core.errors import ApplicationError

logger = logging.getLogger(__name__)

PREFIX = "knock-"
SQLITE_SUFFIX = ".sqlite3"
PG_SUFFIX = ".pgdump"
PG_MAGIC = b"PGDMP"
SQLITE_MAGIC = b"SQLite format 3\x00"


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


def backup_create(
    *, directory: Path | None = None, at: datetime | None = None, alias: str = "default"
) -> Path:
    """Write a consistent copy of the database; return its path (``knock-YYYYMMDD-HHMMSS.*``)."""
    directory = directory or backup_directory()
    directory.mkdir(parents=True, exist_ok=True)
    stamp = timezone.localtime(at or timezone.now()).strftime("%Y%m%d-%H%M%S")
    db = connections[alias].settings_dict
    vendor = _vendor(alias)
    if vendor == "sqlite":
        target = directory / f"{PREFIX}{stamp}{SQLITE_SUFFIX}"
        partial = target.with_suffix(".partial")
        source = sqlite3.connect(str(db["NAME"]), timeout=30)
        try:
            copy = sqlite3.connect(str(partial))
            try:
                source.backup(copy)
            finally:
                copy.close()
        finally:
            source.close()
    elif vendor == "postgresql":
        target = directory / f"{PREFIX}{stamp}{PG_SUFFIX}"
        partial = target.with_suffix(".partial")
        done = subprocess.run(
            [_pg_tool("pg_dump"), "--format=custom", "--no-owner", f"--file={partial}", db["NAME"]],
            env=_pg_env(db),
            capture_output=True,
            text=True,
        )
        if done.returncode:
            partial.unlink(missing_ok=True)
            raise ApplicationError(f"pg_dump failed: {done.stderr.strip()}")
    else:
        raise ApplicationError(f"Backups support SQLite and PostgreSQL, not {vendor}.")
    partial.replace(target)  # a half-written copy never carries a backup's name
    return target


def _tables(alias: str) -> list[str]:
    connection = connections[alias]
    with connection.cursor() as cursor:
        return list(connection.introspection.table_names(cursor))


def backup_restore(*, path: Path, alias: str = "default") -> None:
    """Restore ``path`` into the empty database; refuse a non-empty one or a wrong file."""
    if not path.is_file():
        raise ApplicationError(f"No backup at {path}.")
    head = path.read_bytes()[:16]
    vendor = _vendor(alias)
    kind = "sqlite" if head == SQLITE_MAGIC else "postgresql" if head[:5] == PG_MAGIC else None
    if kind is None:
        raise ApplicationError(f"{path} is not a Knock backup (neither SQLite nor pg_dump).")
    if kind != vendor:
        raise ApplicationError(
            f"{path} is a {kind} backup; the database is {vendor}. Restore it into a "
            f"{kind} database."
        )
    tables = _tables(alias)
    db = connections[alias].settings_dict
    if tables:
        raise ApplicationError(
            f"The database {db['NAME']} is not empty ({len(tables)} tables). Restore only into "
            "an empty database: point DATABASE_URL at a new one, or move the old file away."
        )
    connections[alias].close()
    # Live regions drawn for spectators are kept in the shared cache by (id, version): a restored
    # database counts versions again from the backup's, so what was kept must go (core.live).
    cache.clear()
    if vendor == "sqlite":
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            target = sqlite3.connect(str(db["NAME"]), timeout=30)
            try:
                source.backup(target)
            finally:
                target.close()
        finally:
            source.close()
        return
    done = subprocess.run(
        [
            _pg_tool("pg_restore"),
            "--no-owner",
            "--exit-on-error",
            "--single-transaction",
            f"--dbname={db['NAME']}",
            str(path),
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
        if p.name.startswith(PREFIX) and p.suffix in (SQLITE_SUFFIX, PG_SUFFIX)
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
