"""The open's load generator (loadtest.open): who watches what, how lags and the share answered
without gunicorn are counted, and the little HTTP it speaks."""

from __future__ import annotations

import asyncio
import gzip
from collections import Counter

import pytest

import loadtest.open as generator
from loadtest.open import (
    REGIONS_HEAD,
    SHOWN,
    Connection,
    audience,
    by_page,
    cookies_of,
    lags_of,
    passes_line,
    read_body,
    settled_line,
)


def test_the_audience_is_so_many_a_table_a_projector_a_hundred_and_the_rest_on_the_event():
    setup = {"event": 9, "matches": [{"id": 1}, {"id": 2}]}
    watchers = audience(setup, 300, 4)
    assert watchers.count(("match", 1)) == watchers.count(("match", 2)) == 4
    assert watchers.count(("projector", 9)) == 3
    assert watchers.count(("event", 9)) == 300 - 8 - 3


def test_players_on_their_pass_come_after_the_spectators_so_many_as_asked():
    setup = {"event": 9, "matches": [{"id": 1}], "passes": ["a", "b", "c"]}
    watchers = audience(setup, 10, 2, passes=2)
    assert watchers[:10] == audience(setup, 10, 2)
    assert watchers[10:] == [("pass", "a"), ("pass", "b")]
    assert audience({"event": 9, "matches": []}, 5, 1, passes=3)[5:] == []


def test_the_passes_line_counts_polls_and_the_share_drawn_again():
    line = passes_line(Counter({"link 302": 2, "page 200": 2, "poll 304": 30, "poll 200": 10}))
    assert "2 links opened, 40 polls, 30 unchanged (304), 10 drawn (25.0 %)" in line
    assert passes_line(Counter()) == "  players' passes: none open"


def test_a_lag_counts_from_the_confirmation_to_the_first_version_held_at_or_past_it():
    held = [
        ["match-1", 10.0, [[3, 10.0], [5, 12.5]]],  # subscribed before: lag 2.5
        ["match-1", 11.5, [[4, 11.5]]],  # subscribed after the confirmation: not counted
        ["match-1", 10.0, [[3, 10.0]]],  # never held it: missing
    ]
    lags, missing = lags_of([["match-1", 5, 11.0]], held, end=30.0)
    assert lags == [1.5]
    assert missing == 1


def test_the_share_by_page_counts_the_cache_and_the_fan_out_as_without_gunicorn():
    kinds = Counter(
        {
            "match page MISS": 4,
            "match subscription": 4,
            "match regions MISS": 1,
            "match regions HIT": 3,
        }
    )
    [(page, sent, reached, after, reached_after)] = by_page(kinds)
    assert (page, sent, after) == ("match", 12, 8)
    assert reached == 5 / 12
    assert reached_after == 1 / 8


def test_cookies_and_a_chunked_body_are_read_as_a_browser_would():
    assert cookies_of({"set-cookie": "csrftoken=abc; Path=/\nlang=ko; Path=/"}) == {
        "csrftoken": "abc",
        "lang": "ko",
    }

    async def read() -> bytes:
        reader = asyncio.StreamReader()
        reader.feed_data(b"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
        reader.feed_eof()
        return await read_body(reader, {"transfer-encoding": "chunked"})

    assert asyncio.run(read()) == b"hello world"


def test_a_gzipped_answer_is_unzipped_whole_or_only_its_first_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page is unzipped whole; a fetch of live regions only as far as their version (the
    whole answer still read off the connection, which then serves the next request)."""
    body = b'<div data-live-fragment data-live-version="42">' + b"<li>table</li>" * 20_000
    zipped = gzip.compress(body)

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            try:
                await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError:
                break
            head = f"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: {len(zipped)}"
            writer.write(head.encode() + b"\r\n\r\n" + zipped)
            await writer.drain()
        writer.close()

    async def fetch() -> tuple[bytes, bytes, bytes]:
        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        conn = Connection(server.sockets[0].getsockname()[1])
        _, _, whole = await conn.request("GET", "/events/1/", {})
        _, _, first = await conn.request("GET", "/events/1/live/", {}, first=REGIONS_HEAD)
        _, _, again = await conn.request("GET", "/events/1/", {})
        conn.close()
        server.close()
        return whole, first, again

    monkeypatch.setattr(generator, "TLS", None)  # plain HTTP to this little server
    whole, first, again = asyncio.run(fetch())
    assert whole == body
    assert again == body
    assert first == body[:REGIONS_HEAD]
    shown = SHOWN.search(first, 0, REGIONS_HEAD)
    assert shown is not None
    assert shown[1] == b"42"


def test_the_settled_line_reports_the_lags_after_the_ramp() -> None:
    line = settled_line([0.5, 1.0, 1.5, 3.5])
    assert "once the audience was in (4)" in line
    assert "p50 1.50 s" in line
    assert "max 3.50 s" in line
    assert line.endswith("later than 3 s: 1")
