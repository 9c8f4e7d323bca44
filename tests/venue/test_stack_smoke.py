"""CI's smoke of the reference stack (``make stack``: nginx with deploy/nginx/knock.conf,
gunicorn, the Celery worker and beat as deploy/systemd runs them, PostgreSQL and Redis of its
own): about a minute of a club night, 50 tables and 500 spectators through nginx, with the load
test's generator (loadtest.open). No errors; most spectators' requests answered by nginx (its
cache or nchan's fan-out) without reaching gunicorn; nothing left running after the stop. The
full runs, and their targets, are ``make loadtest`` (docs/live.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from loadtest.open import CACHE_ANSWERS, run_open
from stack.launch import stack_start
from stack.nginx import NGINX
from tests.support import requires

pytestmark = pytest.mark.venue

ROOT = Path(__file__).resolve().parents[2]
TABLES = 50
SPECTATORS = 500
RAMP, SECONDS = 25, 25
"""The spectators come in over RAMP seconds (each loads its page once), then all stay SECONDS."""
HANDS = (15.0, 30.0)
"""Seconds between two hands at a table: about four times a brisk club night."""
PASSES = 40
"""Players keeping their pass on screen (private pages, polled past the cache)."""


def _tree(roots: list[int]) -> set[int]:
    """``roots`` and every process under them (Linux /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry.name))
    found, todo = set(), list(roots)
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(parents.get(pid, []))
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@requires(Path(NGINX).exists(), "nginx (Debian's package, with libnginx-mod-nchan)")
def test_the_stack_carries_a_club_night_with_its_spectators(tmp_path: Path) -> None:
    running = stack_start(tmp_path / "stack", workers=4, demo=False, connections=4096)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "loadtest.setup", str(TABLES)],
            cwd=ROOT,
            env=running.env,
            capture_output=True,
            text=True,
            check=True,
        )
        setup = json.loads(done.stdout.strip().splitlines()[-1])
        offset = running.cache_log_size()
        result = run_open(
            running.nginx.https,
            setup,
            spectators=SPECTATORS,
            per_table=3,
            hands=HANDS,
            seconds=SECONDS,
            ramp=RAMP,
            workdir=tmp_path,
            passes=PASSES,
        )
        share = running.cache_share(offset)
        dead = running.dead()
        processes = _tree(running.pids())
    finally:
        running.stop()
    left = [pid for pid in processes if _alive(pid)]
    # The polls: each page's subscription and the regions (slides) it fetches, not the page
    # itself (loaded once, as a browser does).
    polls = {kind: n for kind, n in result.kinds.items() if " page" not in kind}
    total = sum(polls.values())
    without = sum(
        n
        for kind, n in polls.items()
        if kind.endswith("subscription") or kind.rsplit(" ", 1)[-1] in CACHE_ANSWERS
    )
    print(
        f"stack smoke: {TABLES} tables, {SPECTATORS} spectators: {result.confirmations} hands "
        f"confirmed, {total} spectators' polls, {without} without gunicorn "
        f"({100 * without / max(1, total):.1f} %); nginx's log: {share}; "
        f"{len(result.lags)} update lags, max {max(result.lags, default=0):.2f} s; "
        f"passes {dict(result.passes)}; errors {dict(result.errors)}; "
        f"by kind {dict(result.kinds)}; start {running.timings}"
    )
    assert dead == []
    assert left == []
    assert not result.errors
    assert result.confirmations >= 20
    assert without > 0.5 * total
    # Every pass opened its link and page, then polled (each a 200 or a 304, never cached).
    assert result.passes["link 302"] == result.passes["page 200"] == PASSES
    assert result.passes["poll 200"] + result.passes["poll 304"] >= PASSES * SECONDS / 3
