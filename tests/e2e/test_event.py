"""Spectators and directors at an event, on a phone: live standings and pairing a Swiss round."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from engine.rules import find_rules
from scoring.models import Match
from scoring.permissions import Actor
from scoring.services import HandEntry, hand_submit
from tests.factories import (
    ClubRoleFactory,
    EventFactory,
    PlayerFactory,
    RegistrationFactory,
    UserFactory,
)
from tournaments.models import ClubRole, Event, Registration
from tournaments.services import round_pair, standings_recompute

pytestmark = pytest.mark.django_db(transaction=True)


def _swiss(n: int = 4) -> Any:
    event = EventFactory(
        name="Spring Swiss",
        kind=Event.Kind.SWISS,
        rules=find_rules("standard", target=None).to_dict(),
        confirmation="none",
        status=Event.Status.REGISTRATION,
        rounds_planned=3,
    )
    for i in range(n):
        RegistrationFactory(
            event=event,
            player=PlayerFactory(club=event.club, name=f"Player {i + 1}"),
            status=Registration.Status.CHECKED_IN,
        )
    return event


def test_spectator_sees_standings_turn_current_after_the_rebuild(page, live_server, monkeypatch):
    from tournaments.tasks import event_standings_rebuild

    # As if the broker lost the message: only the rebuild below brings the standings up to date.
    monkeypatch.setattr(event_standings_rebuild, "delay", lambda *args, **kwargs: None)
    event = _swiss()
    round_pair(event=event)
    standings_recompute(event=event)
    match = Match.objects.filter(event=event, table_number=1).get()
    director = UserFactory(username="td")
    event.directors.add(director)
    hand_submit(
        match=match,
        actor=Actor(user=director),
        entry=HandEntry.from_dict(
            {"knocker": 0, "outcome": "knock", "knocker_deadwood": 3, "defender_deadwood": 20}
        ),
    )

    page.goto(f"/events/{event.pk}/")
    expect(page.locator("#pairings")).to_contain_text("Table 1")
    freshness = page.locator("#standings .freshness")
    expect(freshness).to_contain_text("Updating — as of result")
    assert page.locator("#standings").get_attribute("data-stale") == "true"

    standings_recompute(event=event)  # what the Celery task does
    expect(freshness).to_contain_text("Current — result", timeout=15_000)
    assert page.locator("#standings").get_attribute("data-stale") == "false"
    winner = match.seats.get(position=0).player.name
    first = page.locator("#standings tbody tr").first
    expect(first).to_contain_text(winner)
    expect(first.locator("td").nth(2)).to_have_text("1")


def test_director_signs_in_and_pairs_a_swiss_round(page, live_server):
    event = _swiss(6)
    user = ClubRoleFactory(
        club=event.club, role=ClubRole.Role.DIRECTOR, user=UserFactory(username="dora")
    ).user
    assert user.username == "dora"
    page.goto(f"/events/{event.pk}/")
    page.get_by_role("link", name="Sign in").click()
    page.get_by_label("Username").fill("dora")
    page.get_by_label("Password").fill("pw-knock-1234")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("h1")).to_have_text("Spring Swiss")
    expect(page.locator("#registrations li.registration")).to_have_count(6)
    page.get_by_role("button", name="Pair next round").click()
    expect(page.locator(".notice.ok")).to_have_text("Round 1 is paired.")
    tables = page.locator("#pairings li.pairing")
    expect(tables).to_have_count(3)
    expect(tables.first).to_contain_text("Table 1")
    expect(page.locator("#pairings h2")).to_contain_text("Round 1")
    box = page.locator("#pairings").bounding_box()
    assert box is not None
    assert box["width"] <= 390
