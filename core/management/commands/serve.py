"""``manage.py serve``: the web server, a Celery worker and Celery beat, supervised together.

This is what ``make run`` starts. The web server is a production WSGI server with threads
(gunicorn's threaded workers; waitress where gunicorn cannot run, i.e. Windows), never Django's
development server, so a room of phones entering hands at once is queued, not dropped. Static
files are served by WhiteNoise inside the application.

``serve`` supervises what it started: a web server, worker or beat that dies is reported and
started again after a back-off (1, 2, 4 ... 60 s; reset once it has run for a minute), so a
crashed worker never takes the site down with it. It says "Knock is up" once /healthz reports the
database, the broker, a live worker and a live beat, and stops every process it started on Ctrl-C.

``--addr 0.0.0.0:8000`` (``make run ADDR=0.0.0.0:8000``) listens on every interface so phones
on the club's Wi-Fi can reach the laptop: the laptop's own address is added to the allowed hosts
and its URL printed with a QR code to scan.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import math
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import segno
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from core.private import UMASK

# A process that ran this long before dying starts again at once; quicker deaths back off.
STABLE_AFTER = 60.0
MAX_BACKOFF = 60.0
WILDCARD_HOSTS = {"0.0.0.0", "::", ""}


def keep_alive_seconds(poll_ms: int) -> int:
    """How long the web server keeps an idle connection: longer than the live pages' longest
    wait between two polls (``poll_ms`` and a tenth of jitter, static/js/live.js) and a margin,
    so a page polling on time always finds its connection open. 5 s for the default 2 s."""
    return math.ceil(poll_ms * 1.1 / 1000) + 2


@dataclass
class Child:
    name: str
    cmd: list[str]
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    failures: int = 0
    restarts: int = 0
    start_at: float = 0.0

    def start(self) -> None:
        # Its own session: Ctrl-C in the terminal reaches ``serve`` only, which stops each
        # child in order; and a dead child's leftovers (pool processes) can be ended by group.
        self.proc = subprocess.Popen(self.cmd, env=self.env, start_new_session=True)
        self.started_at = time.monotonic()

    def exited(self) -> int | None:
        return None if self.proc is None else self.proc.poll()

    def reap_group(self) -> None:
        """End whatever the dead process left behind in its session (prefork pool children)."""
        if self.proc is not None and os.name == "posix":
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)


def split_addr(addr: str) -> tuple[str, int]:
    """``"0.0.0.0:8000"`` -> ``("0.0.0.0", 8000)``; ``"[::]:8000"`` and ``"8000"`` work too."""
    host, sep, port = addr.rpartition(":")
    if not sep:
        host, port = "127.0.0.1", addr
    host = host.strip("[]")
    if not port.isdigit():
        raise CommandError(f"--addr must be HOST:PORT, not {addr!r}")
    return host, int(port)


def lan_address() -> str | None:
    """The address other machines on the local network reach this one at (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            address = str(probe.getsockname()[0])
        except OSError:
            address = ""
    if not address or ipaddress.ip_address(address).is_loopback:
        try:
            address = socket.gethostbyname(socket.gethostname())
        except OSError:
            return None
    return None if ipaddress.ip_address(address).is_loopback else address


def public_address(host: str) -> str | None:
    """The address to give phones, when the server is reachable from other machines."""
    if host in WILDCARD_HOSTS:
        return lan_address()
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None if host == "localhost" else host
    return None if ip.is_loopback else host


def allowed_hosts_with(allowed: list[str], public: str | None) -> list[str]:
    """The allowed hosts with the address phones use (unless every host is allowed already)."""
    if public is None or "*" in allowed or public in allowed:
        return list(allowed)
    return [*allowed, public]


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def default_web_processes(engine: str | None = None) -> tuple[int, int]:
    """The web server's (processes, threads each) by default: 16 threads in all either way.

    On the embedded SQLite, 4 processes of 4 threads: measured at a 50-table club night on two
    cores (docs/live.md), a process's threads wait on the GIL while another process could run,
    and 4 processes answered 10-20 % more requests than 2 x 8, with every update on time. On
    PostgreSQL, whose own server shares the cores, 2 x 8 did better (more processes only
    compete with it), so it stays the default there.
    """
    if (engine or settings.DATABASES["default"]["ENGINE"]).endswith("sqlite3"):
        return 4, 4
    return 2, 8


class Command(BaseCommand):
    help = "Serve Knock (web server, Celery worker and beat), restarting any that dies."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--addr",
            default="127.0.0.1:8000",
            help="HOST:PORT to listen on; 0.0.0.0:8000 lets phones on the same Wi-Fi in",
        )
        parser.add_argument("--concurrency", type=int, default=2, help="Celery pool processes")
        workers, threads = default_web_processes()
        parser.add_argument(
            "--web-workers",
            type=int,
            default=workers,
            help=f"web server processes ({workers} on this database)",
        )
        parser.add_argument(
            "--threads",
            type=int,
            default=threads,
            help=f"threads per web process ({threads} on this database)",
        )
        parser.add_argument(
            "--timeout", type=float, default=90.0, help="seconds to wait for health"
        )
        parser.add_argument(
            "--access-log",
            default=None,
            metavar="FILE",
            help="write the web server's access log to FILE ('-': standard output); private "
            "links and check-in codes in it read /l/... and /checkin/... (gunicorn only)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # What serve and its web server, worker and beat create is the owner's only (the
        # database, the broker's file, backups): core.private.
        os.umask(UMASK)
        host, port = split_addr(options["addr"])
        public = public_address(host)
        env = dict(os.environ)
        web_env = dict(env)
        hosts = allowed_hosts_with(list(settings.ALLOWED_HOSTS), public)
        if hosts != list(settings.ALLOWED_HOSTS):
            web_env["ALLOWED_HOSTS"] = ",".join(hosts)
        if not settings.DEBUG:
            call_command("collectstatic", interactive=False, verbosity=0)
        if options.get("access_log") and os.name != "posix":
            self.stderr.write("serve: waitress writes no access log; --access-log is ignored")
        children = [
            Child("web", self._web_command(host, port, options), web_env),
            Child("worker", self._worker_command(options["concurrency"]), env),
            Child("beat", self._beat_command(), env),
        ]
        stopping = False

        def stop(*_: object) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        local = "127.0.0.1" if host in WILDCARD_HOSTS else _url_host(host)
        health = f"http://{local}:{port}/healthz"
        url = f"http://{_url_host(public or local)}:{port}/"
        deadline = time.monotonic() + options["timeout"]
        announced = warned = False
        last_check = 0.0
        try:
            for child in children:
                child.start()
            while not stopping:
                now = time.monotonic()
                for child in children:
                    self._supervise(child, now)
                if not announced and now - last_check >= 1.0:
                    last_check = now
                    state = self._health(health)
                    if state is None:
                        announced = True
                        self._announce(url, public is not None)
                    elif now > deadline and not warned:
                        warned = True
                        self.stderr.write(
                            f"Not healthy after {options['timeout']:.0f} s: {json.dumps(state)}"
                        )
                time.sleep(0.25)
        finally:
            self._stop_all(children)

    # -- the three processes -----------------------------------------------------------------

    def _web_command(self, host: str, port: int, options: dict[str, Any]) -> list[str]:
        bind = f"{_url_host(host)}:{port}"
        if os.name == "posix":
            return [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi:application",
                "--bind",
                bind,
                "--worker-class",
                "gthread",
                "--workers",
                str(options["web_workers"]),
                "--threads",
                str(options["threads"]),
                "--backlog",
                "2048",
                # Each open page polls every couple of seconds (docs/live.md): its connection
                # is kept between polls instead of being closed just before the next one (the
                # default is 2 s) and opened again. Idle connections hold no thread.
                "--keep-alive",
                str(keep_alive_seconds(settings.KNOCK_LIVE_POLL_MS)),
                "--timeout",
                "60",
                "--graceful-timeout",
                "10",
                "--log-level",
                "warning",
                # Its error and access logs redact private links (core.logging).
                "--logger-class",
                "core.gunicorn_logging.RedactingLogger",
                *(["--access-logfile", options["access_log"]] if options.get("access_log") else []),
            ]
        # gunicorn needs fork() and fcntl; waitress is the threaded WSGI server for Windows.
        return [
            sys.executable,
            "-m",
            "waitress",
            f"--listen={bind}",
            f"--threads={options['web_workers'] * options['threads']}",
            "config.wsgi:application",
        ]

    def _worker_command(self, concurrency: int) -> list[str]:
        return [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-l",
            "INFO",
            "--concurrency",
            str(concurrency),
            "-n",
            "knock-worker@%h",
        ]

    def _beat_command(self) -> list[str]:
        schedule = Path(settings.VAR_DIR) / "celerybeat-schedule"
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        return [*celery, "beat", "-l", "INFO", "-s", str(schedule)]

    # -- supervision -------------------------------------------------------------------------

    def _supervise(self, child: Child, now: float) -> None:
        if child.proc is None:
            if now >= child.start_at:
                child.start()
                child.restarts += 1
                self.stderr.write(f"serve: {child.name} started again (restart {child.restarts})")
            return
        code = child.exited()
        if code is None:
            return
        child.reap_group()
        ran = now - child.started_at
        child.failures = 1 if ran >= STABLE_AFTER else child.failures + 1
        delay = min(MAX_BACKOFF, 2.0 ** (child.failures - 1))
        child.proc = None
        child.start_at = now + delay
        self.stderr.write(
            f"serve: {child.name} exited with code {code} after {ran:.0f} s; "
            f"starting it again in {delay:.0f} s"
        )

    def _health(self, url: str) -> dict[str, Any] | None:
        """None when healthy, else what /healthz said (or why it could not be asked)."""
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return None
        except urllib.error.HTTPError as exc:
            try:
                return dict(json.loads(exc.read() or b"{}"))
            except ValueError:
                return {"status": exc.code}
        except OSError as exc:
            return {"error": str(exc)}
        return {}

    def _announce(self, url: str, public: bool) -> None:
        self.stdout.write(self.style.SUCCESS(f"Knock is up: {url}"))
        if public:
            self.stdout.write("Phones on the same Wi-Fi: scan this code, or type the address.")
            segno.make(url, error="m").terminal(out=sys.stdout, compact=True)
        sys.stdout.flush()

    def _stop_all(self, children: list[Child]) -> None:
        for child in children:
            if child.proc is not None and child.proc.poll() is None:
                child.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 15
        for child in children:
            if child.proc is None:
                continue
            try:
                child.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.proc.kill()
                child.proc.wait()
