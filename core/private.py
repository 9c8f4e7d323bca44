"""Knock's private files: readable and writable by their owner only.

The SQLite database (with its ``-wal`` and ``-shm`` files, which hold the newest rows), the
backups, the embedded key (``var/secret_key``) and the broker's file hold everything a club
entered. On a shared machine another account must not read them, so ``var/`` and the backups'
folder are ``0700`` and the files in them ``0600``.

New files are made private where they are made: the SQLite backend creates the database file
with mode ``0600`` (SQLite gives the ``-wal`` and ``-shm`` files the database file's mode), the
backups are written ``0600`` into a ``0700`` folder, and ``manage.py serve`` sets the umask
``077`` for itself and the processes it starts. Files left by an older version are tightened
when Knock starts (:func:`private_files_tighten`, from ``CoreConfig.ready``).

Tightening takes away the group's and others' bits and keeps the owner's; it skips symbolic
links, files of another owner and file systems that have no modes (a USB stick in FAT), which
Knock cannot help.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings

DIR_MODE = 0o700
FILE_MODE = 0o600
UMASK = 0o077
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal", "-writegate")


def tighten(path: Path | str) -> bool:
    """Take the group's and others' permission bits off ``path``; True when it changed."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    mode = stat.S_IMODE(info.st_mode)
    if stat.S_ISLNK(info.st_mode) or not mode & UMASK:
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return False
    try:
        os.chmod(path, mode & ~UMASK)
    except OSError:  # a file system without modes, or read-only
        return False
    return True


def private_directory(path: Path) -> Path:
    """Make ``path`` (and missing parents) as a ``0700`` folder; tighten it if it exists."""
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    tighten(path)
    return path


def sqlite_files(name: Path | str) -> list[Path]:
    """A SQLite database file and the files SQLite and the write gate keep beside it."""
    base = Path(name)
    return [base, *(base.with_name(base.name + suffix) for suffix in SQLITE_COMPANIONS)]


def private_file_create(path: Path | str) -> None:
    """Create ``path`` empty with mode ``0600`` unless it exists; tighten it if it does.

    The SQLite backend calls this before SQLite opens a database file, so that a new database,
    and the ``-wal``/``-shm`` files SQLite makes with the database file's mode, are private.
    """
    # O_EXCL: never open (and so never close) a database file that exists. Closing any
    # descriptor of a file drops every POSIX lock this process holds on it, so opening and
    # closing the file beside SQLite's own connections would lose their locks and corrupt the
    # database ("disk I/O error", "database disk image is malformed": seen in tests/venue).
    with contextlib.suppress(OSError):  # it exists, or a missing folder SQLite reports itself
        os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, FILE_MODE))
    for each in sqlite_files(path):
        tighten(each)


def _children(folder: Path) -> Iterable[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def private_files_tighten() -> list[Path]:
    """Tighten what an older version left readable; return what was changed.

    ``var/`` and everything directly in it (the database, its ``-wal``/``-shm``, the key, the
    broker's file, the cache's and the backups' folders), the SQLite database wherever
    ``DATABASES`` puts it, and every file in the backups' folder. Cheap (a stat per file):
    it runs in every process that starts Django.
    """
    changed: list[Path] = []
    var = Path(settings.VAR_DIR)
    backups = Path(settings.KNOCK_BACKUP_DIR)
    paths: list[Path] = [var, *_children(var), backups, *_children(backups)]
    for db in settings.DATABASES.values():
        if str(db.get("ENGINE", "")).endswith("sqlite3") and db.get("NAME"):
            name = str(db["NAME"])
            if name != ":memory:" and not name.startswith("file:"):
                paths.extend(sqlite_files(name))
    for path in dict.fromkeys(paths):
        if tighten(path):
            changed.append(path)
    return changed
