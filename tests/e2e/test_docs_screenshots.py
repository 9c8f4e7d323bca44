"""The screenshots in docs/players.md and docs/directors.md, taken here so they never go stale.

Each run walks the two journeys the guides describe on a 390 px phone and writes the images to
docs/img/; the last test checks that the guides show exactly the images taken here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import expect

from clubs.models import ClubRole
from engine.rules import find_rules
from scoring.services import match_link_token
from tests.clubs.factories import ClubFactory, ClubRoleFactory, PlayerFactory
from tests.e2e.steps import sign_in
from tests.scoring.factories import MatchFactory
from tests.tournaments.factories import EventFactory, swiss_event

pytestmark = pytest.mark.django_db(transaction=True)

DOCS = Path(settings.BASE_DIR) / "docs"
IMG = DOCS / "img"
PLAYER_SHOTS = [
    "players-link.png",
    "players-by-cards.png",
    "players-confirm.png",
    "players-sheet.png",
    # taken by tests/e2e/test_player_pass_journey.py
    "players-entry.png",
    "players-pass.png",
    "players-pass-clock.png",
]
DIRECTOR_SHOTS = [
    "directors-players.png",
    "directors-event.png",
    "directors-round.png",
    # taken by tests/e2e/test_print_project.py
    "directors-print.png",
    "directors-projector.png",
    "spectators-bracket.png",
    "spectators-bracket-ko.png",
    "directors-console.png",
    # taken by tests/e2e/test_player_pass_journey.py
    "directors-entries.png",
    "directors-passes.png",
    "directors-clock.png",
]


def _shot(page: Any, name: str) -> None:
    IMG.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IMG / name), full_page=True)


def test_screens_of_a_hand_at_the_table(page, chromium, live_server):
    event = EventFactory(
        club=ClubFactory(name="Mapo Gin Club", slug="mapo-gin"),
        name="Thursday club night",
        rules=find_rules("standard").to_dict(),
        confirmation="opponent",
    )
    alice = PlayerFactory(club=event.club, name="Alice")
    bob = PlayerFactory(club=event.club, name="Bob")
    match = MatchFactory(event=event, players=[alice, bob], table_number=3)

    page.goto(f"/matches/{match.pk}/?k={match_link_token(match=match, position=0)}")
    expect(page.locator("h1")).to_have_text("Table 3")
    _shot(page, "players-link.png")

    page.get_by_role("tab", name="By cards").click()
    panel = page.locator("#panel-cards")
    panel.get_by_label("Alice").check()
    panel.get_by_label("Knocker's cards").fill("AS 2S 3S 5H 6H 7H 9S 9D 9C KC")
    panel.get_by_label("Defender's cards").fill("8H 9H KS KH KD 2C 3C QS JD 5C")
    panel.get_by_role("button", name="Enter hand").click()
    expect(page.locator("#pending .layoffs")).to_contain_text("8H on 5H 6H 7H")
    _shot(page, "players-by-cards.png")

    other = chromium.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url)
    bobs = other.new_page()
    bobs.goto(f"/matches/{match.pk}/?k={match_link_token(match=match, position=1)}")
    expect(bobs.locator("#pending")).to_contain_text("Entered by Alice")
    _shot(bobs, "players-confirm.png")
    bobs.get_by_role("button", name="Confirm").click()
    expect(bobs.locator(".notice.ok")).to_contain_text("Hand 1 confirmed.")
    expect(bobs.locator("#sheet tr.hand[data-hand='1']")).to_contain_text("knock")
    _shot(bobs, "players-sheet.png")
    other.close()


def test_screens_of_a_directors_evening(page, live_server):
    club = ClubFactory(name="Mapo Gin Club", slug="mapo-gin")  # stable names: stable images
    event = swiss_event(8, club=club, name="Spring Swiss", player_name="Player {}")
    admin = ClubRoleFactory(club=event.club, role=ClubRole.Role.ADMIN).user

    page.goto(f"/clubs/{event.club.slug}/players/")
    if page.get_by_label("Username").count():
        sign_in(page, admin.username)
        page.goto(f"/clubs/{event.club.slug}/players/")
    expect(page.locator("h1")).to_have_text("Players")
    _shot(page, "directors-players.png")

    page.goto(f"/events/{event.pk}/")
    expect(page.locator("h1")).to_have_text("Spring Swiss")
    _shot(page, "directors-event.png")
    page.get_by_role("button", name="Pair next round").click()
    expect(page.locator(".notice.ok")).to_have_text("Round 1 is paired.")
    expect(page.locator("#pairings li.pairing")).to_have_count(4)
    _shot(page, "directors-round.png")
    page.get_by_role("link", name="Run the room (console)").click()
    expect(page.locator("#done-count")).to_have_text("0 of 4 tables finished")
    _shot(page, "directors-console.png")


def test_the_guides_show_exactly_the_screens_taken_here():
    for guide, names in (("players.md", PLAYER_SHOTS), ("directors.md", DIRECTOR_SHOTS)):
        text = (DOCS / guide).read_text(encoding="utf-8")
        shown = re.findall(r"\]\(img/([^)]+\.png)\)", text)
        assert sorted(shown) == sorted(names), guide
        for name in names:
            assert (IMG / name).stat().st_size > 5_000, name
