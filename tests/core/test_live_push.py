"""core.live's push: a page's new version POSTed once to nchan's publisher after commit.

A stand-in publisher (a small HTTP server in a thread) records what Knock sends: a result stored
through the real services is told to its match's channel after commit with the version the page
would fetch; nothing is told for a write rolled back; a publisher that is down or answers an
error never fails the write (it is logged; the pages fall back to polling); with no
``KNOCK_LIVE_PUBLISH_URL`` nothing is sent and pages carry no subscription.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.test import Client, override_settings

from core.live import PUBLISH_EVERY, PUBLISHED, live_changed, live_subscribe_url, live_tell
from engine.rules import find_rules
from scoring.models import Match
from scoring.permissions import Actor
from scoring.services import entry_from_dict, hand_submit, match_link_token
from tests.clubs.factories import PlayerFactory
from tests.scoring.factories import MatchFactory
from tests.support import free_port
from tests.tournaments.factories import EventFactory
from tournaments.models import Event
from tournaments.selectors.live import event_version

pytestmark = pytest.mark.django_db


class Publisher:
    """nchan's publisher as Knock sees it: records (path, body) of each POST."""

    def __init__(self, status: int = 201) -> None:
        self.posts: list[tuple[str, str]] = []
        posts, answer = self.posts, status

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                posts.append((self.path, self.rfile.read(length).decode()))
                self.send_response(answer)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/live/pub/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(autouse=True)
def _forget_published() -> Iterator[None]:
    PUBLISHED.clear()  # ids are reused between tests: what a test told is not the next one's
    cache.clear()  # ... nor the gates of the channels told at most once a second
    yield
    PUBLISHED.clear()
    cache.clear()


@pytest.fixture
def publisher() -> Iterator[Publisher]:
    pub = Publisher()
    with override_settings(KNOCK_LIVE_PUBLISH_URL=pub.url):
        yield pub
    pub.close()


def _match() -> Match:
    event = EventFactory(rules=find_rules("standard").to_dict())
    players = [PlayerFactory(club=event.club, name=n) for n in ("Cleo", "Dee")]
    match: Match = MatchFactory.create(event=event, players=players)
    return match


def _knock(match: Match) -> None:
    entry = entry_from_dict(
        {"knocker": 1, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}
    )
    token = match_link_token(match=match, position=1)
    hand_submit(match=match, actor=Actor(token=token), entry=entry)


Capture = Callable[..., Any]


def test_a_stored_entry_is_told_to_its_match_channel_after_commit(
    publisher: Publisher, django_capture_on_commit_callbacks: Capture
) -> None:
    match = _match()
    with django_capture_on_commit_callbacks(execute=False) as pending:
        _knock(match)
        assert publisher.posts == []  # nothing before commit
    assert pending
    for callback in pending:
        callback()
    match.refresh_from_db()
    assert (f"/live/pub/match-{match.pk}", str(match.live_seq)) in publisher.posts
    # Told once, though the write may ask more than once: the same version is not told again.
    assert publisher.posts.count((f"/live/pub/match-{match.pk}", str(match.live_seq))) == 1


def _refused_write(match: Match) -> None:
    """A write that moves the version, then is refused: rolled back with its version."""
    with transaction.atomic():
        Match.objects.filter(pk=match.pk).update(live_seq=match.live_seq + 5)
        live_changed(page="match", pk=match.pk)
        raise RuntimeError("refused")


def test_nothing_is_told_for_a_write_rolled_back(
    publisher: Publisher, django_capture_on_commit_callbacks: Capture
) -> None:
    match = _match()
    before = match.live_seq
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        _refused_write(match)
    match.refresh_from_db()
    assert match.live_seq == before
    assert publisher.posts == []
    with django_capture_on_commit_callbacks(execute=True):
        live_changed(page="event", pk=match.event_id)
    assert [path for path, _ in publisher.posts] == [f"/live/pub/event-{match.event_id}"]


@pytest.mark.parametrize("down", ["refused", "error"])
def test_a_publisher_down_or_failing_never_fails_the_write(
    down: str, django_capture_on_commit_callbacks: Capture, caplog: pytest.LogCaptureFixture
) -> None:
    failing = Publisher(status=500) if down == "error" else None
    url = failing.url if failing else f"http://127.0.0.1:{free_port()}/live/pub/"
    match = _match()
    before = match.live_seq
    try:
        with (
            override_settings(KNOCK_LIVE_PUBLISH_URL=url),
            caplog.at_level(logging.WARNING, logger="core.live"),
            django_capture_on_commit_callbacks(execute=True),
        ):
            _knock(match)
    finally:
        if failing:
            failing.close()
    match.refresh_from_db()
    assert match.live_seq > before  # the entry is stored all the same
    assert f"match-{match.pk} not published" in caplog.text
    assert PUBLISHED == {}  # not taken: told again with the next change


def test_without_a_publish_url_nothing_is_sent_and_pages_poll(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    pub = Publisher()
    try:
        match = _match()
        with (
            override_settings(KNOCK_LIVE_PUBLISH_URL=""),
            django_capture_on_commit_callbacks(execute=True) as ran,
        ):
            _knock(match)
        assert pub.posts == []
        assert not any("live_publish" in repr(callback) for callback in ran)
        assert live_subscribe_url(page="match", pk=match.pk) == ""
        page = Client().get(f"/matches/{match.pk}/")
        assert b"data-live-subscribe-url" not in page.content
    finally:
        pub.close()


def test_with_the_push_on_pages_carry_their_subscription(publisher: Publisher) -> None:
    match = _match()
    page = Client().get(f"/matches/{match.pk}/")
    assert f'data-live-subscribe-url="/live/sub/match-{match.pk}"'.encode() in page.content
    event = Client().get(f"/events/{match.event_id}/")
    assert f'data-live-subscribe-url="/live/sub/event-{match.event_id}"'.encode() in event.content


@pytest.mark.django_db(transaction=True)  # the last change is told by a timer's own thread
def test_an_events_changes_are_told_at_most_once_a_second_and_the_last_always(
    publisher: Publisher,
) -> None:
    match = _match()
    time.sleep(2 * PUBLISH_EVERY["event"] + 0.3)  # what making the match told is over
    publisher.posts.clear()
    cache.clear()
    event = match.event_id
    channel = f"/live/pub/event-{event}"
    Event.objects.filter(pk=event).update(results_seq=F("results_seq") + 1)
    live_tell(page="event", pk=event)
    first = time.monotonic()
    assert publisher.posts == [(channel, str(event_version(event_id=event)))]  # at once
    for _ in range(4):  # four more changes within the same second: not told one by one
        Event.objects.filter(pk=event).update(results_seq=F("results_seq") + 1)
        live_tell(page="event", pk=event)
        time.sleep(0.05)
    assert len(publisher.posts) == 1
    final = str(event_version(event_id=event))
    while time.monotonic() < first + 3 and publisher.posts[-1][1] != final:
        time.sleep(0.01)
    told = time.monotonic()
    # ... but together, with the newest version, once the second is over.
    assert publisher.posts == [publisher.posts[0], (channel, final)]
    assert PUBLISH_EVERY["event"] - 0.1 <= told - first <= PUBLISH_EVERY["event"] + 1.0
    # A table's changes are each told at once.
    for _ in range(2):
        Match.objects.filter(pk=match.pk).update(live_seq=F("live_seq") + 1)
        live_tell(page="match", pk=match.pk)
    assert [p for p, _ in publisher.posts].count(f"/live/pub/match-{match.pk}") == 2
