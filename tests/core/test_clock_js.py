"""static/js/clock.js run in Node against a stand-in page: it counts a running clock down from
the server's deadline (corrected by the server's clock), shows a paused one's remainder as it is,
shows the "time" notice once a started clock reaches zero, and never asks the network."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from core.templatetags.knock_clock import clock_time, minutes

CLOCK_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "clock.js"

# Stand-in clocks (their attributes), a phone whose clock is `skew` ms behind the server's,
# a setInterval that records its interval, and no fetch at all. Prints each clock's text and
# whether its notice shows, after the first tick.
HARNESS = """
const clocks = %(clocks)s;
const phoneNow = %(now)s;
Date.now = () => phoneNow;
const made = clocks.map((attrs) => {
  const left = { textContent: "" };
  const notice = { hidden: true };
  const classes = new Set();
  return { left, notice, classes,
    getAttribute: (n) => (n in attrs ? String(attrs[n]) : null),
    querySelector: (s) =>
      (s === "[data-clock-left]" ? left : s === "[data-clock-time]" ? notice : null),
    classList: { toggle: (c, on) => (on ? classes.add(c) : classes.delete(c)) } };
});
global.window = global;
let every = null;
global.setInterval = (fn, ms) => { every = ms; };
global.fetch = () => { throw new Error("no network"); };
global.document = {
  querySelector: (s) => (s === "[data-clock-now]" ? made[0] : null),
  querySelectorAll: (s) => (s === "[data-clock]" ? made : []),
  addEventListener: () => {},
};
%(script)s
console.log(JSON.stringify({ every, shown: made.map((m) => [m.left.textContent, !m.notice.hidden,
  m.classes.has("at-time")]) }));
"""

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")

SERVER_NOW = 1_800_000_000_000


def _run(clocks: list[dict[str, Any]], *, phone_behind_ms: int = 0) -> dict[str, Any]:
    script = HARNESS % {
        "clocks": json.dumps(clocks),
        "now": SERVER_NOW - phone_behind_ms,
        "script": CLOCK_JS.read_text(),
    }
    done = subprocess.run(
        ["node", "-e", script], capture_output=True, text=True, timeout=30, check=True
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _clock(**attrs: Any) -> dict[str, Any]:
    base = {"data-clock-started": "1", "data-clock-now": SERVER_NOW, "data-clock-remaining": "0"}
    return {**base, **{f"data-clock-{k}": v for k, v in attrs.items()}}


def test_a_running_clock_counts_from_the_deadline_on_the_servers_time():
    out = _run(
        [_clock(deadline=SERVER_NOW + 65_000), _clock(deadline=SERVER_NOW + 3_725_000)],
        phone_behind_ms=90_000,  # the phone's own clock would say 2:35 left
    )
    assert out["every"] == 1000
    assert out["shown"] == [["1:05", False, False], ["1:02:05", False, False]]


def test_a_paused_or_unstarted_clock_shows_its_remainder():
    out = _run([_clock(remaining=600), _clock(remaining=90, started="0")])
    assert out["shown"] == [["10:00", False, False], ["1:30", False, False]]


def test_at_zero_a_started_clock_says_time_and_an_unstarted_one_does_not():
    out = _run([_clock(deadline=SERVER_NOW - 5_000), _clock(remaining=0), _clock(started="0")])
    assert out["shown"] == [["0:00", True, True], ["0:00", True, True], ["0:00", False, False]]


def test_the_servers_drawing_and_the_script_write_the_same_time():
    for seconds in (0, 59, 60, 65, 3599, 3600, 3725):
        out = _run([_clock(remaining=seconds, started="0")])
        assert out["shown"][0][0] == clock_time(seconds), seconds


def test_the_filters_read_nonsense_as_zero_and_round_minutes_up():
    assert clock_time("x") == "0:00"
    assert clock_time(-5) == "0:00"
    assert minutes(90) == 2
    assert minutes(None) == 0
    assert minutes(300) == 5
