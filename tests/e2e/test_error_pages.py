"""Issue 30, points 1 and 2, on a 390 x 844 phone in English and Korean: a hand typed while the
director reissued the link survives (kept on the phone, said so, sent once with the new link and
never as another seat), and every error page a player can meet has the site's header, language
switch and <main>, in the reader's language, with no axe violation of any impact."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client
from playwright.sync_api import expect

from engine.rules import find_rules
from scoring.models import HandSubmission
from scoring.permissions import Actor
from scoring.services import match_link_token, match_links_reissue
from tests.clubs.factories import PlayerFactory, UserFactory
from tests.e2e.a11y import axe_violations
from tests.scoring.factories import MatchFactory, event_director
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = Path(django_settings.BASE_DIR) / "var" / "screens"

WORDS = {
    "en": {
        "gone": "The link this page was opened with was replaced by a director: hand 1 is kept",
        "waiting": "Waiting for Bob to confirm.",
        "404": "This page does not exist",
        "replaced": "This link is not valid: it was replaced or never existed.",
        "403": "You are signed in as ada, who cannot see this.",
        "429": re.compile(r"wait \d+ minutes"),
        "500": "Something went wrong on our side",
    },
    "ko": {
        "gone": "디렉터가 이 페이지를 연 링크를 새 링크로 바꿨습니다. 1번 핸드는",
        "waiting": "Bob 님의 확인을 기다리는 중입니다.",
        "404": "없는 페이지입니다",
        "replaced": "유효하지 않은 링크입니다. 새 링크로 바뀌었거나 없는 링크입니다.",
        "403": "ada 계정으로 로그인되어 있으며",
        "429": re.compile(r"\d+분"),
        "500": "서버에서 문제가 생겼습니다",
    },
}


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def _match() -> Any:
    event = EventFactory(
        name="Thursday club night", rules=find_rules("standard").to_dict(), confirmation="opponent"
    )
    players = [PlayerFactory(club=event.club, name=n) for n in ("Alice", "Bob")]
    return MatchFactory(event=event, players=players, table_number=3)


def _phone(chromium: Any, live_server: Any, language: str) -> Any:
    context = chromium.new_context(
        viewport={"width": 390, "height": 844},
        base_url=live_server.url,
        has_touch=True,
        is_mobile=True,
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    return context


def _laid_out(page: Any, language: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("header.topbar .brand")).to_have_text("Knock")
    expect(page.locator("header form.lang button[name=language]")).to_have_count(2)
    expect(page.locator("main")).to_have_count(1)
    assert axe_violations(page) == []


def _reissue(match: Any, position: int) -> str:
    director = Actor(user=event_director(match.event))
    match_links_reissue(match=match, actor=director, positions=[position])
    return match_link_token(match=match, position=position)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_hand_typed_when_the_link_is_reissued_is_kept_and_sent_once_with_the_new_link(
    chromium, live_server, language
):
    SCREENS.mkdir(parents=True, exist_ok=True)
    match = _match()
    words = WORDS[language]
    context = _phone(chromium, live_server, language)
    page = context.new_page()
    page.goto(f"/l/{match_link_token(match=match, position=0)}/")
    panel = page.locator("#panel-counts")
    panel.locator("#counts-kd").fill("5")
    panel.locator("#counts-dd").fill("25")
    new_link = _reissue(match, 0)  # the director, on another phone, while Alice types
    # The page's next poll learns that the link was replaced: it says so, stops polling and
    # leaves the form as she typed it.
    expect(page.locator("#live-status [data-live-gone-notice]")).to_be_visible(timeout=10_000)
    expect(panel.locator("#counts-kd")).to_have_value("5")

    panel.locator("button[type=submit]").tap()
    box = page.locator("#offline")
    expect(box).to_be_visible()
    expect(box).to_contain_text(words["gone"])
    expect(box).to_have_attribute("data-offline-state", "gone")
    expect(box).to_be_in_viewport()  # where the player looks, not above the fold
    assert page.url.endswith(f"/matches/{match.pk}/")  # the page stayed, with the message
    assert not HandSubmission.objects.filter(hand__game__match=match).exists()
    assert axe_violations(page) == []
    page.screenshot(path=str(SCREENS / f"link-replaced-{language}.png"))

    if language == "en":
        # The same phone opening the other seat's link never sends Alice's hand as Bob.
        page.goto(f"/l/{match_link_token(match=match, position=1)}/")
        expect(page.locator("#offline")).to_contain_text(words["gone"])
        page.wait_for_timeout(500)
        assert not HandSubmission.objects.filter(hand__game__match=match).exists()

    page.goto(f"/l/{new_link}/")  # Alice's new link: the kept hand goes, once
    expect(page.locator("#pending .waiting")).to_contain_text(words["waiting"])
    expect(page.locator("#offline")).to_be_hidden()
    subs = HandSubmission.objects.filter(hand__game__match=match)
    assert subs.count() == 1
    sub = subs.get()
    assert sub.submitted_by_player.name == "Alice"
    kept = "() => Object.keys(localStorage).filter(k => k.startsWith('knock:'))"
    assert page.evaluate(kept) == []  # nothing left kept or queued
    page.reload()
    expect(page.locator("#pending .waiting")).to_contain_text(words["waiting"])
    assert subs.count() == 1
    context.close()


@pytest.mark.urls("tests.core.error_urls")
@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_error_page_has_the_sites_layout_and_the_readers_language(
    chromium, live_server, language, settings
):
    settings.KNOCK_LINK_FAILURE_LIMIT = 2
    SCREENS.mkdir(parents=True, exist_ok=True)
    words = WORDS[language]
    match = _match()
    old = match_link_token(match=match, position=0)
    _reissue(match, 0)
    context = _phone(chromium, live_server, language)
    page = context.new_page()

    assert page.goto("/no/such/page/").status == 404
    expect(page.locator("main h1")).to_have_text(words["404"])
    _laid_out(page, language)

    page.goto(f"/l/#{old}")  # a replaced link, opened the way a QR code opens it
    expect(page.locator("#link-refused")).to_have_text(words["replaced"])
    _laid_out(page, language)

    # A made-up link (the old style, in the path): the second invalid one from this address...
    assert page.goto(f"/l/{'x' * 32}/").status == 404
    expect(page.locator("#link-refused")).to_have_text(words["replaced"])
    assert page.goto(f"/l/{'y' * 32}/").status == 429  # ... and the third: too many
    expect(page.locator("#link-refused")).to_contain_text(words["429"])
    _laid_out(page, language)

    client = Client()
    client.force_login(UserFactory(username="ada"))
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    assert page.goto(f"/events/{match.event.pk}/import/").status == 403
    expect(page.locator("#signed-in-as")).to_contain_text(words["403"])
    _laid_out(page, language)
    page.screenshot(path=str(SCREENS / f"error-403-{language}.png"))
    page.locator("main form button[type=submit]").tap()  # sign in as someone else
    expect(page.locator("#id_username")).to_be_visible()
    assert "/accounts/login/?next=" in page.url

    assert page.goto("/test-only/boom/").status == 500
    expect(page.locator("main h1")).to_have_text(words["500"])
    _laid_out(page, language)
    page.screenshot(path=str(SCREENS / f"error-500-{language}.png"))
    # The standalone page's language switch works (its CSRF token comes from the cookie).
    other = "en" if language == "ko" else "ko"
    page.locator(f"header form.lang button[value={other}]").tap()
    expect(page.locator("main h1")).to_have_text(WORDS[other]["500"])
    expect(page.locator("html")).to_have_attribute("lang", other)
    context.close()
