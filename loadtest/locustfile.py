"""The club night in Locust: two players per table and spectators, doing what live.js does.

Players (two per table) poll their match's live regions every ``poll_ms`` (give or take a tenth)
with If-None-Match naming the version they show, as a phone does: a 304 while nothing changed, the
regions when the version moved. The player whose turn it is enters the next hand through the API
(with an Idempotency-Key) after a short "hand" of play; the other sees it in the regions and
confirms it. Spectators poll a match page's regions (three per table, then the rest) or the event
page's.

How late updates arrive: after each confirmation the confirming player reads the match's and the
event's new versions; a spectator's lag for it is the time from the confirmation's answer to the
first poll of theirs that brought regions of that version (or a later one): the regions are on
the phone then. ``LOADTEST_SETUP`` names the JSON of :mod:`loadtest.setup`; ``LOADTEST_OUT``
where the lags are written at the end.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

from gevent import sleep
from locust import events, task
from locust.contrib.fasthttp import FastHttpUser

SETUP: dict[str, Any] = json.loads(Path(os.environ["LOADTEST_SETUP"]).read_text())
OUT = os.environ.get("LOADTEST_OUT", "loadtest-lags.json")
HAND_SECONDS = (
    float(os.environ.get("LOADTEST_HAND_MIN", "8")),
    float(os.environ.get("LOADTEST_HAND_MAX", "16")),
)
MATCHES: list[dict[str, Any]] = SETUP["matches"]
EVENT: int = SETUP["event"]

# Confirmations seen by the players: (version after it, monotonic time of its answer).
MATCH_MARKS: dict[int, list[tuple[int, float]]] = defaultdict(list)
EVENT_MARKS: list[tuple[int, float]] = []
LAGS: dict[str, list[float]] = {"match": [], "event": []}
COUNTS: dict[str, int] = defaultdict(int)
_seats = iter([(m, p) for m in MATCHES for p in (0, 1)])
_watch = iter(range(10**9))

SHOWN = re.compile(r"data-live-fragment data-live-version=\"([0-9]+)\"")
PENDING = re.compile(r'data-submission="(\d+)" data-status="pending"')
NEXT_HAND = re.compile(r'name="hand_number" value="(\d+)"')


class _Poller:
    """What live.js does: the regions asked for with If-None-Match naming the version shown."""

    def __init__(self, user: FastHttpUser, fragment_url: str, name: str):
        self.user = user
        self.fragment_url = fragment_url
        self.name = name
        self.version = -1
        self.seen: list[tuple[int, float]] = []
        self.poll_ms = 2000
        self.html = ""

    def poll(self) -> bool:
        headers = {"If-None-Match": f'"{self.version}"'} if self.version >= 0 else {}
        with self.user.client.get(
            self.fragment_url,
            headers=headers,
            name=f"live poll ({self.name})",
            catch_response=True,
        ) as response:
            self.poll_ms = int(response.headers.get("X-Live-Poll-Ms") or self.poll_ms)
            if response.status_code == 304:
                response.success()
                return False
            shown = SHOWN.search(response.text or "")
            if response.status_code != 200 or shown is None:
                response.failure(f"regions {response.status_code}")
                return False
            response.success()
        version = int(shown[1])
        if version == self.version:
            return False
        self.seen.append((version, time.monotonic()))
        self.html = response.text or ""
        self.version = version
        return True

    def wait(self) -> None:
        """Until the next poll: ``poll_ms`` give or take a tenth, as live.js waits."""
        sleep(self.poll_ms / 1000 * random.uniform(0.9, 1.1))

    def lags(self, marks: list[tuple[int, float]], done: int, kind: str) -> int:
        """Count the confirmations this poller has now seen (from index ``done`` on)."""
        while done < len(marks):
            target, at = marks[done]
            first = next((t for v, t in self.seen if v >= target), None)
            if first is None:
                break
            LAGS[kind].append(max(0.0, first - at))
            done += 1
        return done


class Player(FastHttpUser):
    """One player's phone: polls the table, enters on their turn, confirms the other's."""

    weight = int(os.environ.get("LOADTEST_PLAYER_WEIGHT", "100"))

    def on_start(self) -> None:
        self.match, self.position = next(_seats)
        self.token = self.match["tokens"][self.position]
        mid = self.match["id"]
        self.client.get(f"/matches/{mid}/?k={self.token}", name="match page (player)")
        self.poller = _Poller(self, f"/matches/{mid}/live/", "player")
        self.ready_at = time.monotonic() + random.uniform(*HAND_SECONDS)

    def _api(self, path: str, body: dict[str, Any], name: str) -> Any:
        headers = {"X-Match-Key": self.token, "Idempotency-Key": uuid.uuid4().hex}
        return self.client.post(path, json=body, headers=headers, name=name)

    def _enter(self, number: int) -> None:
        body = {
            "hand_number": number,
            "knocker": self.position,
            "outcome": "knock",
            "knocker_deadwood": random.randint(1, 10),
            "defender_deadwood": random.randint(11, 40),
        }
        response = self._api(f"/api/matches/{self.match['id']}/hands/", body, "enter hand")
        if response.status_code == 201:
            COUNTS["entered"] += 1
        self.ready_at = time.monotonic() + random.uniform(*HAND_SECONDS)

    def _confirm(self, sid: int) -> None:
        response = self._api(f"/api/hands/{sid}/confirm/", {}, "confirm hand")
        if response.status_code != 200:
            return
        at = time.monotonic()
        COUNTS["confirmed"] += 1
        mid = self.match["id"]
        match_v = self.client.get(f"/api/matches/{mid}/version/", name="version after confirm")
        event_v = self.client.get(f"/api/events/{EVENT}/version/", name="version after confirm")
        MATCH_MARKS[mid].append((int(match_v.json()["version"]), at))
        EVENT_MARKS.append((int(event_v.json()["version"]), at))

    @task
    def play(self) -> None:
        self.poller.poll()
        html = self.poller.html
        pending = PENDING.search(html)
        if pending and f"/entries/{pending[1]}/confirm/" in html:
            self._confirm(int(pending[1]))
        elif not pending and time.monotonic() >= self.ready_at:
            number = NEXT_HAND.search(html)
            if number and (int(number[1]) - 1) % 2 == self.position:
                self._enter(int(number[1]))
        self.poller.wait()


class Spectator(FastHttpUser):
    """A spectator's phone on a match page (three per table first) or on the event page."""

    weight = int(os.environ.get("LOADTEST_SPECTATOR_WEIGHT", "200"))

    def on_start(self) -> None:
        n = next(_watch)
        self.done = 0
        if n < 3 * len(MATCHES):
            self.mid: int | None = MATCHES[n % len(MATCHES)]["id"]
            self.client.get(f"/matches/{self.mid}/", name="match page (spectator)")
            self.poller = _Poller(self, f"/matches/{self.mid}/live/", "match")
        else:
            self.mid = None
            self.client.get(f"/events/{EVENT}/", name="event page")
            self.poller = _Poller(self, f"/events/{EVENT}/live/", "event")
        sleep(random.uniform(0, 2))
        # Only confirmations made once this phone is watching count for it.
        self.done = len(MATCH_MARKS[self.mid] if self.mid is not None else EVENT_MARKS)

    @task
    def watch(self) -> None:
        self.poller.poll()
        if self.mid is not None:
            self.done = self.poller.lags(MATCH_MARKS[self.mid], self.done, "match")
        else:
            self.done = self.poller.lags(EVENT_MARKS, self.done, "event")
        self.poller.wait()


@events.quitting.add_listener
def _write(environment: Any, **_: Any) -> None:
    Path(OUT).write_text(json.dumps({"lags": LAGS, "counts": COUNTS}))
