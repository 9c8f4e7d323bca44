"""Stopping the stack leaves no process behind, not even a child a server started."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from stack.launch import RunningStack
from stack.nginx import Nginx


class _Server:
    def __init__(self) -> None:
        self.closed = False
        self.proc = None
        self.port = 0

    def close(self) -> None:
        self.closed = True

    def postmaster(self) -> None:
        return None


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_stop_ends_every_process_and_its_children(tmp_path: Path) -> None:
    # A "server" that ignores SIGTERM's children: its own child in its process group.
    procs = {
        name: subprocess.Popen(
            ["sh", "-c", f"sleep 60 & echo $! > {tmp_path / name}; wait"],
            start_new_session=True,
        )
        for name in ("nginx", "web", "worker", "beat")
    }
    deadline = time.monotonic() + 10
    while not all((tmp_path / name).exists() for name in procs) and time.monotonic() < deadline:
        time.sleep(0.05)
    grandchildren = [int((tmp_path / name).read_text()) for name in procs]
    cluster, redis = _Server(), _Server()
    running = RunningStack(
        workdir=tmp_path,
        url="https://127.0.0.1:1",
        env={},
        nginx=Nginx(
            http=0, https=0, publish=0, access_log=tmp_path / "a.log", process=procs["nginx"]
        ),
        web_port=0,
        workers=1,
        cluster=cluster,
        redis=redis,
        processes=procs,
    )
    assert running.pids() == [p.pid for p in procs.values()]
    assert running.dead() == []
    running.stop()
    assert all(p.poll() is not None for p in procs.values())
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in grandchildren) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in grandchildren if _alive(pid)], os.getpid()
    assert cluster.closed
    assert redis.closed
    assert sorted(running.dead()) == sorted(procs)
