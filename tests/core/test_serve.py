"""``manage.py serve`` (what ``make run`` starts): up only with a live worker; Ctrl-C stops all;
a worker or web server that dies is restarted while the site stays up.

Runs the real command in a throwaway ``KNOCK_VAR_DIR`` (its own SQLite database and broker), as a
user would, and reads the processes it started from /proc.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from core.management.commands.serve import (
    Command,
    allowed_hosts_with,
    default_web_processes,
    keep_alive_seconds,
    public_address,
    split_addr,
)
from tests.support import free_port, needs_proc

ROOT = Path(__file__).resolve().parents[2]


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


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _health(port: int) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except OSError:  # refused: no web server listening (yet)
        return 0


def _wait(predicate, timeout: float, what: str) -> float:
    started = time.monotonic()
    while not predicate():
        assert time.monotonic() - started < timeout, what
        time.sleep(0.25)
    return time.monotonic() - started


def _serve(tmp_path: Path, port: int):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(KNOCK_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="config.settings.local")
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput"], env=env, check=True, capture_output=True)
    log = (tmp_path / "serve.log").open("w+")
    proc = subprocess.Popen(
        [*manage, "serve", "--addr", f"127.0.0.1:{port}", "--concurrency", "1"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    text = lambda: (tmp_path / "serve.log").read_text()  # noqa: E731
    deadline = time.monotonic() + 90
    while "Knock is up" not in text():
        assert proc.poll() is None, text()
        assert time.monotonic() < deadline, text()
        time.sleep(0.5)
    return proc, log, text


@pytest.mark.worker
@needs_proc
def test_serve_reports_up_with_a_worker_and_ctrl_c_stops_everything(tmp_path):
    port = free_port()
    proc, log, _text = _serve(tmp_path, port)
    try:
        assert _health(port) == 200
        started = _children(proc.pid)
        assert len(started) == 3  # the web server, the worker and beat
        assert any("gunicorn" in _cmdline(pid) for pid in started)  # not the development server
        with urllib.request.urlopen(
            f"http://127.0.0.1:{port}/static/css/knock.css", timeout=10
        ) as response:
            assert response.status == 200  # WhiteNoise serves the static files
        # serve's umask 077: what it and its children made is the owner's only (core.private)
        for made in ("knock.sqlite3", "celery-broker.sqlite3"):
            assert (tmp_path / made).stat().st_mode & 0o777 == 0o600, made
        assert tmp_path.stat().st_mode & 0o777 == 0o700
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


@pytest.mark.worker
@needs_proc
def test_a_dead_worker_shows_in_health_within_20_s_and_is_restarted_while_the_site_stays_up(
    tmp_path,
):
    port = free_port()
    proc, log, text = _serve(tmp_path, port)
    try:
        [worker] = [p for p in _children(proc.pid) if " worker " in _cmdline(p)]
        # Frozen first (alive to serve, silent to health), so a quick restart cannot hide it.
        os.kill(worker, signal.SIGSTOP)
        noticed = _wait(lambda: _health(port) == 503, 20, "healthz still ok 20 s after")
        assert noticed < 20
        os.kill(worker, signal.SIGKILL)
        _wait(lambda: "worker exited with code -9" in text(), 10, text())

        # A new worker process among serve's children, and health answering 200 again. Both
        # are waited for: one heartbeat can land before the process list shows the new worker.
        def restarted() -> list[int]:
            return [p for p in _children(proc.pid) if " worker " in _cmdline(p) and p != worker]

        _wait(lambda: len(restarted()) == 1, 90, "the worker was not restarted: " + text())
        _wait(lambda: _health(port) == 200, 60, "health not ok after the restart: " + text())
        assert worker not in _children(proc.pid)

        # The web server itself killed: started again, the site answers again.
        [web] = [p for p in _children(proc.pid) if "gunicorn" in _cmdline(p)]
        os.kill(web, signal.SIGKILL)
        _wait(lambda: "web exited with code -9" in text(), 10, text())
        _wait(lambda: _health(port) == 200, 60, "the web server was not restarted: " + text())
        assert proc.poll() is None  # serve itself never stopped
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def test_addr_forms():
    assert split_addr("0.0.0.0:8000") == ("0.0.0.0", 8000)
    assert split_addr("[::]:8001") == ("::", 8001)
    assert split_addr("8002") == ("127.0.0.1", 8002)


def test_a_public_address_is_added_to_the_allowed_hosts():
    assert public_address("127.0.0.1") is None
    assert public_address("localhost") is None
    assert public_address("192.168.1.20") == "192.168.1.20"
    lan = public_address("0.0.0.0")  # the laptop's own address on its network, if it has one
    assert lan is None or not lan.startswith("127.")
    local = ["127.0.0.1", "localhost"]
    assert allowed_hosts_with(local, "192.168.1.20") == [*local, "192.168.1.20"]
    assert allowed_hosts_with(local, None) == local
    assert allowed_hosts_with(["*"], "192.168.1.20") == ["*"]


def test_idle_connections_outlive_the_live_pages_longest_wait_between_polls():
    assert keep_alive_seconds(2000) == 5
    for poll_ms in (500, 2000, 3000, 10_000):
        assert keep_alive_seconds(poll_ms) > poll_ms * 1.1 / 1000
    options = {"web_workers": 2, "threads": 8}
    web = Command()._web_command("127.0.0.1", 8000, options)
    if os.name == "posix":
        assert web[web.index("--keep-alive") + 1] == "5"
        assert web[web.index("--worker-class") + 1] == "gthread"


def test_the_web_server_runs_four_processes_on_sqlite_and_two_on_postgresql():
    """16 threads either way; on SQLite spread over 4 processes (docs/live.md's figures)."""
    assert default_web_processes("django.db.backends.sqlite3") == (4, 4)
    assert default_web_processes("django.db.backends.postgresql") == (2, 8)
    expected = default_web_processes(settings.DATABASES["default"]["ENGINE"])
    options = Command().create_parser("manage.py", "serve").parse_args([])
    assert (options.web_workers, options.threads) == expected
    options = Command().create_parser("manage.py", "serve").parse_args(["--web-workers", "3"])
    assert (options.web_workers, options.threads) == (3, expected[1])
