"""50 tables entering a hand at the same moment, against ``manage.py serve`` (``make run``).

``python -m bench.serve_bench`` starts the real ``serve`` (web server, worker and beat) on the
embedded default in a throwaway directory, on a free port of 127.0.0.1, starts 50 matches of a
club night through the REST API, then sends each hand of the 50 matches at once (a barrier
releases 50 threads together), three waves: a dead hand, a knock, a gin. Every request must
succeed (201): the target is **0 failed requests**. It prints p50/p95/max latency over all 150
entries. Usage: ``python -m bench.serve_bench [--tables 50]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from drills.load import Api
from drills.stack import Stack

WAVES: list[dict[str, object]] = [
    {"outcome": "dead"},
    {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25},
    {"knocker": 1, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 31},
]


def _once(api: Api, method: str, path: str, body: dict[str, object]) -> tuple[int, float]:
    """One request, never retried: a reset or a 5xx counts as a failure."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        api.base + path,
        data=json.dumps(body).encode(),
        headers={
            "Authorization": f"Token {api.token}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        },
        method=method,
    )
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            status = response.status
            response.read()
    except urllib.error.HTTPError as exc:
        status = exc.code
    except OSError:
        status = 0
    return status, time.perf_counter() - started


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.serve_bench")
    parser.add_argument("--tables", type=int, default=50)
    args = parser.parse_args(argv)
    tables = args.tables
    with tempfile.TemporaryDirectory(prefix="knock-serve-bench-") as tmp:
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}
        }
        env.update(DJANGO_SETTINGS_MODULE="config.settings.local", KNOCK_VAR_DIR=f"{tmp}/var")
        stack = Stack("bench", Path(tmp), env)
        stack.run("manage.py", "migrate", "--noinput")
        made = json.loads(stack.run("-m", "drills.setup", "0", str(2 * tables)).splitlines()[-1])
        stack.start()
        try:
            api = Api(stack.base, made["token"])
            players = made["players"]
            matches = []
            for t in range(tables):
                body = {
                    "event": made["night"],
                    "players": players[2 * t : 2 * t + 2],
                    "table_number": t + 1,
                }
                status, out = api.call("POST", "/api/matches/", body, keyed=True)
                if status != 201:
                    print(f"could not start match {t + 1}: {status} {out}")
                    return 1
                matches.append(out["id"])
            latencies: list[float] = []
            failed: dict[int, int] = {}
            lock = threading.Lock()
            wall = []
            for number, entry in enumerate(WAVES, start=1):
                barrier = threading.Barrier(tables)

                def enter(
                    match_id: int,
                    barrier: threading.Barrier = barrier,
                    number: int = number,
                    entry: dict[str, object] = entry,
                ) -> None:
                    barrier.wait()
                    status, seconds = _once(
                        api,
                        "POST",
                        f"/api/matches/{match_id}/hands/",
                        {"hand_number": number, **entry},
                    )
                    with lock:
                        latencies.append(seconds)
                        if status != 201:
                            failed[status] = failed.get(status, 0) + 1

                threads = [threading.Thread(target=enter, args=(m,)) for m in matches]
                started = time.perf_counter()
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                wall.append(time.perf_counter() - started)
        finally:
            stack.close()
    total = len(latencies)
    bad = sum(failed.values())
    print(f"{tables} simultaneous hand entries x {len(WAVES)} waves against manage.py serve:")
    print(f"  requests {total}, failed {bad} {failed or ''}".rstrip())
    print(
        f"  latency p50 {statistics.median(latencies) * 1000:.0f} ms, "
        f"p95 {_percentile(latencies, 0.95) * 1000:.0f} ms, "
        f"max {max(latencies) * 1000:.0f} ms; "
        f"each wave done in {', '.join(f'{w:.1f}' for w in wall)} s"
    )
    print(f"  target 0 failed: {'met' if bad == 0 else 'MISSED'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
