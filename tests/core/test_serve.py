"""``manage.py serve`` (what ``make run`` starts): up only with a live worker; Ctrl-C stops all.

Runs the real command in a throwaway ``KNOCK_VAR_DIR`` (its own SQLite database and broker), as a
user would, and reads the processes it started from /proc.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads child processes from /proc"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_serve_reports_up_with_a_worker_and_ctrl_c_stops_everything(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(KNOCK_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="config.settings.local")
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput"], env=env, check=True, capture_output=True)
    port = _free_port()
    log = (tmp_path / "serve.log").open("w+")
    proc = subprocess.Popen(
        [*manage, "serve", "--addr", f"127.0.0.1:{port}", "--concurrency", "1"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 90
        while "Knock is up" not in (tmp_path / "serve.log").read_text():
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.5)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
            assert response.status == 200
        started = _children(proc.pid)
        assert len(started) == 3  # the web server, the worker and beat
        proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
        assert proc.wait(timeout=30) == 0
        deadline = time.monotonic() + 15
        while any(_alive(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [pid for pid in started if _alive(pid)]
    finally:
        if proc.poll() is None:
            proc.kill()
        log.close()
