"""The servers a stack owns: a throwaway PostgreSQL cluster and a redis-server of its own, each on
a free port on 127.0.0.1 (shared by ``make stack`` and ``make drills``)."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_wait(port: int, seconds: float, what: str) -> None:
    """Until something accepts connections on 127.0.0.1:``port`` (RuntimeError after
    ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start on port {port}") from None
            time.sleep(0.1)


def pg_program(name: str) -> str:
    """A PostgreSQL server program (initdb, pg_ctl) of the newest version installed."""
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda p: p.parts[-3])
    if not found:
        raise RuntimeError(f"no {name} under /usr/lib/postgresql/*/bin: install PostgreSQL")
    return str(found[-1])


class PgCluster:
    """A throwaway PostgreSQL cluster: initdb in a temporary directory, a free port on
    127.0.0.1, trust authentication, one database ``database``. Restarting or removing it
    disturbs nobody else's PostgreSQL."""

    def __init__(self, database: str = "knock_drills", prefix: str = "knock-drills-pg-") -> None:
        self.dir = Path(tempfile.mkdtemp(prefix=prefix))
        self.data = self.dir / "data"
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/{database}"
        # PostgreSQL refuses to run as root: then the cluster belongs to the postgres user.
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self._as:
            shutil.chown(self.dir, "postgres")
        self._pg(
            "initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
            "--no-sync",
        )  # fmt: skip
        self.start()
        subprocess.run(
            ["psql", f"postgres://postgres@127.0.0.1:{self.port}/postgres", "-qc",
             f"CREATE DATABASE {database}"],
            check=True, capture_output=True,
        )  # fmt: skip

    def _pg(self, program: str, *args: str) -> None:
        subprocess.run([*self._as, pg_program(program), *args], check=True, capture_output=True)

    def _options(self) -> str:
        # fsync off: a throwaway cluster needs no durability, and the machine's disk is shared.
        return (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=200"
        )

    def start(self) -> None:
        log = str(self.dir / "postgres.log")
        self._pg("pg_ctl", "-D", str(self.data), "-l", log, "-o", self._options(), "-w", "start")

    def restart(self) -> None:
        """``pg_ctl restart -m fast``: every session is terminated ("terminating connection due
        to administrator command"), the server stops and starts again."""
        self._pg(
            "pg_ctl", "-D", str(self.data), "-l", str(self.dir / "postgres.log"),
            "-o", self._options(), "-m", "fast", "-w", "restart",
        )  # fmt: skip

    def postmaster(self) -> int | None:
        """The server's main process id (None when it is not running)."""
        try:
            return int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return None

    def close(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, RuntimeError):
            self._pg("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


class RedisServer:
    """A redis-server of one's own on a free port (no persistence): it can be stopped without
    touching the machine's Redis."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.dir = workdir / "redis-cache"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None
        self.up()

    def up(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        port_wait(self.port, 10, "redis-server")

    def down(self) -> None:
        """SIGKILL: gone at once, as a crashed Redis is (every connection refused after)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    close = down
