"""``LOADTEST_PACE=open``: a national open through the reference stack (docs/live.md).

Tables play at the club pace through the API (the player whose turn it is enters a hand, the
other confirms it a few seconds later); spectators are what static/js/live.js makes of a browser
behind deploy/nginx/knock.conf: they load their page once (keeping the cookies it sets, as a
browser does), subscribe to its versions (an EventSource on nchan) and, for each version they are
told, fetch that version's regions (``?v=<version>``): one fetch at a time, at most one a second
per page, the newest version told (live.js). Projector screens fetch their slides every 5 s
(static/js/projector.js). Players who keep their pass open (``LOADTEST_PASSES``) open its link
once and poll its live regions every 2 s with ``If-None-Match`` (static/js/live.js): private
pages, never cached, so every poll reaches gunicorn; they are counted apart from the spectators.

The generator is asyncio over raw HTTP/1.1 (two connections per spectator: the stream and the
fetches), split over :data:`PROCESSES` processes so that it keeps pace on two cores. Each
spectator records when it held each version; a confirmation's lag for a spectator is the time
from the confirmation's answer to the moment that spectator held the version read just after it
(only for spectators subscribed before it). Each answer's ``X-Cache-Status`` says who answered:
``HIT``, ``STALE`` or ``UPDATING`` is nginx's cache, the subscriptions are nchan's, anything else
(``MISS``, ``EXPIRED``, ``REVALIDATED``, ``BYPASS``, none) reached gunicorn.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import re
import ssl
import time
import uuid
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
"""The Host the stack's Knock accepts (its ALLOWED_HOSTS)."""
TLS = ssl.create_default_context()
TLS.check_hostname = False
TLS.verify_mode = ssl.CERT_NONE
PROCESSES = 2
"""Spectator processes of the load generator."""
FETCH_EVERY = 1.0
"""A page fetches its regions at most this often (static/js/live.js's PUSH_FETCH_MS)."""
PAGE_LOADS = os.environ.get("LOADTEST_PAGE_LOADS", "1") != "0"
"""Each spectator loads its page first, as a browser does (``LOADTEST_PAGE_LOADS=0``: the pages
were open before the run, and each spectator starts from its page's regions)."""
PASS_POLL = 2.0
"""A pass page polls this often while it is open and lit (core.live.POLL_MS), give or take a
tenth, as live.js does."""
PROJECTOR_EVERY = 5.0
"""A projector screen reloads its slides this often (static/js/projector.js's default)."""
GRACE = 65.0
"""Seconds after the end a request may still be answered (nginx gives gunicorn 60 s, then 504);
one still unanswered then is counted an error ("unanswered at the end")."""
CACHE_ANSWERS = {"HIT", "STALE", "UPDATING"}
SHOWN = re.compile(rb'data-live-fragment data-live-version="([0-9]+)"')
PAGE_VERSION = re.compile(rb'data-live-version="([0-9]+)"')
# Where the live regions' version is: in their first element (templates' data-live-fragment).
REGIONS_HEAD = 2048


# -- HTTP/1.1, just enough ------------------------------------------------------------------------


class Connection:
    """One keep-alive HTTP/1.1 connection to nginx's HTTPS listener (as a phone: TLS)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.reader is None or self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection(
                "127.0.0.1", self.port, ssl=TLS
            )
        return self.reader, self.writer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(
        self,
        method: str,
        path: str,
        headers: dict[str, str],
        body: bytes = b"",
        *,
        first: int | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        """The answer's status, headers and content (unzipped). ``first``: only its first
        ``first`` bytes are unzipped (the whole answer is still read): what a fetch of live
        regions looks at is their version, at the start; unzipping a national open's 230 KB of
        regions whole was most of the generator's CPU, a phone's own work, not the server's."""
        for attempt in (0, 1):
            reader, writer = await self.open()
            # Accept-Encoding as a phone's browser sends it: nginx gzips HTML on the way out.
            head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", "Accept-Encoding: gzip"]
            head += [f"{k}: {v}" for k, v in headers.items()]
            if body or method == "POST":
                head.append(f"Content-Length: {len(body)}")
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
            try:
                status, answer = await read_head(reader)
            except (ConnectionError, asyncio.IncompleteReadError, ValueError):
                self.close()  # a kept connection closed by nginx: once more on a new one
                if attempt:
                    raise
                continue
            content = await read_body(reader, answer)
            if answer.get("content-encoding") == "gzip":
                unzip = zlib.decompressobj(16 + zlib.MAX_WBITS)
                content = unzip.decompress(content, first or 0)
            if answer.get("connection", "").lower() == "close":
                self.close()
            return status, answer, content
        raise ConnectionError("unreachable")


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    raw = await reader.readuntil(b"\r\n\r\n")
    lines = raw.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            name = name.strip().lower()
            value = value.strip()
            headers[name] = f"{headers[name]}\n{value}" if name in headers else value
    return status, headers


