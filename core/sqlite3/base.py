"""Django's SQLite backend with a write gate in front of ``BEGIN IMMEDIATE``.

On the embedded default the web server's processes, the Celery worker and beat share one
SQLite file, and SQLite lets one transaction write at a time. A writer that finds the lock
taken is put to sleep by SQLite's busy handler in growing steps (1, 2, 5, 10 … up to 100 ms),
whether or not the lock comes free in the meantime: at a busy club night a third of the web
threads' time went to those sleeps while the lock itself was often free (docs/live.md).

The gate queues writers instead. A transaction first takes a lock of its own process (a
thread lock, which wakes the next thread as soon as it is let go), then an exclusive ``flock``
on a file beside the database, shared by every process; only then does it ``BEGIN
IMMEDIATE``, which then rarely has to wait. Commit, rollback and close let the gate go.

It never makes things worse than SQLite alone:

- a process killed while holding it lets it go (the kernel drops a dead process's ``flock``);
- a holder that is stopped (``SIGSTOP``) or stuck is waited for only ``GATE_WAIT`` seconds;
  then the writer goes on without the gate, and SQLite's own timeout applies as before;
- where the gate cannot be made (an in-memory database, a read-only folder, a system without
  ``fcntl``), the thread lock alone or nothing is used.

The gate covers transactions (``transaction.atomic``) and single writes made outside one (an
``UPDATE`` in autocommit mode is a transaction of its own to SQLite).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from django.db.backends.sqlite3 import base

from core.private import private_file_create

try:  # Windows has no fcntl: the thread lock alone serves there.
    import fcntl
except ImportError:  # pragma: no cover - not on the platforms CI runs
    fcntl = None  # type: ignore[assignment]

# How long a writer waits at the gate before it goes on without it (seconds).
GATE_WAIT = 5.0


class WriteGate:
    """One database file's gate: a thread lock for this process, a file lock for all."""

    def __init__(self, path: str | None) -> None:
        self._threads = threading.Lock()
        self._path = path
        self._fd: int | None = None
        self._pid = 0
        self._held: int | None = None  # the descriptor holding the file lock
        self._owner: int | None = None
        self.waited = 0  # acquisitions that found the gate taken (for tests and figures)
        self.bypassed = 0  # writers that went on without it after GATE_WAIT
        self.cursor_class: type | None = None  # Django's cursor taking this gate (see below)

    def _file(self) -> int | None:
        """This process's descriptor of the gate file (a fork needs its own)."""
        if self._path is None or fcntl is None:
            return None
        if self._fd is None or self._pid != os.getpid():
            try:
                self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                self._path = None
                return None
            self._pid = os.getpid()
        return self._fd

    def enter(self, wait: float = GATE_WAIT) -> bool:
        """Take the gate; False (holding nothing) when it could not be had in ``wait`` seconds.

        A thread that already holds it (a second connection in one thread) does not wait for
        itself: it goes on without the gate.
        """
        if self._owner == threading.get_ident():
            return False
        deadline = time.monotonic() + wait
        if not self._threads.acquire(blocking=False):
            self.waited += 1
            if not self._threads.acquire(timeout=wait):
                self.bypassed += 1
                return False
        try:
            fd = self._file()
            if fd is not None:
                if try_flock(fd):
                    self._held = fd
                else:
                    self.waited += 1
                    held = _flock_within(str(self._path), deadline - time.monotonic())
                    if held is None:
                        self.bypassed += 1
                        self._threads.release()
                        return False
                    self._held = held
        except BaseException:
            self._threads.release()
            raise
        self._owner = threading.get_ident()
        return True

    def leave(self) -> None:
        """Let the gate go (only its holder calls this)."""
        self._owner = None
        held, self._held = self._held, None
        try:
            if held is not None and fcntl is not None:
                fcntl.flock(held, fcntl.LOCK_UN)
                if held != self._fd:
                    os.close(held)
        finally:
            self._threads.release()


