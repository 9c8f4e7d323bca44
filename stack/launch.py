"""The reference stack on one machine (``make stack``): exactly the processes deploy/ describes,
on free local ports, with the files a user copies.

- nginx running deploy/nginx/knock.conf (:mod:`stack.nginx`: its cache and nchan's fan-out);
- gunicorn as deploy/systemd/knock-web.service runs it (its ``ExecStart=``, with the port and
  the number of processes replaced), a Celery worker and beat as knock-worker.service and
  knock-beat.service run them;
- a PostgreSQL cluster and a redis-server of the stack's own (the broker and the cache on the
  database numbers deploy/knock.env.example gives them);
- the environment: deploy/knock.env.example's values, with this machine's URLs, a random
  ``SECRET_KEY`` and a work directory for ``KNOCK_VAR_DIR``.

:func:`stack_start` migrates, collects the static files, loads the demo club and returns once
``/healthz`` answers 200 through nginx; :meth:`RunningStack.stop` stops every process it started.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from stack.nginx import CacheShare, Nginx, cache_share, nginx_start
from stack.servers import PgCluster, RedisServer, free_port, port_wait
from stack.units import env_example, unit_command

ROOT = Path(__file__).resolve().parent.parent
UNITS = {
    "web": "knock-web.service",
    "worker": "knock-worker.service",
    "beat": "knock-beat.service",
}


def stack_workers() -> int:
    """gunicorn's processes by knock-web.service's rule: (2 x cores) + 1."""
    return 2 * (os.cpu_count() or 1) + 1


def redis_moved(url: str, port: int) -> str:
    """``url`` (redis://host:port/db) on 127.0.0.1:``port``, keeping its database number."""
    return re.sub(r"^redis://[^/]*/", f"redis://127.0.0.1:{port}/", url)


def stack_env(
    *, workdir: Path, database_url: str, redis_port: int, https_port: int, publish_port: int
) -> dict[str, str]:
    """The processes' environment: this one without any variable the example names, then the
    example's values, then this machine's."""
    values, names = env_example()
    env = {k: v for k, v in os.environ.items() if k not in names}
    env.update(values)
    env.update(
        SECRET_KEY=secrets.token_urlsafe(50),
        DATABASE_URL=database_url,
        CELERY_BROKER_URL=redis_moved(values["CELERY_BROKER_URL"], redis_port),
        CACHE_URL=redis_moved(values["CACHE_URL"], redis_port),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CSRF_TRUSTED_ORIGINS=f"https://127.0.0.1:{https_port},https://localhost:{https_port}",
        KNOCK_VAR_DIR=str(workdir / "var"),
        KNOCK_LIVE_PUBLISH_URL=f"http://127.0.0.1:{publish_port}/live/pub/",
        KNOCK_LIVE_SUBSCRIBE_URL="/live/sub/",
        PYTHONUNBUFFERED="1",
    )
    if "KNOCK_SITE_URL" in names:  # the links in mails
        env["KNOCK_SITE_URL"] = f"https://127.0.0.1:{https_port}"
    unknown = set(env) - set(os.environ) - names - {"PYTHONUNBUFFERED"}
    if unknown:
        raise RuntimeError(f"deploy/knock.env.example does not list {sorted(unknown)}")
    return env


@dataclass
class RunningStack:
    """A started stack. ``url`` is nginx's HTTPS address (a self-signed certificate), ``env`` the
    environment every process runs with (for ``manage.py`` commands on the stack's database)."""

    workdir: Path
    url: str
    env: dict[str, str]
    nginx: Nginx
    web_port: int
    workers: int
    cluster: PgCluster
    redis: RedisServer
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    demo: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds each step of the start took (the servers, the tables and static files, the demo,
    the processes until /healthz is 200)."""

    @property
    def cache_log(self) -> Path:
        return self.nginx.access_log.parent / "cache.log"

    def pids(self) -> list[int]:
        """The main process of each server (nginx, gunicorn, worker, beat, Redis, PostgreSQL):
        their descendants are the rest of the stack."""
        found = [p.pid for p in self.processes.values()]
        if self.redis.proc is not None:
            found.append(self.redis.proc.pid)
        postmaster = self.cluster.postmaster()
        return [*found, *([postmaster] if postmaster else [])]

    def manage(self, *args: str) -> str:
        """``manage.py`` with the stack's environment; its output (RuntimeError if it fails)."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
        )
        if done.returncode:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
        return done.stdout

    def manage_all(self, *commands: list[str]) -> None:
        """Several ``manage.py`` commands at once (RuntimeError if any fails)."""
        running = [
            subprocess.Popen(
                [sys.executable, "manage.py", *args],
                cwd=ROOT,
                env=self.env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
            for args in commands
        ]
        failed = []
        try:
            for args, proc in zip(commands, running, strict=True):
                out, _ = proc.communicate()
                if proc.returncode:
                    text = out.decode(errors="replace")
                    failed.append(f"manage.py {' '.join(args)} failed:\n{text}")
        finally:
            for proc in running:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        if failed:
            raise RuntimeError("\n".join(failed))

    def cache_log_size(self) -> int:
        try:
            return self.cache_log.stat().st_size
        except OSError:
            return 0

    def cache_share(self, offset: int = 0) -> CacheShare:
        """What nginx answered without gunicorn, from byte ``offset`` of its cache log on."""
        return cache_share(self.cache_log, offset)

    def dead(self) -> list[str]:
        """The stack's processes that have exited."""
        return [name for name, proc in self.processes.items() if proc.poll() is not None]

    def stop(self) -> None:
        """Every process the stack started: SIGTERM to the proxy, the web server, the worker (it
        finishes its tasks) and beat together, SIGKILL to what is left of them after 30 s, then
        Redis and PostgreSQL."""
        started = [
            self.processes[n] for n in ("nginx", "web", "worker", "beat") if n in self.processes
        ]
        for proc in started:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 30
        for proc in started:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            # Whatever it left in its process group (a pool's children) goes with it.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        self.redis.close()
        self.cluster.close()


def unit_start(
    name: str, argv: list[str], env: dict[str, str], logs: Path
) -> subprocess.Popen[bytes]:
    """One unit's process, in its own session (a terminal's Ctrl-C reaches only the launcher),
    its output in ``logs/<name>.log``."""
    return subprocess.Popen(
        argv,
        cwd=ROOT,
        env=env,
        stdout=(logs / f"{name}.log").open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def health_wait(url: str, seconds: float) -> None:
    """Until ``url``/healthz answers 200 (RuntimeError with its last answer after ``seconds``)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    deadline = time.monotonic() + seconds
    last = ""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=5, context=context) as answer:
                if answer.status == 200:
                    return
        except urllib.error.HTTPError as exc:
            last = f"{exc.code} {exc.read()[:500]!r}"
        except OSError as exc:
            last = str(exc)
        time.sleep(0.5)
    raise RuntimeError(f"{url}/healthz did not answer 200 in {seconds:.0f} s: {last}")


def stack_start(
    workdir: Path | None = None,
    *,
    workers: int = 0,
    demo: bool = True,
    connections: int = 4096,
) -> RunningStack:
    """Start the stack (``workers`` gunicorn processes, 0: :func:`stack_workers`) with its files
    in ``workdir`` (a new temporary directory if None); the demo club loaded when ``demo``.
    ``connections``: nginx's worker_connections (each client keeps one open)."""
    workdir = workdir or Path(tempfile.mkdtemp(prefix="knock-stack-"))
    logs = workdir / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    workers = workers or stack_workers()
    clock = time.monotonic()
    cluster = PgCluster(database="knock", prefix="knock-stack-pg-")
    redis: RedisServer | None = None
    running: RunningStack | None = None
    try:
        redis = RedisServer(workdir)
        web_port, publish_port = free_port(), free_port()
        nginx = nginx_start(
            workdir / "nginx", web_port, publish_port, connections=connections, cache_log=True
        )
        env = stack_env(
            workdir=workdir,
            database_url=cluster.url,
            redis_port=redis.port,
            https_port=nginx.https,
            publish_port=publish_port,
        )
        running = RunningStack(
            workdir=workdir,
            url=f"https://127.0.0.1:{nginx.https}",
            env=env,
            nginx=nginx,
            web_port=web_port,
            workers=workers,
            cluster=cluster,
            redis=redis,
            processes={"nginx": nginx.process},
        )
        # Independent of each other: the tables and the static files, at the same time.
        running.timings["servers"] = time.monotonic() - clock
        running.manage_all(["migrate", "--noinput"], ["collectstatic", "--noinput"])
        running.timings["migrate and collectstatic"] = time.monotonic() - clock
        if demo:
            running.demo = running.manage("demo", "--force").splitlines()
            running.timings["demo"] = time.monotonic() - clock
        options = {
            "web": {"--bind": f"127.0.0.1:{web_port}", "--workers": str(workers)},
            "worker": {},
            "beat": {},
        }
        for name, unit in UNITS.items():
            running.processes[name] = unit_start(name, unit_command(unit, options[name]), env, logs)
        port_wait(web_port, 60, "gunicorn")
        health_wait(running.url, 60)
        running.timings["healthy"] = time.monotonic() - clock
    except BaseException:
        if running is not None:
            running.stop()
        else:
            if redis is not None:
                redis.close()
            cluster.close()
        raise
    return running


def stack_describe(running: RunningStack) -> str:
    """What ``make stack`` prints once the stack is up."""
    names = {name: proc.pid for name, proc in running.processes.items()}
    return "\n".join(
        [
            f"stack: Knock is up at {running.url}/ (self-signed certificate: accept it once)",
            f"stack: nginx {running.nginx.https} (https), {running.nginx.http} (http), "
            f"gunicorn x{running.workers} on {running.web_port}, PostgreSQL on "
            f"{running.cluster.port}, Redis on {running.redis.port}; pids {json.dumps(names)}",
            *(f"stack: demo: {line}" for line in running.demo if line.strip()),
            f"stack: files and logs in {running.workdir}; Ctrl-C stops everything",
        ]
    )