async def read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if "chunked" in headers.get("transfer-encoding", ""):
        parts: list[bytes] = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                return b"".join(parts)
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
    return await reader.readexactly(int(headers.get("content-length", "0")))


def cookies_of(headers: dict[str, str]) -> dict[str, str]:
    out = {}
    for line in headers.get("set-cookie", "").split("\n"):
        if "=" in line:
            name, value = line.split(";", 1)[0].split("=", 1)
            out[name.strip()] = value.strip()
    return out


# -- spectators -----------------------------------------------------------------------------------


@dataclass
class Tally:
    """What a generator process saw: requests by who answered them, errors, versions held."""

    answered: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    # the players' passes (private: not in ``answered``, which is the spectators')
    passes: Counter[str] = field(default_factory=Counter)
    # per spectator: [page, subscribed at, [[version, held at], ...]]
    held: list[list[Any]] = field(default_factory=list)
    # How late this process's event loop woke for a 0.1 s timer, every 0.1 s: a generator that
    # cannot keep up notes each spectator's update late by as much (its own delay, not Knock's).
    loop: list[float] = field(default_factory=list)

    def count(self, kind: str, status: int, headers: dict[str, str]) -> str:
        cache = headers.get("x-cache-status", "")
        who = "cache" if cache in CACHE_ANSWERS else "gunicorn"
        self.answered[who] += 1
        self.kinds[f"{kind} {cache or '-'}"] += 1
        if status not in (200, 304):
            self.errors[f"{kind} {status}"] += 1
        return who


async def spectator(port: int, page: str, url: str, tally: Tally, stop: float) -> None:
    """A browser on ``url`` (a match or the event page) following ``page``'s channel."""
    fetches = Connection(port)
    mine: list[Any] = [page, None, []]
    tally.held.append(mine)
    try:
        what = page.split("-", 1)[0]
        base = url.rstrip("/") + "/live/"
        if PAGE_LOADS:
            status, headers, body = await fetches.request("GET", url, {})
            tally.count(f"{what} page", status, headers)
        else:  # a page open before the run: where it stands, from its regions (cached 1 s)
            status, headers, body = await fetches.request("GET", base, {})
            tally.count(f"{what} regions", status, headers)
        found = PAGE_VERSION.search(body)
        shown = int(found[1]) if found else -1
        cookie = "; ".join(f"{k}={v}" for k, v in cookies_of(headers).items())
        common = {"Cookie": cookie} if cookie else {}
        mine[2].append([shown, time.monotonic()])
        stream_reader, stream_writer = await asyncio.open_connection("127.0.0.1", port, ssl=TLS)
        head = f"GET /live/sub/{page} HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n"
        head += "".join(f"{k}: {v}\r\n" for k, v in common.items())
        stream_writer.write((head + "\r\n").encode())
        status, headers = await read_head(stream_reader)
        tally.answered["fan-out"] += 1
        tally.kinds[f"{what} subscription"] += 1
        if status != 200:
            tally.errors[f"subscription {status}"] += 1
            return
        mine[1] = time.monotonic()
        told = asyncio.Event()
        newest = [shown]

        async def listen() -> None:
            chunked = "chunked" in headers.get("transfer-encoding", "")
            buffer = b""
            while True:
                if chunked:
                    size = int((await stream_reader.readuntil(b"\r\n")).split(b";")[0], 16)
                    data = await stream_reader.readexactly(size + 2)
                    buffer += data[:-2]
                else:
                    buffer += await stream_reader.read(4096)
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if line.startswith(b"data:") and line[5:].strip().isdigit():
                        newest[0] = max(newest[0], int(line[5:].strip()))
                        told.set()

        listener = asyncio.create_task(listen())
        last = 0.0
        while time.monotonic() < stop:
            try:
                await asyncio.wait_for(told.wait(), timeout=max(0.1, stop - time.monotonic()))
            except TimeoutError:
                break
            told.clear()
            if listener.done():
                tally.errors["stream closed"] += 1
                break
            if newest[0] <= shown:
                continue
            await asyncio.sleep(max(0.0, last + FETCH_EVERY - time.monotonic()))
            last = time.monotonic()
            version = newest[0]
            status, headers, body = await fetches.request(
                "GET", f"{base}?v={version}", common, first=REGIONS_HEAD
            )
            tally.count(f"{what} regions", status, headers)
            got = SHOWN.search(body, 0, REGIONS_HEAD)
            if got is not None and int(got[1]) > shown:
                shown = int(got[1])
                mine[2].append([shown, time.monotonic()])
            if newest[0] > shown:
                told.set()
        listener.cancel()
        stream_writer.close()
    except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
        tally.errors[f"{type(exc).__name__}"] += 1
    finally:
        fetches.close()


