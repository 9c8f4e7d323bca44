"""``manage.py serve``: the web server, a Celery worker and Celery beat, together.

This is what ``make run`` starts. It waits until /healthz reports the database, the broker and
a live worker, says so, and stops every process it started on Ctrl-C (or when any one of them
dies, so a broken worker is never hidden behind a running web server).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Serve Knock with a Celery worker and beat on the current settings."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--addr", default="127.0.0.1:8000")
        parser.add_argument("--concurrency", type=int, default=2)
        parser.add_argument(
            "--timeout", type=float, default=90.0, help="seconds to wait for health"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        python = sys.executable
        manage = str(Path(settings.BASE_DIR) / "manage.py")
        var = Path(settings.VAR_DIR)
        commands = {
            "web": [python, manage, "runserver", options["addr"], "--noreload"],
            "worker": [
                python,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-l",
                "INFO",
                "--concurrency",
                str(options["concurrency"]),
                "-n",
                "knock-worker@%h",
            ],
            "beat": [
                python,
                "-m",
                "celery",
                "-A",
                "config",
                "beat",
                "-l",
                "INFO",
                "-s",
                str(var / "celerybeat-schedule"),
            ],
        }
        procs: dict[str, subprocess.Popen[bytes]] = {}
        stopping = False

        def stop(*_: object) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            for name, cmd in commands.items():
                procs[name] = subprocess.Popen(cmd, start_new_session=True)
            url = f"http://{options['addr']}/healthz"
            self._wait_healthy(url, procs, options["timeout"], lambda: stopping)
            while not stopping:
                dead = [n for n, p in procs.items() if p.poll() is not None]
                if dead:
                    self.stderr.write(f"{', '.join(dead)} stopped; stopping the others.")
                    break
                time.sleep(0.5)
        finally:
            self._stop_all(procs)

    def _wait_healthy(
        self, url: str, procs: dict[str, subprocess.Popen[bytes]], timeout: float, stopping: Any
    ) -> None:
        deadline = time.monotonic() + timeout
        last: dict[str, Any] = {}
        while time.monotonic() < deadline and not stopping():
            if any(p.poll() is not None for p in procs.values()):
                return
            try:
                with urllib.request.urlopen(url, timeout=5) as response:
                    if response.status == 200:
                        self.stdout.write(
                            self.style.SUCCESS(f"Knock is up: {url[: -len('healthz')]}")
                        )
                        return
            except urllib.error.HTTPError as exc:
                last = json.loads(exc.read() or b"{}")
            except OSError:
                pass
            time.sleep(1)
        if not stopping():
            self.stderr.write(f"Not healthy after {timeout:.0f} s: {json.dumps(last)}")

    def _stop_all(self, procs: dict[str, subprocess.Popen[bytes]]) -> None:
        for proc in procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 15
        for proc in procs.values():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
