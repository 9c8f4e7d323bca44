"""static/js/live.js's timing, run in Node against a stand-in page: each wait is the server's
interval give or take a tenth, doubles after each failure (up to 30 s, or what Retry-After asks)
and is back to the interval after the next success. (The pages themselves are driven in a real
browser by tests/e2e.)"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

LIVE_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "live.js"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")

# A page with the live root, a fetch that answers from a script of statuses, and a setTimeout
# that records each wait and runs the poll at once. Prints the waits as JSON.
HARNESS = """
const answers = %(answers)s;
const waits = [];
const root = { getAttribute: (n) => ({ "data-live-version-url": "/v", "data-live-fragment-url":
  "/f", "data-live-version": "3", "data-live-poll": "2000" })[n] ?? null,
  setAttribute: () => {} };
global.window = global;
global.document = { hidden: false, querySelector: (s) => (s === "[data-live]" ? root : null),
  getElementById: () => null, addEventListener: () => {} };
global.DOMParser = function () {};
let asked = 0;
global.fetch = (url) => {
  const [status, retry] = answers[Math.min(asked++, answers.length - 1)];
  return Promise.resolve({ status, ok: status >= 200 && status < 300,
    headers: { get: (h) => (h === "Retry-After" ? retry : null) },
    json: () => Promise.resolve({ version: 3, poll_ms: 2000 }) });
};
let pending = null;
global.setTimeout = (fn, ms) => { waits.push(Math.round(ms)); pending = fn; return 1; };
global.clearTimeout = () => {};
%(script)s
(async () => {
  for (let i = 0; i < answers.length; i++) {
    const run = pending; pending = null; run();
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
  }
  console.log(JSON.stringify(waits));
})();
"""


def _waits(answers: list[tuple[int, str | None]]) -> list[int]:
    script = HARNESS % {"answers": json.dumps(answers), "script": LIVE_JS.read_text()}
    done = subprocess.run(
        ["node", "-e", script], capture_output=True, text=True, timeout=30, check=True
    )
    waits: list[int] = json.loads(done.stdout)
    return waits


def _near(wait: int, ms: float) -> bool:
    return ms * 0.9 - 1 <= wait <= ms * 1.1 + 1


def test_waits_are_the_interval_give_or_take_a_tenth_and_not_all_the_same():
    waits = _waits([(304, None)] * 30)
    assert len(waits) == 31  # the first wait, then one after each poll
    assert all(_near(w, 2000) for w in waits), waits
    assert len(set(waits)) > 5, waits  # jitter: a room of phones does not poll in step


def test_failures_double_the_wait_up_to_30_s_and_a_success_resets_it():
    waits = _waits([(503, None)] * 6 + [(304, None)] * 2)
    assert _near(waits[0], 2000)
    for n, wait in enumerate(waits[1:7], start=1):
        assert _near(wait, min(30_000, 2000 * 2**n)), (n, waits)
    assert waits[6] == 30_000
    assert _near(waits[7], 2000), waits
    assert _near(waits[8], 2000), waits


def test_a_refusal_asking_to_wait_is_obeyed():
    waits = _waits([(429, "12"), (304, None)])
    assert waits[1] >= 12_000, waits
    assert _near(waits[2], 2000), waits
