"""static/js/live.js with the push on (data-live-subscribe-url), run in Node against a stand-in
page: it subscribes instead of polling, fetches the regions of a version it is told at the URL
keyed by that version (never for the version it shows), and polls when the subscription fails.
(The whole path behind a real nginx and nchan: tests/venue/test_live_push.py.)"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

LIVE_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "live.js"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")

# The page shows version 3. %(steps)s is a list of [what, value]: "message" delivers a version to
# the EventSource, "error" breaks it, "tick" runs the timer set last (a poll). Prints what the
# page did: the subscription, every fetch (URL and If-None-Match), the timers set.
HARNESS = """
const steps = %(steps)s;
const log = [];
const attrs = { "data-live-fragment-url": "/f", "data-live-version": "3",
  "data-live-poll": "2000", "data-live-subscribe-url": %(subscribe)s };
const root = { getAttribute: (n) => attrs[n] ?? null, setAttribute: (n, v) => { attrs[n] = v; } };
global.window = global;
global.document = { hidden: false, querySelector: (s) => (s === "[data-live]" ? root : null),
  getElementById: () => null, addEventListener: () => {} };
global.DOMParser = function () {
  this.parseFromString = (html) => ({
    querySelector: (s) => (s === "[data-live-fragment]" ?
      { getAttribute: () => html.replace("v", "") } : null),
    querySelectorAll: () => [] });
};
global.CustomEvent = function () {};
let source = null;
global.EventSource = function (url) {
  log.push(["subscribe", url]); source = this; this.closed = false;
  this.close = () => { this.closed = true; log.push(["close"]); };
};
global.fetch = (url, options) => {
  const inm = (options && options.headers && options.headers["If-None-Match"]) || null;
  log.push(["fetch", url, inm]);
  const version = /v=([0-9]+)/.exec(url);
  return Promise.resolve({ status: 200, ok: true, headers: { get: () => null },
    text: () => Promise.resolve("v" + (version ? version[1] : "3")) });
};
let pending = null;
global.setTimeout = (fn, ms) => { if (ms !== 60000) { pending = fn; log.push(["timer"]); }
  return 1; };
global.clearTimeout = () => {};
%(script)s
(async () => {
  for (const [what, value] of steps) {
    if (what === "message") { source.onmessage({ data: value }); }
    if (what === "error") { source.onerror({}); }
    if (what === "tick") { const run = pending; pending = null; if (run) { run(); } }
    for (let i = 0; i < 4; i++) { await new Promise((r) => setImmediate(r)); }
  }
  console.log(JSON.stringify(log));
})();
"""


def _run(steps: list[list[str]], subscribe: str = "/live/sub/match-7") -> list[list[str | None]]:
    script = HARNESS % {
        "steps": json.dumps(steps),
        "subscribe": json.dumps(subscribe),
        "script": LIVE_JS.read_text(),
    }
    done = subprocess.run(
        ["node", "-e", script], capture_output=True, text=True, timeout=30, check=True
    )
    log: list[list[str | None]] = json.loads(done.stdout)
    return log


def test_a_subscribed_page_does_not_poll_and_fetches_each_version_it_is_told_by_it():
    steps = [["message", "3"], ["message", "5"], ["message", "5"], ["message", "8"], ["tick", ""]]
    log = _run(steps)
    assert log == [
        ["subscribe", "/live/sub/match-7"],
        # "3" is the version shown: nothing fetched; "5" once (the second is shown by then).
        ["fetch", "/f?v=5", None],
        # "8" came within a second of the last fetch: it waits for its turn, then is fetched.
        ["timer"],
        ["fetch", "/f?v=8", None],
    ]


def test_versions_told_while_a_fetch_waits_its_turn_are_fetched_once_the_newest():
    steps = [["message", "5"], ["message", "6"], ["message", "7"], ["message", "9"], ["tick", ""]]
    log = _run(steps)
    assert log == [
        ["subscribe", "/live/sub/match-7"],
        ["fetch", "/f?v=5", None],
        ["timer"],
        ["fetch", "/f?v=9", None],
    ]


def test_a_broken_subscription_falls_back_to_polling_with_the_version_shown():
    log = _run([["message", "4"], ["error", ""], ["tick", ""]])
    assert log[:2] == [["subscribe", "/live/sub/match-7"], ["fetch", "/f?v=4", None]]
    assert ["close"] in log
    fetches = [entry for entry in log if entry[0] == "fetch"]
    assert fetches[-1] == ["fetch", "/f", '"4"']  # polling, conditional on the version shown


def test_without_a_subscription_url_the_page_polls_as_before():
    log = _run([["tick", ""]], subscribe="")
    assert log[0] == ["timer"]
    assert ["fetch", "/f", '"3"'] in log
    assert not any(entry[0] == "subscribe" for entry in log)
