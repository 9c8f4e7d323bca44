"""``python -m loadtest`` (``make loadtest``): a club night against a real ``manage.py serve``.

50 tables (100 players entering and confirming hands on their phones) and 200 spectators
(three on each table's page, the rest on the event page), all polling as static/js/live.js does.
It runs on the embedded default (SQLite and the SQLite broker, in a throwaway directory) unless
``DATABASE_URL`` and ``CELERY_BROKER_URL`` are set, in which case it runs on them (new club, event
and players each run: nothing is deleted).

``LOADTEST_PACE`` sets how fast the tables play (see :data:`PACES`):

- ``club`` (the default), the club night the live pages are built for: at each table a hand is
  entered and confirmed every 60-120 s, for 240 s. At a real table a hand takes a few minutes
  (shuffle, deal, play, count), so this is two to three times a brisk real night;
- ``rush``: a hand every 8-16 s at every table, for 60 s, about ten times a real night, to see
  how far the server is from its limit;
- ``open``: a national open at the club pace through the reference stack (``make stack``: nginx
  with its cache and nchan, gunicorn, PostgreSQL, Redis, the worker): 250 tables of a club night
  and 2,500 spectators by default, simulated by :mod:`loadtest.open` (``LOADTEST_EVENT=swiss``:
  round 1 of a Swiss of as many players instead; ``LOADTEST_PASSES=N``: N players polling their
  pass).

Prints a summary table: entry and page p95, how late updates arrive at spectators (from a
confirmation's answer to their first poll that saw it), and the errors, which must be 0; the exit
status is non-zero on any error. The last line says whether every update reached the spectators
within :data:`TARGET_S` seconds. ``LOADTEST_TABLES``, ``LOADTEST_SPECTATORS``, ``LOADTEST_SECONDS``,
``LOADTEST_HAND_MIN`` and ``LOADTEST_HAND_MAX`` (seconds between hands at a table) change the
numbers; docs/live.md has the figures measured. ``LOADTEST_STACK=1`` runs the club or rush night
against the reference stack (``make stack``: nginx with its cache, gunicorn, PostgreSQL, Redis)
instead of ``manage.py serve``, and prints the share of the spectators' requests nginx answered
without gunicorn.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path

from stack.launch import RunningStack, stack_start
from stack.nginx import CacheShare

ROOT = Path(__file__).resolve().parent.parent
PACES: dict[str, tuple[str, str, str]] = {
    "club": ("60", "120", "240"),
    "rush": ("8", "16", "60"),
    "open": ("60", "120", "240"),
}
"""Per ``LOADTEST_PACE``: seconds between two hands at a table (least, most), and the run's
seconds."""
TARGET_S = 3.0
"""A confirmed result is on every spectator's phone within this many seconds."""


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def _serve(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    out = log.open("ab")
    proc = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "serve",
            "--addr",
            f"127.0.0.1:{port}",
            *os.environ.get("LOADTEST_SERVE_ARGS", "").split(),
        ],
        cwd=ROOT,
        env={**env, "PYTHONUNBUFFERED": "1"},
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 120
    while b"Knock is up" not in log.read_bytes():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"serve did not come up; see {log}")
        time.sleep(0.5)
    return proc


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class CpuSampler:
    """CPU seconds used by each process under some roots (Linux ``/proc``), sampled every two
    seconds from a thread: where the machine's time went (web, worker, beat, Locust)."""

    KINDS = (
        ("nginx", "nginx"),
        ("gunicorn", "web"),
        ("waitress", "web"),
        ("postgres", "postgres"),
        ("redis-server", "redis"),
        (" worker", "worker"),
        (" beat", "beat"),
    )

    def __init__(self) -> None:
        self.roots: list[int] = []
        self.used: dict[int, tuple[str, float]] = {}
        self.start: dict[str, float] = {}
        self.stop = threading.Event()
        self.tick = float(os.sysconf("SC_CLK_TCK")) if hasattr(os, "sysconf") else 100.0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _kind(self, cmd: str) -> str:
        if "locust" in cmd:
            return "locust"
        return next((kind for mark, kind in self.KINDS if mark in cmd), "serve")

    def sample(self) -> None:
        proc = Path("/proc")
        if not proc.is_dir():
            return
        children: dict[int, list[int]] = {}
        found: dict[int, tuple[str, float]] = {}
        for entry in proc.iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            fields = stat[stat.rfind(")") + 2 :].split()
            children.setdefault(int(fields[1]), []).append(int(entry.name))
            found[int(entry.name)] = (cmd, (int(fields[11]) + int(fields[12])) / self.tick)
        todo = list(self.roots)
        while todo:
            pid = todo.pop()
            if pid in found:
                self.used[pid] = (self._kind(found[pid][0]), found[pid][1])
            todo.extend(children.get(pid, []))

    def totals(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for kind, seconds in self.used.values():
            out[kind] = out.get(kind, 0.0) + seconds
        return out

    def machine(self) -> float:
        """CPU seconds the whole machine has been busy (``/proc/stat``: every core, not idle)."""
        try:
            fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
        except OSError:
            return 0.0
        busy = [int(x) for x in fields[:8]]  # user nice system idle iowait irq softirq steal
        return (sum(busy) - busy[3] - busy[4]) / self.tick

    def begin(self, *roots: int) -> None:
        self.roots = list(roots)
        self.sample()
        self.start = self.totals()
        self.start["machine"] = self.machine()
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(2.0):
            self.sample()

    def end(self) -> dict[str, float]:
        """Each kind's CPU seconds since :meth:`begin`, and ``other``: the rest of the machine's
        busy time (the database server when it runs here, the loadtest itself, other programs)."""
        self.stop.set()
        self.sample()
        used = {k: v - self.start.get(k, 0.0) for k, v in sorted(self.totals().items())}
        busy = self.machine() - self.start["machine"]
        if busy > 0:
            used["other"] = max(0.0, busy - sum(used.values()))
        return used


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _table(stats_csv: Path, lags: dict[str, list[float]]) -> tuple[list[list[str]], int]:
    rows: list[list[str]] = []
    errors = 0
    with stats_csv.open() as f:
        for row in csv.DictReader(f):
            failures = int(row["Failure Count"])
            if row["Name"] == "Aggregated":
                errors = failures
            rows.append(
                [
                    row["Name"],
                    row["Request Count"],
                    row["Requests/s"][:6],
                    row["50%"],
                    row["95%"],
                    row["99%"],
                    row["Max Response Time"].split(".")[0],
                    str(failures),
                ]
            )
    for kind in ("match", "event"):
        values = lags.get(kind, [])
        rows.append(
            [
                f"update lag ({kind} spectators)",
                str(len(values)),
                "",
                f"{_pct(values, 0.5) * 1000:.0f}",
                f"{_pct(values, 0.95) * 1000:.0f}",
                f"{_pct(values, 0.99) * 1000:.0f}",
                f"{max(values) * 1000:.0f}" if values else "nan",
                "",
            ]
        )
    return rows, errors


def pace_of(environ: Mapping[str, str]) -> tuple[str, str, str, int]:
    """``(pace, least, most seconds between hands, run seconds)`` from the environment: the
    ``LOADTEST_PACE`` preset (:data:`PACES`), each number overridable on its own."""
    pace = environ.get("LOADTEST_PACE", "club")
    if pace not in PACES:
        raise SystemExit(f"LOADTEST_PACE={pace!r}: expected one of {', '.join(PACES)}")
    least, most, seconds = PACES[pace]
    return (
        pace,
        environ.get("LOADTEST_HAND_MIN", least),
        environ.get("LOADTEST_HAND_MAX", most),
        int(environ.get("LOADTEST_SECONDS", seconds)),
    )


def verdict(lags: list[float]) -> str:
    """Whether every update reached the spectators within :data:`TARGET_S` (``lags``: at least
    one, in seconds), with the p95 and the longest."""
    p95 = statistics.quantiles(lags, n=20, method="inclusive")[-1] if len(lags) > 1 else lags[0]
    late = sum(1 for lag in lags if lag > TARGET_S)
    said = "met" if not late else "not met" if p95 > TARGET_S else "met at p95, not by all"
    return (
        f"target (every confirmed result on the spectators' phones within {TARGET_S:g} s): "
        f"{said}; lag p95 {p95:.2f} s, max {max(lags):.2f} s"
    )


def _print(rows: list[list[str]], backend: str, seconds: int, counts: dict[str, int]) -> None:
    head = ["what", "count", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "errors"]
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    print(f"\nloadtest: {backend}, {seconds} s, {counts}")
    for row in [head, *rows]:
        print(
            "  ".join(
                str(c).ljust(w) if i == 0 else str(c).rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )


# -- LOADTEST_STACK=1: the same night through the reference stack (stack/, ``make stack``) -------


def stack_wanted(environ: Mapping[str, str]) -> bool:
    """``LOADTEST_STACK=1``: run against the reference stack (nginx with its cache in front of
    gunicorn, PostgreSQL, Redis) instead of ``manage.py serve``."""
    return environ.get("LOADTEST_STACK", "") not in ("", "0")


def stack_target(workdir: Path, users: int) -> RunningStack:
    """The reference stack for ``users`` phones (``LOADTEST_STACK_WORKERS``: gunicorn's
    processes, default (2 x cores) + 1), its files under ``workdir``."""
    workers = int(os.environ.get("LOADTEST_STACK_WORKERS", "0"))
    return stack_start(workdir / "stack", workers=workers, demo=False, connections=2 * users + 1024)


def stack_backend(running: RunningStack) -> str:
    return f"reference stack (nginx, gunicorn x{running.workers}, PostgreSQL + Redis)"


def stack_stop(running: RunningStack, offset: int) -> CacheShare:
    """Stop the stack; what nginx answered without gunicorn during the run (its log from
    ``offset``)."""
    share = running.cache_share(offset)
    running.stop()
    return share


def main() -> int:
    tables = int(os.environ.get("LOADTEST_TABLES", "50"))
    spectators = int(os.environ.get("LOADTEST_SPECTATORS", "200"))
    pace, hand_min, hand_max, seconds = pace_of(os.environ)
    if pace == "open":
        # A national open through the reference stack (loadtest/open.py, docs/live.md).
        from loadtest.open import open_main

        hands = (float(hand_min), float(hand_max))
        return open_main(dict(os.environ), hands=hands, seconds=seconds)
    workdir = Path(tempfile.mkdtemp(prefix="knock-loadtest-"))
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.local", KNOCK_VAR_DIR=str(workdir / "var"))
    postgres = bool(os.environ.get("DATABASE_URL") and os.environ.get("CELERY_BROKER_URL"))
    if not postgres:
        env.pop("DATABASE_URL", None)
        env.pop("CELERY_BROKER_URL", None)
    backend = "PostgreSQL + Redis" if postgres else "embedded (SQLite + SQLite broker)"
    running = stack_target(workdir, 2 * tables + spectators) if stack_wanted(os.environ) else None
    if running is not None:
        env, backend = running.env, stack_backend(running)
    else:
        _run(env, "manage.py", "migrate", "--noinput")
    setup = workdir / "setup.json"
    setup.write_text(_run(env, "-m", "loadtest.setup", str(tables)).strip().splitlines()[-1])
    port = _port()
    proc = _serve(env, port, workdir / "serve.log") if running is None else None
    host = running.url if running is not None else f"http://127.0.0.1:{port}"
    offset = running.cache_log_size() if running is not None else 0
    share: CacheShare | None = None
    lags_file = workdir / "lags.json"
    cpu = CpuSampler()
    used: dict[str, float] = {}
    elapsed = 0.0
    try:
        users = 2 * tables + spectators
        # Locust spreads users by weight: players are 2 per table, spectators the rest.
        locust_env = {
            **env,
            "LOADTEST_SETUP": str(setup),
            "LOADTEST_OUT": str(lags_file),
            "LOADTEST_PLAYER_WEIGHT": str(2 * tables),
            "LOADTEST_SPECTATOR_WEIGHT": str(spectators),
            "LOADTEST_HAND_MIN": hand_min,
            "LOADTEST_HAND_MAX": hand_max,
        }
        command = [
            sys.executable,
            "-m",
            "locust",
            "-f",
            str(ROOT / "loadtest" / "locustfile.py"),
            "--headless",
            "-u",
            str(users),
            "-r",
            str(max(1, users // 30)),
            "-t",
            f"{seconds}s",
            "--host",
            host,
            "--csv",
            str(workdir / "stats"),
            "--only-summary",
            "--loglevel",
            "WARNING",
            "--stop-timeout",
            "5",
        ]
        locust = subprocess.Popen(command, cwd=ROOT, env=locust_env)
        cpu.begin(*(running.pids() if running else [proc.pid] if proc else []), locust.pid)
        started = time.monotonic()
        locust.wait()
        used = cpu.end()
        elapsed = time.monotonic() - started
    finally:
        share = stack_stop(running, offset) if running is not None else None
        if proc is not None:
            _stop(proc)
    data = json.loads(lags_file.read_text()) if lags_file.exists() else {"lags": {}, "counts": {}}
    rows, errors = _table(workdir / "stats_stats.csv", data["lags"])
    scenario = f"{backend}, {pace} pace (a hand every {hand_min}-{hand_max} s a table)"
    _print(rows, scenario, seconds, data["counts"])
    if used:
        cores = os.cpu_count() or 1
        print(
            f"loadtest: CPU seconds used in {elapsed:.0f} s (of {cores * elapsed:.0f} on {cores} "
            "cores, shared with whatever else runs): "
            + ", ".join(f"{kind} {seconds:.1f}" for kind, seconds in used.items())
        )
    if share is not None:
        print(f"loadtest: spectators' requests through nginx: {share}")
    lags = [v for values in data["lags"].values() for v in values]
    late = sum(1 for v in lags if v > TARGET_S)
    print(
        f"loadtest: {errors} errors; {late} of {len(lags)} updates later than {TARGET_S:g} s"
        + (f"; median lag {statistics.median(lags):.2f} s" if lags else "")
        + f"; work files in {workdir}"
    )
    if lags:
        print(f"loadtest: {verdict(lags)}")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
