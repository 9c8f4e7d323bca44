"""A visitor on a phone becomes a director: signs up, starts a club, checks in a club night."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.steps import start_club_with_players
from tournaments.models import Event, Registration

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ahn", "Baek", "Choi", "Do", "Eun", "Fay"]
PASSWORD = "gin-rummy-Knock-77"


def test_a_visitor_signs_up_and_checks_in_a_club_night_with_one_form(page, live_server):
    # Sign up from the home page.
    page.goto("/")
    page.get_by_role("link", name="Create an account").click()
    expect(page.locator("h1")).to_have_text("Create an account")
    page.get_by_label("Username").fill("mina")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create the account").click()

    # Signed in and sent to start a club.
    expect(page.locator("h1")).to_have_text("New club")
    expect(page.locator(".notice.ok")).to_have_text("Welcome, mina. Start your club next.")
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    start_club_with_players(page, admin="mina", names=NAMES)  # six players

    # A club night.
    page.get_by_role("link", name="New event").click()
    page.get_by_label("Name", exact=True).fill("Tuesday Night")
    page.get_by_label("Kind").select_option("club_night")
    page.get_by_role("button", name="Create the event").click()
    expect(page.locator("h1")).to_have_text("Tuesday Night")
    event = Event.objects.get(name="Tuesday Night")

    # Register all six with one form: "Select all" (knock.js) ticks every box.
    checklist = page.locator("#register-players")
    boxes = checklist.locator('input[name="bulk-players"]')
    expect(boxes).to_have_count(6)
    checklist.get_by_label("Select all").check()
    for i in range(6):
        expect(boxes.nth(i)).to_be_checked()
    checklist.get_by_label("Check them in now").uncheck()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the event page is {width}px wide on a 390px phone"
    checklist.get_by_role("button", name="Register the ticked players").click()
    expect(page.locator(".notice.ok")).to_have_text("6 players registered.")
    rows = page.locator("#registrations li.registration")
    expect(rows).to_have_count(6)
    expect(rows.locator(".badge", has_text="registered")).to_have_count(6)
    expect(page.locator("#register-players")).to_have_count(0)  # nobody left to register

    # ...and check them all in with one button.
    page.get_by_role("button", name="Check in all registered").click()
    expect(page.locator(".notice.ok")).to_have_text("6 players checked in.")
    expect(rows.locator(".badge", has_text="checked in")).to_have_count(6)
    expect(page.get_by_role("button", name="Check in all registered")).to_have_count(0)
    statuses = set(Registration.objects.filter(event=event).values_list("status", flat=True))
    assert statuses == {"checked_in"}
    assert Registration.objects.filter(event=event).count() == 6
