"""Online entry on a phone: an entrant enters, the next finds the event full and joins the
waiting list, and moves up when the director withdraws the first from the list of entries."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from clubs.models import ClubRole
from entries.models import Entry
from tests.clubs.factories import ClubRoleFactory, UserFactory
from tests.e2e.steps import sign_in
from tests.tournaments.factories import EventFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_entrant_waits_and_moves_up_when_another_withdraws(page: Any, live_server: Any):
    cache.clear()
    event = EventFactory(
        name="Winter Open",
        kind=Event.Kind.SWISS,
        status=Event.Status.REGISTRATION,
        options={"entries_open": True, "entries_cap": 1},
    )
    ClubRoleFactory(club=event.club, role=ClubRole.Role.DIRECTOR, user=UserFactory(username="td"))

    page.goto(f"/events/{event.pk}/")
    page.get_by_role("link", name="Enter this event").click()
    expect(page.locator("h1")).to_have_text("Enter Winter Open")
    page.get_by_label("Your name").fill("Ann Lee")
    page.get_by_role("button", name="Enter").click()
    expect(page.locator(".notice.ok")).to_contain_text("Ann Lee, you are registered.")

    page.goto(f"/events/{event.pk}/enter/")
    expect(page.locator(".notice.warn")).to_contain_text("The event is full")
    page.get_by_label("Your name").fill("Bo Kim")
    page.get_by_label("Email (optional)").fill("bo@example.com")
    page.get_by_role("button", name="Enter").click()
    expect(page.locator(".notice.warn[role=alert]")).to_contain_text("The event is full")
    page.get_by_role("button", name="Join the waiting list").click()
    expect(page.locator(".notice.warn")).to_contain_text("waiting list (number 1)")
    box = page.locator("main").bounding_box()
    assert box is not None
    assert box["width"] <= 390

    page.goto(f"/accounts/login/?next=/events/{event.pk}/entries/")
    sign_in(page, "td")
    expect(page.locator("#entry-list li.entry")).to_have_count(2)
    ann = Entry.objects.get(name="Ann Lee")
    page.locator(f"#entry-{ann.pk}").get_by_role("button", name="Withdraw").click()
    expect(page.locator(".notice.ok")).to_contain_text("Ann Lee: withdrawn.")
    expect(page.locator(f"#entry-{Entry.objects.get(name='Bo Kim').pk} .badge")).to_have_text(
        "accepted"
    )
    page.goto(f"/events/{event.pk}/console/")
    expect(page.locator("#event-log")).to_contain_text("Bo Kim")
