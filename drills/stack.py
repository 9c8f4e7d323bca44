"""One running stack for the drills: a database, a broker, and ``manage.py serve`` in front.

``Stack`` owns the processes and the faults: it starts ``serve`` (exactly what ``make run``
starts) on a free port on 127.0.0.1, finds the worker and web server among serve's children,
and can cut the broker (a TCP proxy in front of Redis, or an exclusive lock on the SQLite broker
file), restart PostgreSQL, or restart serve itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO, Any

from stack.servers import PgCluster, RedisServer, free_port

ROOT = Path(__file__).resolve().parent.parent


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


class TcpProxy:
    """A TCP forwarder the drill can cut: ``down()`` drops every connection and stops listening."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._conns: list[socket.socket] = []
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self.up()

    def up(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def down(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        with self._lock:
            conns, self._conns = self._conns, []
        for c in conns:
            with contextlib.suppress(OSError):
                c.shutdown(socket.SHUT_RDWR)
            c.close()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.target, timeout=5)
                server.settimeout(None)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._conns += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)


class Stack:
    """``serve`` on one database and broker, with the faults the drills inject."""

    def __init__(
        self,
        name: str,
        workdir: Path,
        env: dict[str, str],
        *,
        redis: str = "",
        cluster: PgCluster | None = None,
        cache: RedisServer | None = None,
    ) -> None:
        self.name = name
        self.cluster = cluster
        self.cache = cache
        self.workdir = workdir
        self.env = env
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proxy: TcpProxy | None = None
        if redis:
            m = re.fullmatch(r"redis://([^:/]+):(\d+)/(\d+)", redis)
            if m is None:
                raise SystemExit(f"DRILLS_REDIS_URL must be redis://HOST:PORT/DB, not {redis}")
            self.proxy = TcpProxy((m[1], int(m[2])))
            self.env["CELERY_BROKER_URL"] = f"redis://127.0.0.1:{self.proxy.port}/{m[3]}"
        self.log_path = workdir / f"serve-{name}.log"
        # What a fault found wrong while it was injected (the driver reports them).
        self.problems: list[str] = []
        self._log: IO[bytes] | None = None
        self.proc: subprocess.Popen[bytes] | None = None

    # -- Django commands on the stack's database -------------------------------------------

    def run(self, *args: str, check: bool = True) -> str:
        done = subprocess.run(
            [sys.executable, *args], cwd=ROOT, env=self.env, capture_output=True, text=True
        )
        if check and done.returncode:
            raise RuntimeError(f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
        return done.stdout

    # -- serve ---------------------------------------------------------------------------------

    def start(self, timeout: float = 120) -> None:
        self._log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "manage.py"),
                "serve",
                "--addr",
                f"127.0.0.1:{self.port}",
            ],
            cwd=ROOT,
            env={**self.env, "PYTHONUNBUFFERED": "1"},
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        start = self.log_path.stat().st_size
        deadline = time.monotonic() + timeout
        while b"Knock is up" not in self.log_path.read_bytes()[start:]:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"serve did not come up; see {self.log_path}")
            time.sleep(0.5)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
            try:
                self.proc.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    def close(self) -> None:
        self.stop()
        if self.proxy is not None:
            self.proxy.down()
        if self.cache is not None:
            self.cache.close()
        if self.cluster is not None:
            self.cluster.close()

    def child(self, marker: str) -> int | None:
        if self.proc is None:
            return None
        found = [p for p in children(self.proc.pid) if marker in cmdline(p)]
        return found[0] if found else None

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.base}/healthz", timeout=10) as response:
                return bool(response.status == 200)
        except (urllib.error.URLError, OSError):
            return False

    def log_since(self, offset: int) -> str:
        with self.log_path.open("rb") as f:
            f.seek(offset)
            return f.read().decode(errors="replace")

    def log_size(self) -> int:
        return self.log_path.stat().st_size

    # -- faults --------------------------------------------------------------------------------

    def kill_worker_mid_rebuild(self, wait: float = 30) -> str:
        """SIGKILL the worker's main process while a standings rebuild is running."""
        offset = self.log_size()
        deadline = time.monotonic() + wait
        mid = False
        while time.monotonic() < deadline:
            text = self.log_since(offset)
            received = set(re.findall(r"event_standings_rebuild\[([0-9a-f-]+)\] received", text))
            finished = set(
                re.findall(r"event_standings_rebuild\[([0-9a-f-]+)\] (?:succeeded|raised)", text)
            )
            if received - finished:
                mid = True
                break
            time.sleep(0.05)
        pid = self.child(" worker ")
        if pid is None:
            raise RuntimeError("no worker to kill")
        os.kill(pid, signal.SIGKILL)
        return f"killed worker {pid} " + ("mid-rebuild" if mid else "(no rebuild seen running)")

    def health_detail(self, timeout: float = 10) -> tuple[int, dict[str, Any]]:
        """/healthz's status and body (0 and {} when it did not answer in ``timeout`` s)."""
        try:
            with urllib.request.urlopen(f"{self.base}/healthz", timeout=timeout) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"{}")
        except (OSError, ValueError):
            return 0, {}

    def _watch_health(self, seconds: float, seen: list[float], stop: threading.Event) -> None:
        """Poll /healthz during an outage; note when it first said the broker or the workers
        cannot be used (a red /healthz within seconds is the promise)."""
        started = time.monotonic()
        while not stop.wait(1.0) and time.monotonic() - started < seconds:
            status, body = self.health_detail()
            broker, workers = body.get("broker", {}), body.get("workers", {})
            if status == 503 and not (broker.get("ok") and workers.get("ok")):
                seen.append(time.monotonic() - started)
                return

    def broker_down(self, seconds: float) -> str:
        seen: list[float] = []
        stop = threading.Event()
        watch = threading.Thread(target=self._watch_health, args=(seconds, seen, stop))
        if self.proxy is not None:
            self.proxy.down()
            watch.start()
            time.sleep(seconds)
            self.proxy.up()
            what = f"Redis unreachable for {seconds:.0f} s"
        else:
            broker = Path(self.env["KNOCK_VAR_DIR"]) / "celery-broker.sqlite3"
            lock = sqlite3.connect(broker, timeout=30, isolation_level=None)
            try:
                lock.execute("BEGIN EXCLUSIVE")
                watch.start()
                time.sleep(seconds)
                lock.execute("ROLLBACK")
            finally:
                lock.close()
            what = f"SQLite broker locked for {seconds:.0f} s"
        stop.set()
        watch.join()
        if not seen:
            self.problems.append(f"/healthz stayed ok for the {seconds:.0f} s the broker was down")
            return what + "; /healthz stayed ok"
        return what + f"; /healthz red after {seen[0]:.0f} s"

    def kill_web(self) -> str:
        pid = self.child("gunicorn")
        if pid is None:
            raise RuntimeError("no web server to kill")
        os.kill(pid, signal.SIGKILL)
        return f"killed web server {pid}"

    def cache_down(self, seconds: float) -> str:
        """The cache's Redis killed, and started again (empty) ``seconds`` later."""
        if self.cache is None:
            raise RuntimeError("this stack's cache is not on a Redis of the drill's own")
        self.cache.down()
        time.sleep(seconds)
        self.cache.up()
        return f"the cache's Redis killed and down for {seconds:.0f} s"

    def restart_postgres(self) -> str:
        if self.cluster is not None:
            started = time.monotonic()
            self.cluster.restart()
            return (
                f"PostgreSQL (the drill's own cluster) restarted (-m fast) in "
                f"{time.monotonic() - started:.1f} s"
            )
        versions = sorted(os.listdir("/etc/postgresql"))
        version = versions[-1]
        started = time.monotonic()
        subprocess.run(
            [
                "pg_ctlcluster",
                "--skip-systemctl-redirect",
                version,
                "main",
                "restart",
                "-m",
                "fast",
            ],
            check=True,
            capture_output=True,
        )
        while subprocess.run(["pg_isready", "-h", "127.0.0.1", "-q"]).returncode != 0:
            time.sleep(0.5)
        return f"PostgreSQL {version} restarted (-m fast) in {time.monotonic() - started:.0f} s"

    def restart_serve(self) -> str:
        started = time.monotonic()
        self.stop()
        self.start()
        return f"serve stopped with Ctrl-C and up again in {time.monotonic() - started:.0f} s"
