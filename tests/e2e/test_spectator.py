"""A spectator on a finished Swiss, on a phone, in English and Korean: the winner and podium
first, then the standings with a legend for every column, and round 1 one tap away.

The screenshots are the ones docs/spectators.md shows; the last test checks that it shows
exactly these.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from engine.rules import find_rules
from scoring.models import Match
from scoring.permissions import Actor
from scoring.services import entry_from_dict, hand_submit
from tests.clubs.factories import ClubFactory, UserFactory
from tests.tournaments.factories import swiss_event
from tournaments.models import Event, Standing
from tournaments.services import event_finish, round_pair, standings_recompute

pytestmark = pytest.mark.django_db(transaction=True)

DOCS = Path(settings.BASE_DIR) / "docs"
IMG = DOCS / "img"
SHOTS = ["spectators-podium.png", "spectators-podium-ko.png", "spectators-round-ko.png"]
NAMES = ["Alice", "Bora", "Chen", "Dana", "Eun-ji", "Farid"]


def _finished_swiss() -> Event:
    club = ClubFactory(name="Mapo Gin Club", slug="mapo-gin")  # stable names: stable images
    event = swiss_event(
        6, club=club, name="Spring Swiss", rules=find_rules("standard", target=None).to_dict()
    )
    for registration, name in zip(event.registrations.order_by("pk"), NAMES, strict=True):
        registration.player.name = name
        registration.player.save(update_fields=["name"])
    director = UserFactory(username="td")
    event.directors.add(director)
    entry = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 3, "defender_deadwood": 20}
    for _ in range(2):
        rnd = round_pair(event=event)
        for match in Match.objects.filter(round=rnd, decision=Match.Decision.PLAYED):
            hand_submit(match=match, actor=Actor(user=director), entry=entry_from_dict(entry))
    standings_recompute(event=event)
    event_finish(event=event)
    at = timezone.localtime().replace(hour=14, minute=32, second=0, microsecond=0)
    Event.objects.filter(pk=event.pk).update(standings_updated_at=at)
    return event


def _top(page: Any, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return float(box["y"])


def _shot(page: Any, name: str) -> None:
    IMG.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IMG / name), full_page=True)


def test_a_spectator_sees_the_winner_first_in_english_and_korean(chromium, live_server):
    event = _finished_swiss()
    winner = Standing.objects.select_related("player").get(event=event, rank=1).player.name
    for locale, texts in (
        ("en-GB", {"winner": "Winner", "mp": "MP", "round": "Round 1", "fresh": "Updated 14:32"}),
        ("ko-KR", {"winner": "우승", "mp": "승점", "round": "1라운드", "fresh": "오후 2:32 갱신"}),
    ):
        context = chromium.new_context(
            viewport={"width": 390, "height": 844}, base_url=live_server.url, locale=locale
        )
        page = context.new_page()
        page.goto(f"/events/{event.pk}/")
        podium = page.locator("#podium")
        expect(podium.locator(".place-1")).to_contain_text(texts["winner"])
        expect(podium.locator(".place-1")).to_contain_text(winner)
        expect(podium.locator(".place")).to_have_count(3)
        # on a phone: the podium, then the standings, then the rounds' tables
        assert _top(page, "#podium") < _top(page, "#standings-panel") < _top(page, "#pairings")
        assert _top(page, "#standings-panel") < 844  # the standings start on the first screen
        standings = page.locator("#standings")
        expect(standings.locator(".freshness")).to_have_text(texts["fresh"])
        expect(standings.locator("thead abbr").first).to_have_text(texts["mp"])
        expect(standings.locator(".legend-list dt").first).to_have_text(texts["mp"])
        assert (
            standings.locator(".legend-list dt").count() == standings.locator("thead abbr").count()
        )
        if locale == "en-GB":
            _shot(page, "spectators-podium.png")
        else:
            _shot(page, "spectators-podium-ko.png")
        page.locator(".round-nav").get_by_role("link", name=texts["round"], exact=True).click()
        expect(page).to_have_url(re.compile(rf"/events/{event.pk}/rounds/1/$"))
        expect(page.locator("h1")).to_contain_text(texts["round"])
        expect(page.locator("#pairings li.pairing")).to_have_count(3)
        if locale == "ko-KR":
            _shot(page, "spectators-round-ko.png")
        context.close()


def test_the_spectators_guide_shows_exactly_these_screens():
    text = (DOCS / "spectators.md").read_text(encoding="utf-8")
    assert sorted(re.findall(r"\]\(img/([^)]+\.png)\)", text)) == sorted(SHOTS)
    for name in SHOTS:
        assert (IMG / name).stat().st_size > 5_000, name