def try_flock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _flock_within(path: str, wait: float) -> int | None:
    """A new descriptor of ``path`` holding its file lock, or None after ``wait`` seconds.

    A blocking ``flock`` wakes the moment the holder lets go (polling would add up to a poll
    interval to every hand-over between processes), but it cannot be given a timeout. So a
    helper thread waits in it on a descriptor of its own, while the writer waits for the helper
    only ``wait`` seconds. A helper given up on keeps waiting; when it gets the lock it lets it
    go at once and closes its descriptor (its own, so that it never lets go of a lock another
    thread of this process holds).
    """
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    got = threading.Event()
    state = {"abandoned": False}
    guard = threading.Lock()

    def take() -> None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            with guard:
                state["abandoned"] = True
            os.close(fd)
            return
        with guard:
            if state["abandoned"]:
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)
                return
            got.set()

    threading.Thread(target=take, name="knock-write-gate", daemon=True).start()
    if got.wait(max(wait, 0.0)):
        return fd
    with guard:
        if got.is_set():
            return fd
        state["abandoned"] = True
    return None


_gates: dict[str, WriteGate] = {}
_gates_lock = threading.Lock()


def _forget_gates() -> None:
    """A forked child starts with gates of its own: a parent's thread might have held one."""
    global _gates_lock
    _gates.clear()
    _gates_lock = threading.Lock()


if hasattr(os, "register_at_fork"):  # not on Windows, which does not fork
    os.register_at_fork(after_in_child=_forget_gates)


def gate_for(name: str, in_memory: bool) -> WriteGate:
    """The one gate of this process for a database file (by its absolute path)."""
    key = ":memory:" if in_memory else os.path.abspath(str(name))
    with _gates_lock:
        gate = _gates.get(key)
        if gate is None:
            gate = _gates[key] = WriteGate(None if in_memory else key + "-writegate")
        return gate


_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


def _cursor_class(gate: WriteGate) -> type[base.SQLiteCursorWrapper]:
    """Django's cursor, taking ``gate`` around a write made outside a transaction.

    Such a statement (``QuerySet.update`` in autocommit mode, say) is a transaction of its own
    to SQLite; left to the busy handler, it lost the lock again and again to gated writers,
    which hand it over at once.
    """

    class GatedCursor(base.SQLiteCursorWrapper):
        def _ungated(self, query: str) -> bool:
            return self.connection.in_transaction or not query.lstrip()[:7].upper().startswith(
                _WRITES
            )

        def execute(self, query: str, params: Any = None) -> Any:
            if self._ungated(query):
                return super().execute(query, params)
            held = gate.enter()
            try:
                return super().execute(query, params)
            finally:
                if held:
                    gate.leave()

        def executemany(self, query: str, param_list: Any) -> Any:
            if self._ungated(query):
                return super().executemany(query, param_list)
            held = gate.enter()
            try:
                return super().executemany(query, param_list)
            finally:
                if held:
                    gate.leave()

    return GatedCursor


class DatabaseWrapper(base.DatabaseWrapper):
    """``django.db.backends.sqlite3`` with the write gate around each transaction, and around
    each write made outside one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._held_gate: WriteGate | None = None
        self._gate_of: tuple[Any, int, WriteGate] | None = None

    def _gate(self) -> WriteGate:
        """This process's gate for the database now named (the test runner renames it)."""
        name, pid = self.settings_dict["NAME"], os.getpid()
        known = self._gate_of
        if known is None or known[0] != name or known[1] != pid:
            known = self._gate_of = (name, pid, gate_for(name, self.is_in_memory_db()))
        return known[2]

    def get_new_connection(self, conn_params: Any) -> Any:
        # The database is a private file (core.private): made 0600 before SQLite opens it, so
        # the -wal and -shm files SQLite makes with its mode are too; older ones are tightened.
        name = str(conn_params.get("database", ""))
        if not self.is_in_memory_db() and not name.startswith("file:"):
            private_file_create(name)
        return super().get_new_connection(conn_params)

    def create_cursor(self, name: Any = None) -> Any:
        gate = self._gate()
        if gate.cursor_class is None:
            gate.cursor_class = _cursor_class(gate)
        return self.connection.cursor(factory=gate.cursor_class)

    def _start_transaction_under_autocommit(self) -> None:
        gate = self._gate()
        if gate.enter():
            self._held_gate = gate
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._leave_gate()
            raise

    def _leave_gate(self) -> None:
        gate, self._held_gate = self._held_gate, None
        if gate is not None:
            gate.leave()

    def _commit(self) -> Any:
        try:
            return super()._commit()  # type: ignore[misc]
        finally:
            self._leave_gate()

    def _rollback(self) -> Any:
        try:
            return super()._rollback()  # type: ignore[misc]
        finally:
            self._leave_gate()

    def _close(self) -> Any:
        try:
            return super()._close()  # type: ignore[misc]
        finally:
            self._leave_gate()
