"""The SQLite write gate (core.sqlite3): writers queue; a dead or stopped holder never hangs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.db import connection, transaction

from core.sqlite3.base import WriteGate, gate_for, try_flock

HOLD = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(float(sys.argv[2]))
"""


def _holder(path: Path, seconds: float) -> subprocess.Popen[str]:
    """Another process that takes the gate's file lock and keeps it for ``seconds``."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_a_second_thread_waits_for_the_first_and_goes_on_as_soon_as_it_is_let_go(
    tmp_path: Path,
) -> None:
    gate = WriteGate(str(tmp_path / "db-writegate"))
    assert gate.enter()
    entered: list[float] = []

    def second() -> None:
        assert gate.enter()
        entered.append(time.monotonic())
        gate.leave()

    thread = threading.Thread(target=second)
    thread.start()
    time.sleep(0.2)
    assert entered == []  # still queued behind the first
    let_go = time.monotonic()
    gate.leave()
    thread.join(5)
    assert entered
    assert entered[0] - let_go < 0.1
    assert gate.waited == 1
    assert gate.bypassed == 0


def test_another_process_holding_the_gate_is_waited_for_then_the_gate_is_had(
    tmp_path: Path,
) -> None:
    path = tmp_path / "db-writegate"
    holder = _holder(path, 0.3)
    gate = WriteGate(str(path))
    started = time.monotonic()
    assert gate.enter(wait=5)
    waited = time.monotonic() - started
    gate.leave()
    holder.wait(5)
    assert 0.15 < waited < 2
    assert gate.waited == 1  # it found the file lock taken


def test_writers_of_several_processes_take_turns(tmp_path: Path) -> None:
    """Three processes, each adding to a counter file under the gate: no update is lost."""
    counter = tmp_path / "counter"
    counter.write_text("0")
    script = f"""
import sys
sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
from core.sqlite3.base import WriteGate
gate = WriteGate({str(tmp_path / "db-writegate")!r})
for _ in range(200):
    assert gate.enter(wait=30)
    path = {str(counter)!r}
    value = int(open(path).read())
    open(path, "w").write(str(value + 1))
    gate.leave()
"""
    procs = [subprocess.Popen([sys.executable, "-c", script]) for _ in range(3)]
    assert [p.wait(60) for p in procs] == [0, 0, 0]
    assert counter.read_text() == "600"


def test_a_stopped_holder_is_waited_for_only_so_long(tmp_path: Path) -> None:
    """The worker-SIGSTOP drill's case: the writer goes on without the gate instead of hanging."""
    path = tmp_path / "db-writegate"
    holder = _holder(path, 60)
    holder.send_signal(signal.SIGSTOP)
    try:
        gate = WriteGate(str(path))
        started = time.monotonic()
        assert gate.enter(wait=0.3) is False
        assert 0.25 < time.monotonic() - started < 2
        assert gate.bypassed == 1
        # Nothing is held after a bypass: the next writer of this process is not queued behind it.
        assert gate._threads.acquire(blocking=False)
        gate._threads.release()
    finally:
        holder.send_signal(signal.SIGCONT)
        holder.kill()
        holder.wait(5)
    # The helper that was given up on gets the lock when the holder is gone, and lets it go.
    probe = os.open(path, os.O_RDWR)
    try:
        for _ in range(100):
            if try_flock(probe):
                break
            time.sleep(0.02)
        else:
            pytest.fail("the abandoned helper kept the gate")
    finally:
        os.close(probe)
    assert gate.enter(wait=1)
    gate.leave()


def test_a_killed_holder_lets_the_gate_go(tmp_path: Path) -> None:
    path = tmp_path / "db-writegate"
    holder = _holder(path, 60)
    holder.kill()
    holder.wait(5)
    gate = WriteGate(str(path))
    started = time.monotonic()
    assert gate.enter(wait=5)
    assert time.monotonic() - started < 0.5
    gate.leave()


