"""The scripted club night: tables entering hands through the REST API while faults happen.

Every write carries an ``Idempotency-Key`` and an explicit hand number, and is retried with the
same key after a connection error or a 5xx, as a careful client (the site's own pages) would: a
hand is *acknowledged* when the API answers 201 for it. Anything else that is not a retry (a 4xx
on a hand, a conflict) is recorded as a problem.
"""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from typing import Any

# Hands by counts, cycled: every outcome the engine scores in a two-player game.
ENTRIES: list[dict[str, Any]] = [
    {"outcome": "dead"},
    {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25},
    {"knocker": 1, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 31},
    {"knocker": 0, "outcome": "undercut", "knocker_deadwood": 9, "defender_deadwood": 4},
    {"knocker": 1, "outcome": "knock", "knocker_deadwood": 3, "defender_deadwood": 40},
]


class GaveUp(Exception):
    pass


class Api:
    """A token-authenticated JSON client that retries what a fault interrupted."""

    def __init__(self, base: str, token: str, *, patience: float = 150) -> None:
        self.base = base
        self.token = token
        self.patience = patience
        self.lock = threading.Lock()
        self.stats: Counter[str] = Counter()
        self.problems: list[str] = []
        self.acked: list[dict[str, int]] = []
        self.in_flight = 0

    def _count(self, key: str, n: int = 1) -> None:
        with self.lock:
            self.stats[key] += n

    def problem(self, text: str) -> None:
        with self.lock:
            self.problems.append(text)

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        keyed: bool = False,
        link: str | None = None,
        anonymous: bool = False,
    ) -> Any:
        """(status, json) of the first answer that is not a fault; 5xx and resets are retried
        (after a 503's ``Retry-After``, at most 5 s). ``link``: as the holder of that private
        link's secret (``X-Match-Key``), without the director's token; ``anonymous``: neither."""
        headers = {"Accept": "application/json"}
        if link is not None:
            headers["X-Match-Key"] = link
        elif not anonymous:
            headers["Authorization"] = f"Token {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if keyed:
            headers["Idempotency-Key"] = str(uuid.uuid4())
        deadline = time.monotonic() + self.patience
        attempt = 0
        while True:
            attempt += 1
            if attempt > 1:
                self._count("retries")
            request = urllib.request.Request(
                self.base + path, data=data, headers=headers, method=method
            )
            with self.lock:
                self.in_flight += 1
            retry_after = 0.0
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    status, raw = response.status, response.read()
            except urllib.error.HTTPError as exc:
                status, raw = exc.code, exc.read()
                if status == 503:
                    try:
                        retry_after = min(5.0, float(exc.headers.get("Retry-After") or 0))
                    except ValueError:
                        retry_after = 0.0
            except (OSError, http.client.HTTPException):
                # refused, reset, or an answer cut short by a killed server (IncompleteRead):
                # nothing was acknowledged, so it is sent again, with the same Idempotency-Key
                status, raw = 0, b""
            finally:
                with self.lock:
                    self.in_flight -= 1
            self._count("requests")
            if status == 503:
                # "come back later" (the database restarting): retried, but never a failure
                self._count("503")
                if retry_after:
                    self._count("503_retry_after")
            elif status >= 500:
                self._count("5xx")
                self._count(f"5xx:{method} {re.sub(r'[0-9]+', 'N', path.split('?')[0])}")
            elif status == 0:
                self._count("connection_errors")
            else:
                try:
                    return status, json.loads(raw or b"null")
                except ValueError:
                    return status, None
            if time.monotonic() > deadline:
                raise GaveUp(f"{method} {path}: no answer after {self.patience:.0f} s")
            time.sleep(retry_after or min(2.0, 0.25 * attempt))

    def play(self, match_id: int, variant: int) -> None:
        """Enter hands until the match is finished (a fixed-hands match: 2 hands that count)."""
        for number in range(1, 10):
            entry = {"hand_number": number, **ENTRIES[(variant + number) % len(ENTRIES)]}
            status, out = self.call("POST", f"/api/matches/{match_id}/hands/", entry, keyed=True)
            if status != 201:
                self.problem(f"hand {number} of match {match_id}: {status} {out}")
                return
            with self.lock:
                self.acked.append({"match": match_id, "submission": out["id"]})
                self.stats["hands"] += 1
            status, detail = self.call("GET", f"/api/matches/{match_id}/")
            if status == 200 and detail["status"] == "finished":
                self._count("matches")
                return
        self.problem(f"match {match_id} not finished after 9 hands")

    def play_linked(self, match_id: int, variant: int, seats: dict[int, str]) -> None:
        """Enter hands through seat 0's private link and confirm each through seat 1's, as two
        players' phones do (no account); now and then a read with a wrong secret, which the link
        limiter counts in the cache: answered as the site decides (refused, or as to a visitor
        without a link), never with a 5xx."""
        for number in range(1, 10):
            entry = {"hand_number": number, **ENTRIES[(variant + number) % len(ENTRIES)]}
            path = f"/api/matches/{match_id}/hands/"
            status, out = self.call("POST", path, entry, keyed=True, link=seats[0])
            if status != 201:
                self.problem(f"linked hand {number} of match {match_id}: {status} {out}")
                return
            if out.get("status") != "confirmed":
                status, confirmed = self.call(
                    "POST", f"/api/hands/{out['id']}/confirm/", {}, keyed=True, link=seats[1]
                )
                if status != 200:
                    self.problem(f"confirming hand {out['id']}: {status} {confirmed}")
                    return
            with self.lock:
                self.acked.append({"match": match_id, "submission": out["id"]})
                self.stats["hands"] += 1
                self.stats["linked_hands"] += 1
            if number == 1:
                wrong = "W" * len(seats[0])
                status, _ = self.call("GET", f"/api/matches/{match_id}/", link=wrong)
                self._count(f"wrong_link_{status}")
            status, detail = self.call("GET", f"/api/matches/{match_id}/", link=seats[1])
            if status == 200 and detail["status"] == "finished":
                self._count("matches")
                return
        self.problem(f"linked match {match_id} not finished after 9 hands")


