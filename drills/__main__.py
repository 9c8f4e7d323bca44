"""``python -m drills [sqlite] [postgres]`` (``make drills``): run the fault drills, print a table.

Environment: ``DRILLS_ONLY`` (drill names, comma-separated, to run only those),
``DRILLS_DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/knock_drills``,
dropped and created afresh) and ``DRILLS_REDIS_URL`` (default ``redis://127.0.0.1:6379/8``, flushed)
for the PostgreSQL + Redis stack; the embedded stack runs in a throwaway directory. The last line
is ``drills: N passed, N failed``; the exit status is non-zero on any failure.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drills.load import Api, Load
from drills.stack import Stack
from stack.servers import PgCluster, RedisServer

BROKER_DOWN_SECONDS = 60.0
CACHE_DOWN_SECONDS = 30.0
WARM_UP = 5.0
TAIL = 5.0
SETTLE = 150.0
# Any 5xx fails a drill, except a 503 during the faults that may answer it: nothing can be
# stored while the database restarts, and "503, come back after Retry-After" says so (the client
# retries with the same Idempotency-Key). A 500 fails every drill.
FIVE_O_THREE_ALLOWED = {"db-restart"}
# After each fault, this many requests from this many clients at once (serve runs 16 web
# threads) must all be answered without a 5xx: no web thread keeps a broken connection
# (CONN_HEALTH_CHECKS).
AFTER_REQUESTS, AFTER_CLIENTS = 96, 16


@dataclass
class Drill:
    name: str
    inject: Callable[[Stack], str]
    needs_postgres: bool = False


DRILLS = [
    Drill("worker-kill", lambda s: s.kill_worker_mid_rebuild()),
    Drill("broker-down", lambda s: s.broker_down(BROKER_DOWN_SECONDS)),
    Drill("web-kill", lambda s: s.kill_web()),
    Drill("db-restart", lambda s: s.restart_postgres(), needs_postgres=True),
    Drill("cache-down", lambda s: s.cache_down(CACHE_DOWN_SECONDS), needs_postgres=True),
    Drill("serve-restart", lambda s: s.restart_serve()),
]


def _env(
    kind: str, workdir: Path
) -> tuple[dict[str, str], str, PgCluster | None, RedisServer | None]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        KNOCK_VAR_DIR=str(workdir / "var"),
        LOG_LEVEL="INFO",
        # The sweep resends a prompt still due after this long (default 90 s): shorter here so
        # a drill's lost messages are recovered within a minute or so.
        KNOCK_WORK_RESEND_AFTER="20",
    )
    if kind == "sqlite":
        return env, "", None, None
    redis = os.environ.get("DRILLS_REDIS_URL", "redis://127.0.0.1:6379/8")
    host, port, db = re.fullmatch(r"redis://([^:/]+):(\d+)/(\d+)", redis).groups()  # type: ignore[union-attr]
    subprocess.run(
        ["redis-cli", "-h", host, "-p", port, "-n", db, "FLUSHDB"], check=True, capture_output=True
    )
    # The cache on Redis, as production recommends: a redis-server of the drill's own, which the
    # cache-down drill kills without touching the machine's Redis.
    cache = RedisServer(workdir)
    env["CACHE_URL"] = cache.url
    url = os.environ.get("DRILLS_DATABASE_URL", "")
    if not url:
        # A throwaway cluster of the drill's own: db-restart restarts it, nobody else's.
        try:
            cluster = PgCluster()
        except BaseException:
            cache.close()
            raise
        env["DATABASE_URL"] = cluster.url
        return env, redis, cluster, cache
    name = url.rsplit("/", 1)[1]
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise SystemExit(f"DRILLS_DATABASE_URL names an odd database: {name}")
    admin = ["psql", url.rsplit("/", 1)[0] + "/postgres", "-qc"]
    for sql in (f"DROP DATABASE IF EXISTS {name} WITH (FORCE)", f"CREATE DATABASE {name}"):
        subprocess.run([*admin, sql], check=True, capture_output=True)
    env["DATABASE_URL"] = url
    return env, redis, None, cache


def _reconcile(stack: Stack, api: Api, acked_file: Path) -> tuple[dict[str, Any], float, list[str]]:
    """Reconcile until everything has settled (or SETTLE seconds).

    Returns the last report, how long settling took, and what the first report still waited for.
    """
    started = time.monotonic()
    waited: list[str] = []
    while True:
        with api.lock:
            acked_file.write_text(json.dumps(api.acked))
        out = stack.run("-m", "drills.reconcile", str(acked_file))
        report: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
        if not waited:
            waited = list(report["problems"])
        if report["ok"] or time.monotonic() - started > SETTLE:
            return report, time.monotonic() - started, waited
        time.sleep(5)


def _after(api: Api) -> int:
    """How many of AFTER_REQUESTS reads, AFTER_CLIENTS at a time, were answered 200 at the first
    try (no 5xx, no reset): every web thread's database connection works again."""

    def one(_: int) -> bool:
        request = urllib.request.Request(
            f"{api.base}/api/matches/?limit=1", headers={"Authorization": f"Token {api.token}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return bool(response.status == 200)
        except (OSError, http.client.HTTPException):
            return False

    with ThreadPoolExecutor(AFTER_CLIENTS) as pool:
        return sum(pool.map(one, range(AFTER_REQUESTS)))


def _log_excerpt(text: str, limit: int = 12) -> list[str]:
    """The distinct warnings and errors of the serve log (first line of each, counted)."""
    seen: dict[str, int] = {}
    for line in text.splitlines():
        m = re.search(r"(WARNING|ERROR|CRITICAL)/\S+\] (.*)", line) or re.match(
            r"(Could not send|Traceback|\w+Error)(.*)", line
        )
        if m is None:
            continue
        key = re.sub(r"\d+", "N", (m[1] + m[2])[:140])
        seen[key] = seen.get(key, 0) + 1
    return [f"{n} x {key}" for key, n in list(seen.items())[:limit]]


def _line(stack: str, drill: str, ok: bool, facts: list[str]) -> str:
    return f"drill {stack}/{drill}: {'PASS' if ok else 'FAIL'}  " + "; ".join(facts)


def run_stack(kind: str, workdir: Path) -> list[tuple[str, bool]]:
    workdir.mkdir(parents=True, exist_ok=True)
    env, redis, cluster, cache = _env(kind, workdir)
    stack = Stack(kind, workdir, env, redis=redis, cluster=cluster, cache=cache)
    only = set(filter(None, os.environ.get("DRILLS_ONLY", "").split(",")))
    drills = [
        d
        for d in DRILLS
        if (not d.needs_postgres or kind == "postgres") and (not only or d.name in only)
    ]
    results: list[tuple[str, bool]] = []
    try:
        stack.run("manage.py", "migrate", "--noinput")
        setup = stack.run("-m", "drills.setup", str(len(drills)))
        made = json.loads(setup.strip().splitlines()[-1])
        players = made["players"]
        pools = [players[i : i + 3] for i in range(0, 12, 3)]  # four tables of three regulars
        stack.start()
        api = Api(stack.base, made["token"])
        for n, drill in enumerate(drills):
            before_stats = api.stats.copy()
            before_acked = len(api.acked)
            before_problems = len(api.problems)
            before_stack_problems = len(stack.problems)
            linked = (made["linked_night"], made["linked_players"])
            load = Load(api, made["night"], pools, made["tournaments"][n], linked)
            log_from = stack.log_size()
            started = time.monotonic()
            load.start()
            time.sleep(WARM_UP)
            try:
                what = drill.inject(stack)
            except Exception as exc:
                what = f"could not inject: {type(exc).__name__}: {exc}"
                api.problem(what)
            time.sleep(TAIL)
            load.join(timeout=240)
            report, settle, waited = _reconcile(stack, api, workdir / f"acked-{kind}.json")
            after = _after(api)
            healthy = stack.healthy()
            stats = api.stats - before_stats
            problems = (
                stack.problems[before_stack_problems:]
                + api.problems[before_problems:]
                + report["problems"]
            )
            if stats["5xx"]:
                problems.append(
                    f"{stats['5xx']} answers were 5xx (not 503): "
                    + ", ".join(f"{k[4:]} x{v}" for k, v in stats.items() if k.startswith("5xx:"))
                )
            if stats["503"] and drill.name not in FIVE_O_THREE_ALLOWED:
                problems.append(f"{stats['503']} answers were 503")
            if stats["503"] > stats["503_retry_after"]:
                bare = stats["503"] - stats["503_retry_after"]
                problems.append(f"{bare} answers were 503 without Retry-After")
            if after != AFTER_REQUESTS:
                problems.append(
                    f"after the fault only {after}/{AFTER_REQUESTS} requests were answered "
                    "without a 5xx or a reset"
                )
            if not healthy:
                problems.append("/healthz is not ok after the drill")
            c = report["counts"]
            wrong_links = sorted((k, v) for k, v in stats.items() if k.startswith("wrong_link_"))
            facts = [
                what,
                f"{len(api.acked) - before_acked} hands acknowledged in {stats['matches']} "
                f"matches ({c.get('stored_once', 0)}/{c.get('acknowledged', 0)} of all stored "
                "exactly once)",
                f"score sheets {c.get('sheets', 0)} checked",
                f"standings {c.get('standings_equal', 0)}/{c.get('events', 0)} = rebuild",
                f"brackets {c.get('brackets_equal', 0)}/{c.get('brackets', 0)} complete",
                f"ratings {c.get('ratings_equal', 0)}/{c.get('ratings', 0)} = replay",
                f"rounds stuck {c.get('rounds_stuck', 0)}/{c.get('rounds', 0)}",
                f"lost {c.get('missing', 0)}, stored twice {c.get('duplicated', 0)}",
                f"{stats['linked_hands']} of them through links (wrong links answered "
                + (", ".join(f"{k[11:]} x{v}" for k, v in wrong_links) or "-")
                + ")",
                f"requests {stats['requests']}, retried {stats['retries']}, "
                f"5xx {stats['5xx']} + 503 {stats['503']}, "
                f"resets/refused {stats['connection_errors']}",
                f"after the fault {after}/{AFTER_REQUESTS} ok",
                f"took {time.monotonic() - started:.0f} s (settled {settle:.0f} s)",
            ]
            ok = not problems
            print(_line(kind, drill.name, ok, facts), flush=True)
            for p in problems[:8]:
                print(f"    problem: {p}", flush=True)
            if waited and (not ok or settle > 30):
                print(f"    settling first waited for: {'; '.join(waited[:5])}", flush=True)
            if not ok:
                for line in _log_excerpt(stack.log_since(log_from)):
                    print(f"    serve log: {line}", flush=True)
            results.append((f"{kind}/{drill.name}", ok))
    except Exception as exc:
        print(f"drill {kind}: FAIL  the stack broke: {type(exc).__name__}: {exc}", flush=True)
        done = {name for name, _ in results}
        results += [(f"{kind}/{d.name}", False) for d in drills if f"{kind}/{d.name}" not in done]
    finally:
        stack.close()
    return results


def main(argv: list[str]) -> int:
    kinds = argv or ["sqlite", "postgres"]
    unknown = set(kinds) - {"sqlite", "postgres"}
    if unknown:
        print(f"unknown stack {', '.join(sorted(unknown))}: choose sqlite and/or postgres")
        return 2
    results: list[tuple[str, bool]] = []
    keep = os.environ.get("DRILLS_KEEP")  # a directory to keep the logs in
    with tempfile.TemporaryDirectory(prefix="knock-drills-") as tmp:
        workdir = Path(keep) if keep else Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        for kind in kinds:
            results += run_stack(kind, workdir / kind)
    passed = sum(ok for _, ok in results)
    print(f"drills: {passed} passed, {len(results) - passed} failed")
    return 0 if results and passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
