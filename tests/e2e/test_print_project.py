"""Tournament day in the browser: a director prints a round's slips (a PDF with one page per
table and the Korean font inside), the projector turns its slides and shows a new result by
itself, and a spectator on a phone follows a knockout to its winner, in English and Korean.
The screenshots are the ones docs/directors.md shows."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import expect
from pypdf import PdfReader

from clubs.models import ClubRole
from tests.clubs.factories import ClubFactory, ClubRoleFactory, PlayerFactory
from tests.e2e.steps import sign_in
from tests.tournaments.factories import EventFactory, RegistrationFactory, swiss_event
from tests.tournaments.helpers import open_matches, play, seated
from tournaments.models import Event, Registration
from tournaments.services import round_pair

pytestmark = pytest.mark.django_db(transaction=True)

IMG = Path(settings.BASE_DIR) / "docs" / "img"


def _shot(target: Any, name: str) -> None:
    """A screenshot of a page's viewport or of one element (a locator)."""
    IMG.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(IMG / name))


def test_a_director_prints_the_round_and_the_projector_follows(page, chromium, live_server):
    club = ClubFactory(name="Mapo Gin Club", slug="mapo-gin")
    event = swiss_event(8, club=club, name="Spring Swiss", player_name="Player {}")
    admin = ClubRoleFactory(club=club, role=ClubRole.Role.ADMIN).user
    round_pair(event=event)

    page.goto(f"/accounts/login/?next=/events/{event.pk}/")
    sign_in(page, admin.username)
    expect(page.locator("h1")).to_have_text("Spring Swiss")
    link = page.locator("#print a[data-print='round-a4']")
    expect(link).to_have_text("PDF (A4)")
    response = page.request.get(link.get_attribute("href"))
    assert response.status == 200
    assert response.headers["content-type"] == "application/pdf"
    body = response.body()
    reader = PdfReader(io.BytesIO(body))
    assert len(reader.pages) == 1 + 4  # the table list, then a slip per table
    assert "Seat 1 · Player" in reader.pages[1].extract_text()
    assert re.search(rb"/BaseFont\s*/[A-Z]{6}\+KnockGothicKR", body)
    _shot(page.locator("#print"), "directors-print.png")

    page.get_by_role("button", name="한국어").click()
    korean = page.request.get(f"/events/{event.pk}/rounds/1/print/?paper=letter")
    text = PdfReader(io.BytesIO(korean.body())).pages[1].extract_text()
    assert "1번 좌석" in text
    assert "테이블" in text

    wall = chromium.new_context(viewport={"width": 1280, "height": 720}, base_url=live_server.url)
    screen = wall.new_page()
    screen.goto(f"/events/{event.pk}/projector/?turn=4")
    expect(screen.locator("body")).to_have_attribute("data-showing", "pairings")
    expect(screen.locator(".pj-slide.pj-on")).to_have_count(1)
    assert screen.locator("button, input, select").count() == 0  # nothing to press
    _shot(screen, "directors-projector.png")
    expect(screen.locator("body")).to_have_attribute("data-showing", "standings", timeout=8_000)
    first = open_matches(event.pk)[0]
    finished = screen.locator(".pj-slide[data-slide='pairings'] tr[data-status='finished']")
    expect(finished).to_have_count(0)
    play(first, winner=min(seated(first)))
    # The next refresh brings the result without anyone touching the screen.
    expect(finished).to_have_count(1, timeout=12_000)
    expect(finished).to_contain_text(f"Table {first.table_number}".split()[-1])
    wall.close()


def test_a_spectator_follows_a_knockout_to_its_winner(page, chromium, live_server):
    club = ClubFactory(name="Mapo Gin Club", slug="mapo-gin")
    event = EventFactory(
        club=club,
        name="Winter Cup",
        kind=Event.Kind.SINGLE_ELIMINATION,
        confirmation=Event.Confirmation.NONE,
        status=Event.Status.REGISTRATION,
    )
    names = ["Ann", "Bao", "Cleo", "Dee"]
    for seed, name in enumerate(names, start=1):
        RegistrationFactory(
            event=event,
            player=PlayerFactory(club=club, name=name),
            status=Registration.Status.CHECKED_IN,
            seed=seed,
        )
    round_pair(event=event)

    page.goto(f"/events/{event.pk}/")
    bracket = page.locator("#bracket")
    expect(bracket.locator(".bk-head").first).to_contain_text("Semi-final")
    expect(bracket.locator(".bk-head").first).to_contain_text("round 1 of 2")
    expect(bracket).not_to_contain_text("Winners' bracket")
    for match in open_matches(event.pk):
        play(match, winner=min(seated(match)), margin=40)
    page.reload()
    expect(bracket.locator(".bk-score").first).to_have_text("40")
    # On a phone one round fills the screen: swiping brings the final into view.
    final = bracket.locator(".bk-col").nth(1)
    final.scroll_into_view_if_needed()
    expect(final.locator(".bk-head")).to_contain_text("round 2 of 2")
    box = final.bounding_box()
    assert box is not None
    assert abs(box["x"]) < 40  # snapped to the start of the screen
    (last,) = open_matches(event.pk)
    play(last, winner=min(seated(last)), margin=25)
    page.reload()
    expect(page.locator(".bracket-champion")).to_contain_text("Champion: Ann")
    page.locator("#bracket").scroll_into_view_if_needed()
    _shot(page, "spectators-bracket.png")

    page.get_by_role("button", name="한국어").click()
    expect(bracket.locator(".bk-head").first).to_contain_text("준결승")
    expect(bracket.locator(".bk-head").nth(1)).to_contain_text("결승")
    expect(bracket.locator(".bk-head").nth(1)).to_contain_text("2라운드 중 2")
    _shot(page, "spectators-bracket-ko.png")