class Load:
    """Club-night tables (until told to stop) and tournaments (until finished) in threads."""

    def __init__(
        self,
        api: Api,
        night: int,
        pools: list[list[int]],
        tournaments: dict[str, int],
        linked: tuple[int, list[int]] | None = None,
    ):
        self.api = api
        self.night = night
        # (event, players): a table playing through private links, and a spectator watching it
        self.linked = linked
        self.watched: int | None = None
        self.pools = pools
        self.tournaments = tournaments
        self.stop = threading.Event()
        self.abandon = threading.Event()
        self.threads: list[threading.Thread] = []
        self.finished: set[str] = set()
        # What each thread is doing, and since when: a drill that times out says where it waits.
        self.doing: dict[str, tuple[str, float]] = {}

    def _doing(self, who: str, what: str) -> None:
        previous = self.doing.get(who)
        if previous is None or previous[0] != what:
            self.doing[who] = (what, time.monotonic())

    def start(self) -> None:
        for table, pool in enumerate(self.pools, start=1):
            self._spawn(self._table, table, pool)
        if self.linked is not None:
            self._spawn(self._linked_table, *self.linked)
            self._spawn(self._spectator)
        self._spawn(self._swiss, self.tournaments["swiss"])
        self._spawn(self._elimination, self.tournaments["elimination"])

    def _spawn(self, fn: Any, *args: Any) -> None:
        def run() -> None:
            try:
                fn(*args)
            except GaveUp as exc:
                self.api.problem(str(exc))
            except Exception as exc:  # a drill reports every failure, it never hides one
                self.api.problem(f"{fn.__name__}: {type(exc).__name__}: {exc}")

        thread = threading.Thread(target=run, daemon=True, name=f"{fn.__name__}{list(args)}")
        thread.start()
        self.threads.append(thread)

    def join(self, timeout: float) -> None:
        self.stop.set()
        deadline = time.monotonic() + timeout
        for thread in self.threads:
            thread.join(max(0.1, deadline - time.monotonic()))
        self.abandon.set()
        alive = [t.name for t in self.threads if t.is_alive()]
        if alive:
            now = time.monotonic()
            waits = "; ".join(
                f"{who}: {what} for {now - since:.0f} s"
                for who, (what, since) in self.doing.items()
                if who in alive
            )
            self.api.problem(
                f"the club night had not finished {timeout:.0f} s after the fault ({waits})"
            )
        for kind in ("swiss", "elimination"):
            if kind not in self.finished:
                self.api.problem(f"the {kind} event did not finish")

    def _table(self, table: int, pool: list[int]) -> None:
        n = 0
        me = threading.current_thread().name
        while not self.stop.is_set():
            self._doing(me, f"match {n + 1}")
            a, b = pool[n % len(pool)], pool[(n + 1) % len(pool)]
            body = {"event": self.night, "players": [a, b], "table_number": table}
            status, out = self.api.call("POST", "/api/matches/", body, keyed=True)
            if status != 201:
                self.api.problem(f"table {table}: starting a match answered {status} {out}")
                return
            self.api.play(out["id"], table + n)
            n += 1

    def _linked_table(self, event: int, players: list[int]) -> None:
        n = 0
        me = threading.current_thread().name
        while not self.stop.is_set():
            self._doing(me, f"linked match {n + 1}")
            body = {"event": event, "players": players, "table_number": 99}
            status, out = self.api.call("POST", "/api/matches/", body, keyed=True)
            if status != 201 or not (out.get("links") or {}).get("seats"):
                self.api.problem(f"linked table: starting a match answered {status} {out}")
                return
            seats = {int(p): url.rsplit("#", 1)[1] for p, url in out["links"]["seats"].items()}
            self.watched = out["id"]
            self.api.play_linked(out["id"], n, seats)
            n += 1

    def _spectator(self) -> None:
        """A signed-out spectator polling the linked table's live regions (kept in the cache
        by version: core.live); any answer but a 5xx will do."""
        while not self.stop.is_set():
            if self.watched is not None:
                status, _ = self.api.call("GET", f"/matches/{self.watched}/live/", anonymous=True)
                self.api._count(f"spectator_{status}")
            time.sleep(1.0)

    def _swiss(self, event: int) -> None:
        variant = 0
        me = threading.current_thread().name
        while not self.abandon.is_set():
            status, rounds = self.api.call("GET", f"/api/events/{event}/rounds/")
            last = rounds[-1] if rounds else None
            self._doing(me, f"round {last['number']} {last['status']}" if last else "no round")
            if last is not None and last["status"] == "queued":
                time.sleep(0.5)
                continue
            if last is not None and last["status"] == "failed":
                self.api.problem(f"Swiss round {last['number']} failed: {last['error']}")
                return
            open_matches = [
                m for m in (last["matches"] if last else []) if m["status"] != "finished"
            ]
            for m in open_matches:
                variant += 1
                self._doing(me, f"playing match {m['id']}")
                self.api.play(m["id"], variant)
            if open_matches:
                continue
            if last is not None and last["number"] >= 3:
                self.finished.add("swiss")
                return
            self._doing(me, "asking for the next round")
            status, out = self.api.call("POST", f"/api/events/{event}/rounds/")
            if status == 409:
                time.sleep(0.5)  # being paired, or a retry of a round already paired
            elif status not in (201, 202):
                self.api.problem(f"pairing the Swiss answered {status} {out}")
                return

    def _elimination(self, event: int) -> None:
        status, out = self.api.call("POST", f"/api/events/{event}/rounds/")
        if status not in (201, 202, 409):
            self.api.problem(f"drawing the bracket answered {status} {out}")
            return
        variant = 0
        me = threading.current_thread().name
        while not self.abandon.is_set():
            self._doing(me, "waiting for the bracket")
            status, bracket = self.api.call("GET", f"/api/events/{event}/bracket/")
            if status == 200 and bracket.get("champion"):
                self.finished.add("elimination")
                return
            status, matches = self.api.call("GET", f"/api/matches/?event={event}&limit=500")
            rows = matches["results"] if isinstance(matches, dict) else matches
            open_matches = [m for m in rows if m["status"] != "finished"]
            for m in open_matches:
                variant += 1
                self._doing(me, f"playing match {m['id']}")
                self.api.play(m["id"], variant)
            if not open_matches:
                time.sleep(0.5)
