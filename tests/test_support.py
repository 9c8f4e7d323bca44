"""tests/support.py: a missing program skips on a developer's machine and fails under CI; an
interrupted run's SQLite files are cleared before the next run makes its test database."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support import requires, sqlite_files_remove

ROOT = Path(__file__).resolve().parent.parent

# A process of an interrupted run that still has its test database open in WAL mode (a worker
# or server it started, or the run itself stuck in its teardown).
_HOLDER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("CREATE TABLE old_run (x)")
db.executemany("INSERT INTO old_run VALUES (?)", [("x" * 1000,)] * 300)
print("holding", flush=True)
time.sleep(120)
"""


@contextmanager
def interrupted_run_left(path: Path) -> Iterator[None]:
    """``path`` with the ``-wal`` and ``-shm`` of a run that is still holding them."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == "holding\n"
        assert {p.name for p in path.parent.iterdir()} >= {
            path.name,
            f"{path.name}-wal",
            f"{path.name}-shm",
        }
        yield
    finally:
        holder.kill()
        holder.wait()


def test_a_missing_program_fails_under_ci_and_skips_elsewhere(monkeypatch):
    def probe() -> str:
        return "ran"

    assert requires("/usr/bin/x", "x")(probe) is probe
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must provide x"):
        requires(None, "x")(probe)()
    monkeypatch.delenv("CI")
    skipped = requires(None, "x")(probe)
    assert [mark.name for mark in skipped.pytestmark] == ["skip"]


def test_a_new_database_beside_an_interrupted_runs_files_starts_clean(tmp_path):
    path = tmp_path / "test.sqlite3"
    with interrupted_run_left(path):
        (tmp_path / "test.sqlite3-journal").write_bytes(b"left by a run in rollback mode")
        removed = sqlite_files_remove(path)
        assert {p.name for p in removed} == {
            "test.sqlite3",
            "test.sqlite3-wal",
            "test.sqlite3-shm",
            "test.sqlite3-journal",
        }
        # What Django's test runner does next: a new file in WAL mode, written to at once.
        db = sqlite3.connect(path, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE new_run (y)")
        db.executemany("INSERT INTO new_run VALUES (?)", [("y" * 1000,)] * 50)
        tables = db.execute("SELECT name FROM sqlite_master").fetchall()
        db.close()
    assert tables == [("new_run",)]
    assert sqlite_files_remove(tmp_path / "absent.sqlite3") == []


@pytest.mark.django_db
def test_the_test_database_answers(django_user_model):
    """What the next run below does: one test on a newly made test database."""
    django_user_model.objects.create(username="next-run")
    assert django_user_model.objects.filter(username="next-run").exists()


def test_the_next_run_starts_whatever_an_interrupted_run_left(tmp_path):
    path = tmp_path / "test-knock.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "KNOCK_TEST"))}
    env["KNOCK_TEST_SQLITE"] = str(path)
    with interrupted_run_left(path):
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                f"{Path(__file__).relative_to(ROOT)}::test_the_test_database_answers",
                "-q",
                "-p",
                "no:cacheprovider",
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "1 passed" in run.stdout
