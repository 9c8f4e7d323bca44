"""The open's load generator (loadtest.open): who watches what, how lags and the share answered
without gunicorn are counted, and the little HTTP it speaks."""

from __future__ import annotations

import asyncio
from collections import Counter

from loadtest.open import audience, by_page, cookies_of, lags_of, passes_line, read_body


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