def test_a_thread_that_holds_the_gate_does_not_wait_for_itself(tmp_path: Path) -> None:
    gate = WriteGate(str(tmp_path / "db-writegate"))
    assert gate.enter()
    started = time.monotonic()
    assert gate.enter() is False
    assert time.monotonic() - started < 0.1
    gate.leave()


def test_without_a_file_the_thread_lock_alone_queues_writers() -> None:
    gate = WriteGate(None)
    assert gate.enter()
    result: list[bool] = []
    thread = threading.Thread(target=lambda: result.append(gate.enter(wait=0.2)))
    thread.start()
    thread.join(5)
    assert result == [False]
    assert gate.bypassed == 1
    gate.leave()


FORK = """
import os, sys
sys.path.insert(0, sys.argv[1])
from core.sqlite3.base import gate_for
parent_gate = gate_for(sys.argv[2], in_memory=False)
assert parent_gate.enter()  # held by this process's only thread while it forks
pid = os.fork()
if pid == 0:
    child_gate = gate_for(sys.argv[2], in_memory=False)
    if child_gate is parent_gate or not child_gate._threads.acquire(blocking=False):
        os._exit(3)  # the parent's thread lock, held for ever here
    child_gate._threads.release()
    # The parent still holds the file lock: the child waits for it rather than sharing it
    # through the descriptor it inherited.
    os._exit(0 if child_gate.enter(wait=0.3) is False else 4)
_, status = os.waitpid(pid, 0)
parent_gate.leave()
sys.exit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_has_gates_of_its_own(tmp_path: Path) -> None:
    """Celery's pool forks: a gate held in the parent must not be held in the child for ever.

    Forked from a fresh single-threaded interpreter (forking the test process, which has
    threads, is unsafe). The child has a gate of its own whose thread lock is free, and its
    file lock is on a descriptor of its own: the parent's hold still keeps it out.
    """
    root = str(Path(__file__).resolve().parents[2])
    done = subprocess.run(
        [sys.executable, "-c", FORK, root, str(tmp_path / "fork.sqlite3")], timeout=30
    )
    assert done.returncode == 0


@pytest.mark.django_db(transaction=True)
def test_a_transaction_holds_the_gate_and_commit_or_rollback_lets_it_go() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("the gate is SQLite's")
    from django.conf import settings

    assert settings.DATABASES["default"]["ENGINE"] == "core.sqlite3"
    gate = gate_for(connection.settings_dict["NAME"], connection.is_in_memory_db())
    me = threading.get_ident()
    with transaction.atomic():
        assert gate._owner == me
        with transaction.atomic():  # a savepoint: the gate is taken once
            assert gate._owner == me
    assert gate._owner is None
    seen: list[int | None] = []

    def fail_inside() -> None:
        with transaction.atomic():
            seen.append(gate._owner)
            raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError):
        fail_inside()
    assert seen == [me]
    assert gate._owner is None
    assert gate._threads.acquire(blocking=False)
    gate._threads.release()


@pytest.mark.django_db(transaction=True)
def test_a_write_outside_a_transaction_waits_its_turn_at_the_gate() -> None:
    """``QuerySet.update`` in autocommit mode is its own transaction: it queues like the rest."""
    if connection.vendor != "sqlite":
        pytest.skip("the gate is SQLite's")
    from clubs.models import Club

    club = Club.objects.create(name="Gate", slug="gate")
    gate = gate_for(connection.settings_dict["NAME"], connection.is_in_memory_db())
    taken = threading.Event()
    let_go = threading.Event()

    def other_writer() -> None:
        assert gate.enter()
        taken.set()
        let_go.wait(5)
        time.sleep(0.3)
        gate.leave()

    thread = threading.Thread(target=other_writer)
    thread.start()
    taken.wait(5)
    read_started = time.monotonic()
    assert list(Club.objects.filter(pk=club.pk)) == [club]  # a read does not wait
    assert time.monotonic() - read_started < 0.2
    let_go.set()
    started = time.monotonic()
    Club.objects.filter(pk=club.pk).update(name="Gated")
    waited = time.monotonic() - started
    thread.join(5)
    assert waited > 0.2
    assert Club.objects.get(pk=club.pk).name == "Gated"
