"""The push and the spectators' cache behind the real nginx (deploy/nginx/knock.conf, with
Debian's nchan module) in front of `manage.py serve` on the embedded default, as docs/live.md
says: 20 spectators subscribe to a table, a result is confirmed, every one of them is told its
new version within 3 s, and their fetches of that version's regions reach Knock once, the rest
answered by nginx's cache (X-Cache-Status: HIT).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support import free_port
from tests.venue.test_behind_nginx import Phone, knock_behind_nginx

pytestmark = [
    pytest.mark.venue,
    pytest.mark.filterwarnings("ignore::urllib3.exceptions.InsecureRequestWarning"),
]

NCHAN = Path("/usr/lib/nginx/modules/ngx_nchan_module.so")
SPECTATORS = 20


@dataclass
class Subscriber:
    """A spectator's EventSource: the versions it is told, with when."""

    phone: Phone
    url: str
    told: list[tuple[float, str]] = field(default_factory=list)
    open: threading.Event = field(default_factory=threading.Event)

    def listen(self, stop: threading.Event) -> None:
        with self.phone.session.get(
            self.phone.base + self.url,
            headers={"Accept": "text/event-stream"},
            stream=True,
            timeout=(10, 30),
            verify=False,
        ) as stream:
            assert stream.status_code == 200, stream.status_code
            assert stream.headers["Content-Type"].startswith("text/event-stream")
            self.open.set()
            # chunk_size=1: each line as it comes (a larger chunk waits for that many bytes).
            for line in stream.iter_lines(chunk_size=1, decode_unicode=True):
                if line and line.startswith("data:"):
                    self.told.append((time.monotonic(), line[5:].strip()))
                if stop.is_set():
                    return


@pytest.fixture
def pushed_venue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if not NCHAN.exists():
        pytest.fail("the push needs nchan: apt-get install libnginx-mod-nchan (.ci/run does)")
    publish = free_port()
    monkeypatch.setenv("KNOCK_LIVE_PUBLISH_URL", f"http://127.0.0.1:{publish}/live/pub/")
    with knock_behind_nginx(tmp_path, publish_port=publish) as (base, _nginx):
        yield base


def _table(director: Phone) -> tuple[int, list[str]]:
    """The demo director signs in and makes a club night with one table, as docs/api.md makes
    it: (match id, the seats' keys)."""
    token = director.token("director", "knock-demo")
    assert token.status_code in (200, 201), token.text
    auth = {"Authorization": f"Token {token.json()['token']}"}
    club = director.post("/api/clubs/", json={"name": "Push Gin"}, headers=auth).json()["id"]
    made = director.post(
        f"/api/clubs/{club}/players/bulk/", json={"names": ["Alice", "Bob"]}, headers=auth
    ).json()
    players = [p["id"] for p in made["created"]]
    event = director.post(
        "/api/events/",
        json={"club": club, "name": "Push night", "kind": "club_night", "rules": "standard"},
        headers=auth,
    ).json()["id"]
    director.post(
        f"/api/events/{event}/registrations/bulk/",
        json={"players": players, "checked_in": True},
        headers=auth,
    )
    match = director.post(
        "/api/matches/", json={"event": event, "players": players, "table_number": 1}, headers=auth
    ).json()
    keys = [link.rsplit("#", 1)[1] for _, link in sorted(match["links"]["seats"].items())]
    return int(match["id"]), keys


