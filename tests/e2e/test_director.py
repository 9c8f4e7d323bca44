"""A new director on a phone: club, players, a Swiss event from a preset, check-in, round 1."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from engine.rules import find_rules
from tests.clubs.factories import UserFactory
from tests.e2e.steps import sign_in, start_club_with_players
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ahn", "Baek", "Choi", "Do", "Eun", "Fay", "Gil", "Han"]
SHOTS = Path(os.environ.get("KNOCK_VAR_DIR", "var")) / "screenshots"


def test_a_new_director_runs_a_swiss_from_scratch(page, live_server):
    UserFactory(username="mina")

    # Sign in from the clubs page and start a club.
    page.goto("/clubs/")
    page.get_by_role("link", name="Sign in to start a club").click()
    sign_in(page, "mina")
    expect(page.locator("h1")).to_have_text("New club")
    start_club_with_players(page, admin="mina", names=NAMES)  # eight players
    expect(page.locator("#players li")).to_have_count(8)

    # A Swiss event from the "classic" preset with the target raised to 150.
    page.get_by_role("link", name="New event").click()
    expect(page.locator("h1")).to_have_text("New event")
    page.get_by_label("Name", exact=True).fill("Spring Swiss")
    page.get_by_label("Kind").select_option("swiss")
    # htmx swaps the preset's values in: classic's gin bonus is 20.
    expect(page.get_by_role("button", name="Load preset values")).to_be_hidden()
    page.get_by_label("Rule set").select_option("classic")
    expect(page.locator("#id_r_gin_bonus")).to_have_value("20")
    expect(page.locator("#id_r_target")).to_have_value("100")
    page.locator("#id_r_target").fill("150")
    page.locator("#id_rounds_planned").fill("3")
    page.get_by_label("Buchholz", exact=True).check()
    page.get_by_label("Game points", exact=True).check()
    expect(page.locator("#id_tbo_buchholz")).to_have_value("1")
    expect(page.locator("#id_tbo_game_points")).to_have_value("2")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "event-create-phone.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the form is {width}px wide on a 390px phone"
    page.get_by_role("button", name="Create the event").click()

    expect(page.locator("h1")).to_have_text("Spring Swiss")
    expect(page.locator("#rules-summary")).to_contain_text("Classic · target 150")
    event = Event.objects.get(name="Spring Swiss")
    assert event.rules == find_rules("classic", target=150).to_dict()
    assert event.tiebreaks == ["buchholz", "game_points", "lots"]

    # Register everybody, then check them in.
    for name in NAMES:
        page.locator("#id_reg_player").select_option(label=name)
        page.get_by_label("Checked in", exact=True).uncheck()
        page.get_by_role("button", name="Register", exact=True).click()
        expect(page.locator("#registrations li.registration", has_text=name)).to_be_visible()
    rows = page.locator("#registrations li.registration")
    expect(rows).to_have_count(8)
    for name in NAMES:
        row = page.locator("#registrations li.registration", has_text=name)
        row.get_by_role("button", name="Check in").click()
        expect(
            page.locator("#registrations li.registration", has_text=name).locator(".badge")
        ).to_have_text("checked in")

    # Pair round 1: four tables.
    page.get_by_role("button", name="Pair next round").click()
    expect(page.locator(".notice.ok")).to_have_text("Round 1 is paired.")
    expect(page.locator("#pairings li.pairing")).to_have_count(4)
    expect(page.locator("#rules-summary")).to_contain_text("target 150")
