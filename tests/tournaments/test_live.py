"""Live event pages: the event's version (ETag, 304, growing with results, pairings and
standings) and the live regions that spectators' pages swap in."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import Match
from tests.clubs.factories import UserFactory
from tests.tournaments.factories import swiss_event
from tests.tournaments.helpers import ONE_HAND, director_knock
from tournaments.models import Event
from tournaments.services import round_pair, standings_recompute
from tournaments.views import events as event_views

pytestmark = pytest.mark.django_db


def _version(event_id: int, etag: str | None = None) -> object:
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return APIClient().get(f"/api/events/{event_id}/version/", **headers)


def test_event_version_grows_with_pairing_results_and_standings_and_answers_304():
    event = swiss_event(4, rules=ONE_HAND)
    first = _version(event.pk)
    assert first.status_code == 200
    etag = first["ETag"]
    assert _version(event.pk, etag).status_code == 304
    seen = [first.json()["version"]]
    round_pair(event=event)
    seen.append(_version(event.pk).json()["version"])
    match = Match.objects.filter(event=event, decision="played").first()
    director_knock(match)
    seen.append(_version(event.pk).json()["version"])
    standings_recompute(event=event)
    seen.append(_version(event.pk).json()["version"])
    assert seen == sorted(set(seen)), seen
    assert _version(event.pk, etag).status_code == 200
    assert APIClient().get("/api/events/999999/version/").status_code == 404


def test_spectators_get_the_same_live_regions_as_the_page_and_a_new_result_in_them(
    monkeypatch,
):
    monkeypatch.setattr(event_views, "RENDER_EVERY", 0.0)
    event = swiss_event(4, rules=ONE_HAND)
    round_pair(event=event)
    client = Client()
    page = client.get(f"/events/{event.pk}/").content.decode()
    names = re.compile(r'data-live-region="([a-z-]+)"')
    live_url = f"/events/{event.pk}/live/"
    before = client.get(live_url).content.decode()
    assert sorted(names.findall(page)) == sorted(names.findall(before))
    assert {"pairings", "standings"} <= set(names.findall(before))
    assert "won" not in before
    match = Match.objects.filter(event=event, decision="played").first()
    director_knock(match)
    after = client.get(live_url).content.decode()
    assert after != before
    assert "finished" in after  # the table's badge follows the result
    standings_recompute(event=event)
    assert "Updated " in client.get(live_url).content.decode()  # the standings caught up


def _paired_event_counting_drawings(monkeypatch) -> tuple[Event, list[int]]:
    """A paired Swiss event, and the versions its live regions are drawn for from now on (this
    process's drawings forgotten)."""
    event = swiss_event(4, rules=ONE_HAND)
    round_pair(event=event)
    calls: list[int] = []
    real = event_views._live_context

    def counted(event: object, version: int) -> object:
        calls.append(version)
        return real(event, version)

    monkeypatch.setattr(event_views, "_live_context", counted)
    caches["live"].clear()
    return event, calls


def test_the_live_regions_are_rendered_once_per_version(monkeypatch):
    event, calls = _paired_event_counting_drawings(monkeypatch)
    client = Client()
    for _ in range(3):
        assert client.get(f"/events/{event.pk}/live/").status_code == 200
    assert len(calls) == 1
    director_knock(Match.objects.filter(event=event, decision="played").first())
    monkeypatch.setattr(event_views, "RENDER_EVERY", 0.0)
    client.get(f"/events/{event.pk}/live/")
    assert len(calls) == 2


def test_a_drawing_for_every_spectator_is_of_the_current_version_never_a_throttled_one(
    monkeypatch,
):
    """A process serves what it drew a moment ago to its own visitors (RENDER_EVERY), but when
    core.live draws the spectators' regions for every process, the view draws the current
    version: core.live paces those drawings itself (DRAW_EVERY), and an older drawing would
    leave every spectator served it one poll behind."""
    from core import live

    event, calls = _paired_event_counting_drawings(monkeypatch)
    monkeypatch.setattr(event_views, "RENDER_EVERY", 600.0)
    monkeypatch.setattr(live, "DRAW_EVERY", 0.0)
    url = f"/events/{event.pk}/live/"
    spectator = Client()
    first = spectator.get(url).content
    director_knock(Match.objects.filter(event=event, decision="played").first())
    now = _version(event.pk).json()["version"]
    signed_in = Client()
    signed_in.force_login(UserFactory(username="visitor"))
    throttled = signed_in.get(url).content  # the view's own visitors: what it drew lately
    assert throttled == first
    assert len(calls) == 1
    drawn = spectator.get(url).content  # through core.live: drawn again, current
    assert len(calls) == 2
    assert live.fragment_version(drawn) == now != live.fragment_version(first)