async def projector(port: int, event: int, tally: Tally, stop: float) -> None:
    """A projector screen: its page once, then its slides every PROJECTOR_EVERY seconds."""
    conn = Connection(port)
    try:
        status, headers, _ = await conn.request("GET", f"/events/{event}/projector/", {})
        tally.count("projector page", status, headers)
        cookie = "; ".join(f"{k}={v}" for k, v in cookies_of(headers).items())
        common = {"Cookie": cookie, "Accept": "text/html"} if cookie else {"Accept": "text/html"}
        await asyncio.sleep(random.uniform(0, PROJECTOR_EVERY))
        while time.monotonic() < stop:
            url = f"/events/{event}/projector/slides/"
            status, headers, _ = await conn.request("GET", url, common)
            tally.count("projector slides", status, headers)
            await asyncio.sleep(PROJECTOR_EVERY)
    except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
        tally.errors[f"projector {type(exc).__name__}"] += 1
    finally:
        conn.close()


async def holder(port: int, event: int, secret: str, tally: Tally, stop: float) -> None:
    """A player keeping their pass on screen: its link opened once (the session it sets kept, as
    a browser does), the pass page, then its live regions every PASS_POLL seconds."""
    conn = Connection(port)

    def note(what: str, status: int, ok: tuple[int, ...]) -> None:
        tally.passes[f"{what} {status}"] += 1
        if status not in ok:
            tally.errors[f"pass {what} {status}"] += 1

    try:
        status, headers, _ = await conn.request("GET", f"/p/{secret}/", {})
        note("link", status, (302,))
        cookie = "; ".join(f"{k}={v}" for k, v in cookies_of(headers).items())
        if status != 302 or "sessionid" not in cookie:
            return
        common = {"Cookie": cookie}
        status, headers, body = await conn.request("GET", f"/events/{event}/pass/", common)
        note("page", status, (200,))
        # live.js names the version its page shows (the fragment's data-live-version).
        found = PAGE_VERSION.search(body)
        shown = found[1].decode() if found else ""
        while time.monotonic() < stop:
            await asyncio.sleep(PASS_POLL * random.uniform(0.9, 1.1))
            asked = {**common, "If-None-Match": f'"{shown}"'}
            status, headers, body = await conn.request(
                "GET", f"/events/{event}/pass/live/", asked, first=REGIONS_HEAD
            )
            note("poll", status, (200, 304))
            got = SHOWN.search(body, 0, REGIONS_HEAD) if status == 200 else None
            if got is not None:
                shown = got[1].decode()
    except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
        tally.errors[f"pass {type(exc).__name__}"] += 1
    finally:
        conn.close()