def _a_hand_confirmed(director: Phone, match: int, alice: str, bob: str) -> tuple[float, int]:
    """Alice enters a knock, Bob confirms it: (when it was confirmed, the table's version then,
    read with a seat key, which goes past the cache)."""
    hand = director.post(
        f"/api/matches/{match}/hands/",
        json={"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25},
        headers={"X-Match-Key": alice},
    )
    assert hand.status_code == 201, hand.text
    confirmed = director.post(
        f"/api/hands/{hand.json()['id']}/confirm/", json={}, headers={"X-Match-Key": bob}
    )
    assert confirmed.status_code == 200, confirmed.text
    at = time.monotonic()
    version = director.get(f"/api/matches/{match}/version/", headers={"X-Match-Key": bob})
    assert version.headers["X-Cache-Status"] == "BYPASS"
    return at, int(version.json()["version"])


def test_twenty_spectators_are_told_a_result_and_fetch_it_from_the_cache(
    pushed_venue: str,
) -> None:
    base = pushed_venue
    director = Phone(base, "127.0.0.10")
    match, (alice, bob) = _table(director)

    # A spectator's page carries its subscription.
    page = Phone(base, "127.0.0.20").get(f"/matches/{match}/")
    assert f'data-live-subscribe-url="/live/sub/match-{match}"' in page.text

    phones = [Phone(base, f"127.0.1.{i + 1}") for i in range(SPECTATORS)]
    subscribers = [Subscriber(phone, f"/live/sub/match-{match}") for phone in phones]
    stop = threading.Event()
    threads = [threading.Thread(target=s.listen, args=(stop,), daemon=True) for s in subscribers]
    for thread in threads:
        thread.start()
    for subscriber in subscribers:
        assert subscriber.open.wait(15), "a subscription was not opened"

    # Alice enters a hand, Bob confirms it: the confirmation is told to every spectator.
    at, version = _a_hand_confirmed(director, match, alice, bob)
    now = str(version)

    deadline = at + 3.0
    while time.monotonic() < deadline and not all(
        any(v == now for _, v in s.told) for s in subscribers
    ):
        time.sleep(0.05)
    lags = [min((t - at for t, v in s.told if v == now), default=float("inf")) for s in subscribers]
    stop.set()
    assert max(lags) <= 3.0, lags

    # Each spectator fetches the regions of that version, at once: Knock draws them once.
    def fetch(phone: Phone) -> tuple[int, str, str]:
        got = phone.get(f"/matches/{match}/live/?v={now}")
        return got.status_code, got.headers.get("X-Cache-Status", ""), got.text

    with ThreadPoolExecutor(SPECTATORS) as pool:
        answers = list(pool.map(fetch, phones))
    assert {status for status, _, _ in answers} == {200}
    statuses = sorted(cache for _, cache, _ in answers)
    assert statuses.count("HIT") == SPECTATORS - 1, statuses
    assert statuses.count("MISS") == 1, statuses
    assert all(f'data-live-version="{now}"' in text for _, _, text in answers)
    # ... and a player (a seat key) is never answered from the cache.
    player = phones[0].get(f"/matches/{match}/live/?v={now}", headers={"X-Match-Key": alice})
    assert player.headers["X-Cache-Status"] == "BYPASS"
    assert "private" in player.headers["Cache-Control"]
    # A poll whose version is current is answered 304 by nginx alone.
    polled = phones[1].get(f"/matches/{match}/live/", headers={"If-None-Match": f'"{now}"'})
    assert polled.status_code == 304
    assert polled.headers["X-Cache-Status"] in ("HIT", "MISS", "REVALIDATED", "EXPIRED")


LIVE_ROOT = re.compile(r'<div id="live" hidden data-live data-live-version="([0-9]+)"')


def test_a_table_page_kept_by_the_cache_is_brought_up_to_date_when_it_opens(
    pushed_venue: str,
) -> None:
    """A public page that follows its version is kept a minute (core.live.LIVE_PAGE_SECONDS): a
    spectator who opens a copy drawn before the last result is told the current version by the
    push at once, and fetches that version's regions: the result is on the phone within 3 s."""
    base = pushed_venue
    director = Phone(base, "127.0.0.10")
    match, (alice, bob) = _table(director)

    first = Phone(base, "127.0.1.1").get(f"/matches/{match}/")
    assert first.status_code == 200
    assert "s-maxage=60" in first.headers["Cache-Control"], first.headers["Cache-Control"]
    found = LIVE_ROOT.search(first.text)
    assert found, first.text[:500]
    drawn = int(found[1])

    _, current = _a_hand_confirmed(director, match, alice, bob)
    assert current > drawn

    # The next spectator is answered from the cache: the page as it was drawn.
    phone = Phone(base, "127.0.1.2")
    later = phone.get(f"/matches/{match}/")
    assert later.headers["X-Cache-Status"] == "HIT", later.headers
    found = LIVE_ROOT.search(later.text)
    assert found
    assert int(found[1]) == drawn
    assert f'data-live-subscribe-url="/live/sub/match-{match}"' in later.text

    # Open, it subscribes, as live.js does: the first version it is told is the current one.
    subscriber = Subscriber(phone, f"/live/sub/match-{match}")
    opened = time.monotonic()
    stop = threading.Event()
    threading.Thread(target=subscriber.listen, args=(stop,), daemon=True).start()
    while time.monotonic() < opened + 3.0 and not subscriber.told:
        time.sleep(0.02)
    stop.set()
    assert subscriber.told, "not told a version within 3 s of opening"
    assert int(subscriber.told[0][1]) == current, subscriber.told
    regions = phone.get(f"/matches/{match}/live/?v={current}")
    assert regions.status_code == 200
    assert f'data-live-version="{current}"' in regions.text
    assert time.monotonic() - opened <= 3.0
