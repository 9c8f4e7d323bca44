"""Helpers shared by the test packages' conftests and modules (no fixtures here)."""

from __future__ import annotations

import functools
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote

import pytest

if TYPE_CHECKING:
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.migrations.executor import MigrationExecutor

F = TypeVar("F", bound=Callable[..., Any])

# A test that reads the processes it started from /proc (Linux only).
needs_proc = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")

# What SQLite (and core.sqlite3's write gate) keep beside a database file.
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal", "-writegate")


def sqlite_files_remove(path: Path) -> list[Path]:
    """Remove an SQLite database file and the files SQLite keeps beside it; return those found.

    Django's test runner deletes only the database file itself before it makes a new one. The
    ``-wal`` and ``-shm`` of a run that was interrupted (Ctrl-C, a killed terminal) then meet the
    new file, and where a process of that run still holds them (a worker or server it started)
    SQLite answers the new run with ``disk I/O error``. Unlinked, they stay with that process
    and the new database gets files of its own.
    """
    found = []
    for candidate in (path, *(path.with_name(path.name + side) for side in SQLITE_SIDE_FILES)):
        try:
            candidate.unlink()
        except FileNotFoundError:
            continue
        found.append(candidate)
    return found


def asked_for(config: pytest.Config, *, marker: str, folder: Path) -> bool:
    """Whether this run names ``marker`` in ``-m`` or a path inside ``folder``."""
    if marker in (config.getoption("markexpr", "") or ""):
        return True
    for arg in config.args:
        path = Path(arg.split("::")[0]).resolve()
        if path == folder or folder in path.parents:
            return True
    return False


def deselect_unless_asked(
    config: pytest.Config, items: list[pytest.Item], *, marker: str, folder: Path
) -> None:
    """Leave out the tests under ``folder`` unless the run asks for them (slow suites that CI
    runs as phases of their own: the contract walk, the venue probe)."""
    if asked_for(config, marker=marker, folder=folder):
        return
    left_out = [item for item in items if folder in Path(str(item.fspath)).resolve().parents]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item not in left_out]


def requires(found: object, what: str) -> Callable[[F], F]:
    """Skip a test whose program (nginx, Node.js) is missing on a developer's machine, where
    `make test` needs only Python; under CI, which installs it, a missing one fails instead, so
    a green CI never hides a skipped check."""

    def wrap(test: F) -> F:
        if found:
            return test
        if os.environ.get("CI"):

            @functools.wraps(test)
            def missing(*args: Any, **kwargs: Any) -> None:
                pytest.fail(f"CI must provide {what} (.ci/run installs it)")

            return missing  # type: ignore[return-value]
        return pytest.mark.skip(reason=f"needs {what}")(test)

    return wrap


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now, for a server a test starts."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database_url(settings_dict: dict[str, object]) -> str:
    """The URL of the database the tests run on, for a worker process to open the same one."""
    engine = str(settings_dict["ENGINE"])
    name = str(settings_dict["NAME"])
    if engine.endswith("sqlite3"):
        return f"sqlite:///{name}"
    user = quote(str(settings_dict.get("USER") or ""))
    password = quote(str(settings_dict.get("PASSWORD") or ""))
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{name}"


def old_chain_executor(connection: BaseDatabaseWrapper) -> MigrationExecutor:
    """A ``MigrationExecutor`` on ``connection`` whose graph has the migrations that squashed ones
    replace and not the squashes, as Django plans for a database made before the squashes (one
    with some of a squash's migrations applied): a test can migrate back to a migration a squash
    replaced, store rows with that state's models, and run the old chain's data migrations."""
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    loader = executor.loader
    loader.replace_migrations = False
    loader.build_graph()
    for key, migration in loader.replacements.items():
        loader.graph.remove_replacement_node(key, migration.replaces)
        loader.applied_migrations.pop(key, None)
    return executor