def audience(
    setup: dict[str, Any], spectators: int, per_table: int, passes: int = 0
) -> list[tuple[str, Any]]:
    """Who watches what: ``per_table`` spectators on each table's page, a projector screen for
    every 100 spectators, the rest on the event page; then ``passes`` players on their pass."""
    out: list[tuple[str, Any]] = []
    for match in setup["matches"]:
        out += [("match", match["id"])] * per_table
    screens = max(1, spectators // 100)
    out += [("projector", setup["event"])] * screens
    out += [("event", setup["event"])] * max(0, spectators - len(out))
    return out[:spectators] + [("pass", secret) for secret in setup.get("passes", [])[:passes]]


async def loop_delay(out: list[float], stop: float, every: float = 0.1) -> None:
    """Until ``stop``: how late the event loop wakes for a timer of ``every`` seconds."""
    while time.monotonic() < stop:
        asked = time.monotonic()
        await asyncio.sleep(every)
        out.append(max(0.0, time.monotonic() - asked - every))


def spectate(
    port: int, watchers: list[tuple[str, Any]], event: int, stop: float, ramp: float, out: str
) -> None:
    """One generator process: its share of the audience, until ``stop`` (monotonic)."""

    async def main() -> Tally:
        tally = Tally()
        tasks = []
        probe = asyncio.create_task(loop_delay(tally.loop, stop))
        for n, (kind, pk) in enumerate(watchers):
            await asyncio.sleep(ramp / max(1, len(watchers)))
            if kind == "projector":
                coro = projector(port, pk, tally, stop)
            elif kind == "pass":
                coro = holder(port, event, pk, tally, stop)
            elif kind == "match":
                coro = spectator(port, f"match-{pk}", f"/matches/{pk}/", tally, stop)
            else:
                coro = spectator(port, f"event-{pk}", f"/events/{pk}/", tally, stop)
            limit = max(1.0, stop + GRACE - time.monotonic())
            tasks.append(asyncio.create_task(asyncio.wait_for(coro, limit), name=f"w{n}"))
        for done in await asyncio.gather(*tasks, return_exceptions=True):
            if isinstance(done, BaseException):
                tally.errors[f"spectator {type(done).__name__} (unanswered at the end)"] += 1
        probe.cancel()
        return tally

    tally = asyncio.run(main())
    Path(out).write_text(
        json.dumps(
            {
                "answered": tally.answered,
                "kinds": tally.kinds,
                "errors": tally.errors,
                "passes": tally.passes,
                "held": tally.held,
                "loop": tally.loop,
            }
        )
    )


# -- tables ---------------------------------------------------------------------------------------


async def table(
    port: int,
    match: dict[str, Any],
    event: int,
    hands: tuple[float, float],
    stop: float,
    log: dict[str, Any],
) -> None:
    """Two players at one table: a hand entered by the one whose turn it is, confirmed by the
    other a few seconds later; after each confirmation the versions are read past the cache."""
    conn = Connection(port)
    number = 1
    try:
        await asyncio.sleep(min(random.uniform(0, hands[1]), stop - time.monotonic()))
        while time.monotonic() < stop:
            enterer = (number - 1) % 2
            keys = match["tokens"]
            body = {
                "hand_number": number,
                "knocker": enterer,
                "outcome": "knock",
                "knocker_deadwood": random.randint(1, 10),
                "defender_deadwood": random.randint(11, 40),
            }
            head = {
                "X-Match-Key": keys[enterer],
                "Idempotency-Key": uuid.uuid4().hex,
                "Content-Type": "application/json",
            }
            started = time.monotonic()
            status, _, content = await conn.request(
                "POST", f"/api/matches/{match['id']}/hands/", head, json.dumps(body).encode()
            )
            log["enter"].append(time.monotonic() - started)
            if status != 201:
                log["errors"][f"enter {status}"] += 1
                await asyncio.sleep(max(0.0, min(random.uniform(*hands), stop - time.monotonic())))
                continue
            sid = json.loads(content)["id"]
            await asyncio.sleep(random.uniform(2, 5))  # the other player reviews it
            head = {
                "X-Match-Key": keys[1 - enterer],
                "Idempotency-Key": uuid.uuid4().hex,
                "Content-Type": "application/json",
            }
            started = time.monotonic()
            status, _, _ = await conn.request("POST", f"/api/hands/{sid}/confirm/", head, b"{}")
            at = time.monotonic()
            log["confirm"].append(at - started)
            if status != 200:
                log["errors"][f"confirm {status}"] += 1
            else:
                number += 1
                private = {"X-Match-Key": keys[0]}
                _, _, m = await conn.request("GET", f"/api/matches/{match['id']}/version/", private)
                _, _, e = await conn.request("GET", f"/api/events/{event}/version/", private)
                log["marks"].append([f"match-{match['id']}", json.loads(m)["version"], at])
                log["marks"].append([f"event-{event}", json.loads(e)["version"], at])
            wait = random.uniform(*hands) - (time.monotonic() - started)
            await asyncio.sleep(max(0.0, min(wait, stop - time.monotonic())))
    except (OSError, asyncio.IncompleteReadError, ValueError, KeyError) as exc:
        log["errors"][f"table {type(exc).__name__}"] += 1
    finally:
        conn.close()


def play(
    port: int, setup: dict[str, Any], hands: tuple[float, float], stop: float, out: str
) -> None:
    """The tables' process: every table until ``stop``."""
    log: dict[str, Any] = {"enter": [], "confirm": [], "marks": [], "errors": Counter()}

    async def main() -> None:
        limit = max(1.0, stop + GRACE - time.monotonic())
        done = await asyncio.gather(
            *(
                asyncio.wait_for(table(port, m, setup["event"], hands, stop, log), limit)
                for m in setup["matches"]
            ),
            return_exceptions=True,
        )
        for failed in done:
            if isinstance(failed, BaseException):
                log["errors"][f"table {type(failed).__name__} (unanswered at the end)"] += 1

    asyncio.run(main())
    Path(out).write_text(json.dumps(log))


# -- the run --------------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def lags_of(marks: list[list[Any]], held: list[list[Any]], end: float) -> tuple[list[float], int]:
    """Every (confirmation, spectator subscribed before it) pair's lag, and how many never
    arrived (confirmations older than 5 s at the end that a spectator never held)."""
    by_page: dict[str, list[list[Any]]] = {}
    for spectator_held in held:
        by_page.setdefault(spectator_held[0], []).append(spectator_held)
    lags: list[float] = []
    missing = 0
    for page, version, at in marks:
        for _, subscribed, versions in by_page.get(page, []):
            if subscribed is None or subscribed > at:
                continue
            first = next((t for v, t in versions if v >= version), None)
            if first is not None:
                lags.append(max(0.0, first - at))
            elif at < end - 5:
                missing += 1
    return lags, missing


@dataclass
class OpenResult:
    answered: Counter[str]
    kinds: Counter[str]
    errors: Counter[str]
    lags: list[float]
    missing: int
    enter: list[float]
    confirm: list[float]
    confirmations: int
    spectator_seconds: float
    loop: list[float] = field(default_factory=list)
    passes: Counter[str] = field(default_factory=Counter)
    # the lags of the confirmations made once the audience was in (after the ramp's page loads)
    settled: list[float] = field(default_factory=list)


def run_open(
    port: int,
    setup: dict[str, Any],
    *,
    spectators: int,
    per_table: int,
    hands: tuple[float, float],
    seconds: float,
    ramp: float,
    workdir: Path,
    passes: int = 0,
) -> OpenResult:
    """Run the audience (and ``passes`` players on their pass) and the tables against nginx's
    listener on ``port``: the audience comes in over ``ramp`` seconds, then everyone stays
    ``seconds`` more."""
    watchers = audience(setup, spectators, per_table, passes)
    random.shuffle(watchers)
    stop = time.monotonic() + ramp + seconds
    context = multiprocessing.get_context("fork")
    procs = []
    outs = []
    for part in range(PROCESSES):
        out = str(workdir / f"spectators-{part}.json")
        outs.append(out)
        share = watchers[part::PROCESSES]
        procs.append(
            context.Process(target=spectate, args=(port, share, setup["event"], stop, ramp, out))
        )
    tables_out = str(workdir / "tables.json")
    procs.append(context.Process(target=play, args=(port, setup, hands, stop, tables_out)))
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join()
    answered: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    held_passes: Counter[str] = Counter()
    held: list[list[Any]] = []
    loop: list[float] = []
    for out in outs:
        data = json.loads(Path(out).read_text())
        loop += data.get("loop", [])
        answered.update(data["answered"])
        kinds.update(data["kinds"])
        errors.update(data["errors"])
        held_passes.update(data["passes"])
        held += data["held"]
    log = json.loads(Path(tables_out).read_text())
    errors.update(log["errors"])
    lags, missing = lags_of(log["marks"], held, stop)
    settled, _ = lags_of([m for m in log["marks"] if m[2] >= stop - seconds], held, stop)
    watching = sum(stop - s for _, s, _ in held if s is not None)
    return OpenResult(
        answered=answered,
        kinds=kinds,
        errors=errors,
        lags=lags,
        missing=missing,
        enter=log["enter"],
        confirm=log["confirm"],
        confirmations=len(log["marks"]) // 2,
        spectator_seconds=watching,
        loop=loop,
        passes=held_passes,
        settled=settled,
    )


# -- through the reference stack (stack/, ``make stack``) -----------------------------------------


class StackCpu:
    """CPU seconds of each kind of process under some roots (Linux ``/proc``), at two moments."""

    KINDS = (
        ("nginx", "nginx"),
        ("postgres", "postgres"),
        ("redis", "redis"),
        ("gunicorn", "gunicorn"),
        (" beat", "beat"),
        (" worker", "workers"),
        ("loadtest", "load generator"),
    )

    def __init__(self, roots: list[int]) -> None:
        self.roots = roots
        self.tick = float(os.sysconf("SC_CLK_TCK"))

    def kind(self, cmd: str) -> str:
        return next((kind for mark, kind in self.KINDS if mark in cmd), "other")

    def sample(self) -> dict[str, float]:
        children: dict[int, list[int]] = {}
        found: dict[int, tuple[str, float]] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            fields = stat[stat.rfind(")") + 2 :].split()
            children.setdefault(int(fields[1]), []).append(int(entry.name))
            # utime + stime + the children's that were waited for (cutime + cstime)
            used = sum(int(x) for x in fields[11:15]) / self.tick
            found[int(entry.name)] = (cmd, used)
        out: dict[str, float] = {}
        todo, seen = list(self.roots), set()
        while todo:
            pid = todo.pop()
            if pid in seen:
                continue
            seen.add(pid)
            if pid in found:
                kind = self.kind(found[pid][0])
                out[kind] = out.get(kind, 0.0) + found[pid][1]
            todo.extend(children.get(pid, []))
        return out

    @staticmethod
    def machine() -> float:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
        busy = [int(x) for x in fields[:8]]
        return (sum(busy) - busy[3] - busy[4]) / float(os.sysconf("SC_CLK_TCK"))


def by_page(kinds: Counter[str]) -> list[tuple[str, int, float, int, float]]:
    """Per page (match, event, projector): requests, the share that reached gunicorn, and the
    same two without the page's first load."""
    out = []
    for page in ("match", "event", "projector"):
        mine = {k: v for k, v in kinds.items() if k.startswith(page)}
        sent = sum(mine.values())
        reached = sum(
            v
            for k, v in mine.items()
            if "subscription" not in k and k.rsplit(" ", 1)[-1] not in CACHE_ANSWERS
        )
        loads = sum(v for k, v in mine.items() if f"{page} page" in k)
        loads_reached = sum(
            v
            for k, v in mine.items()
            if f"{page} page" in k and k.rsplit(" ", 1)[-1] not in CACHE_ANSWERS
        )
        if sent:
            after = (reached - loads_reached) / max(1, sent - loads)
            out.append((page, sent, reached / sent, sent - loads, after))
    return out


def settled_line(lags: list[float]) -> str:
    """The lag of the confirmations made once every spectator was in: the run without the
    ramp's burst of page loads (the target is judged on the whole run, above)."""
    return (
        f"  of which once the audience was in ({len(lags)}): p50 {pct(lags, 0.5):.2f} s, "
        f"p95 {pct(lags, 0.95):.2f} s, p99 {pct(lags, 0.99):.2f} s, "
        f"max {max(lags, default=float('nan')):.2f} s; later than 3 s: "
        f"{sum(1 for v in lags if v > 3)}"
    )


def passes_line(passes: Counter[str]) -> str:
    """The players' passes: links opened, polls, and how many polls drew the page again."""
    if not passes:
        return "  players' passes: none open"
    polls = sum(v for k, v in passes.items() if k.startswith("poll "))
    drawn = passes["poll 200"]
    return (
        f"  players' passes (private, every request to gunicorn): {passes['link 302']} links "
        f"opened, {polls} polls, {passes['poll 304']} unchanged (304), {drawn} drawn "
        f"({100 * drawn / max(1, polls):.1f} %)"
    )


def open_report(
    result: OpenResult, cpu: dict[str, float], elapsed: float, load: str, title: str
) -> list[str]:
    """The lines ``make loadtest LOADTEST_PACE=open`` prints."""
    total = sum(result.answered.values())
    without = result.answered["cache"] + result.answered["fan-out"]
    lags = result.lags
    minutes = result.spectator_seconds / 60
    hands = max(1, result.confirmations)
    server = ("gunicorn", "nginx", "postgres", "redis", "workers", "beat")
    lines = [
        f"loadtest: {title}",
        f"  enter hand p50/p95/p99: {pct(result.enter, 0.5):.2f} / {pct(result.enter, 0.95):.2f} / "
        f"{pct(result.enter, 0.99):.2f} s ({len(result.enter)}); confirm: "
        f"{pct(result.confirm, 0.5):.2f} / {pct(result.confirm, 0.95):.2f} / "
        f"{pct(result.confirm, 0.99):.2f} s ({result.confirmations} confirmed)",
        f"  spectators' requests: {total}; answered without gunicorn: {without} "
        f"({100 * without / max(1, total):.1f} %: cache {result.answered['cache']}, "
        f"fan-out {result.answered['fan-out']}); reached gunicorn {result.answered['gunicorn']}",
        "  without gunicorn, by page: "
        + "; ".join(
            f"{page} {100 * (1 - reached):.1f} % of {sent}"
            f" ({100 * (1 - reached_after):.1f} % of {sent_after} after the page loads)"
            for page, sent, reached, sent_after, reached_after in by_page(result.kinds)
        ),
        "  by kind and X-Cache-Status: "
        + ", ".join(f"{k} {v}" for k, v in sorted(result.kinds.items())),
        f"  update lag ({len(lags)} spectator-updates): p50 {pct(lags, 0.5):.2f} s, "
        f"p95 {pct(lags, 0.95):.2f} s, p99 {pct(lags, 0.99):.2f} s, "
        f"max {max(lags, default=float('nan')):.2f} s; later than 3 s: "
        f"{sum(1 for v in lags if v > 3)}; never arrived: {result.missing}",
        settled_line(result.settled),
        passes_line(result.passes),
        f"  the generator's own delay (its event loop late for a 0.1 s timer): p50 "
        f"{pct(result.loop, 0.5):.3f} s, p99 {pct(result.loop, 0.99):.3f} s, "
        f"max {max(result.loop, default=float('nan')):.3f} s",
        f"  errors: {sum(result.errors.values())}"
        + (f" ({dict(result.errors)})" if result.errors else ""),
        f"  CPU seconds in {elapsed:.0f} s ({load}): "
        + ", ".join(f"{k} {v:.1f}" for k, v in sorted(cpu.items())),
        f"  server CPU ms per spectator-minute ({minutes:.0f}) / per hand ({hands}): "
        + ", ".join(
            f"{k} {1000 * cpu.get(k, 0) / max(minutes, 1e-9):.1f} / "
            f"{1000 * cpu.get(k, 0) / hands:.0f}"
            for k in server
        )
        + f"; all {1000 * sum(cpu.get(k, 0) for k in server) / max(minutes, 1e-9):.1f} / "
        f"{1000 * sum(cpu.get(k, 0) for k in server) / hands:.0f}",
    ]
    return lines


def open_main(environ: dict[str, str], *, hands: tuple[float, float], seconds: int) -> int:
    """``make loadtest LOADTEST_PACE=open``: the reference stack, its tables and its audience."""
    import subprocess
    import sys

    from stack.launch import stack_start

    tables = int(environ.get("LOADTEST_TABLES", "250"))
    spectators = int(environ.get("LOADTEST_SPECTATORS", "2500"))
    per_table = int(environ.get("LOADTEST_PER_TABLE", "4"))
    ramp = float(environ.get("LOADTEST_RAMP", "30"))
    passes = int(environ.get("LOADTEST_PASSES", "0"))
    kind = environ.get("LOADTEST_EVENT", "club")
    if kind not in ("swiss", "club"):
        raise SystemExit(f"LOADTEST_EVENT={kind!r}: expected swiss or club")
    workers = int(environ.get("LOADTEST_WEB_WORKERS", "0"))
    running = stack_start(workers=workers, demo=False, connections=4 * spectators + 1024)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "loadtest.setup", str(tables)]
            + (["--swiss"] if kind == "swiss" else []),
            cwd=Path(__file__).resolve().parent.parent,
            env=running.env,
            capture_output=True,
            text=True,
        )
        if done.returncode:
            raise SystemExit(f"loadtest.setup failed:\n{done.stdout}\n{done.stderr}")
        setup = json.loads(done.stdout.strip().splitlines()[-1])
        workdir = running.workdir
        cpu = StackCpu([*running.pids(), os.getpid()])
        before, busy = cpu.sample(), cpu.machine()
        started = time.monotonic()
        load = os.getloadavg()
        result = run_open(
            running.nginx.https,
            setup,
            spectators=spectators,
            per_table=per_table,
            hands=hands,
            seconds=seconds,
            ramp=ramp,
            workdir=workdir,
            passes=passes,
        )
        elapsed = time.monotonic() - started
        after = cpu.sample()
        used = {k: after.get(k, 0.0) - before.get(k, 0.0) for k in after}
        used["machine busy"] = cpu.machine() - busy
        load_end = os.getloadavg()
    finally:
        running.stop()
    title = (
        f"open pace, reference stack (nginx, gunicorn x{running.workers}, PostgreSQL, Redis, "
        f"worker, beat), {tables} tables, {spectators} spectators ({per_table} a table, the rest "
        f"on the event page and projectors), {passes} players on their pass, "
        + ("round 1 of a Swiss" if kind == "swiss" else "a club night")
        + f", {ramp:.0f} s ramp + {seconds} s, a hand every "
        f"{hands[0]:g}-{hands[1]:g} s a table; "
        + ("each spectator loads its page" if PAGE_LOADS else "pages open before the run")
    )
    machine_load = f"load average {load[0]:.1f} before, {load_end[0]:.1f} after"
    for line in open_report(result, used, elapsed, machine_load, title):
        print(line)
    lags = result.lags
    met = (
        not result.errors
        and pct(lags, 0.99) <= 3.0
        and max(lags, default=0.0) <= 5.0
        and not result.missing
        and (result.answered["cache"] + result.answered["fan-out"])
        >= 0.95 * sum(result.answered.values())
    )
    print(
        f"loadtest: open target (0 errors, p99 <= 3 s, max <= 5 s, >= 95 % without gunicorn): "
        f"{'met' if met else 'not met'}; work files in {running.workdir}"
    )
    return 1 if result.errors else 0
