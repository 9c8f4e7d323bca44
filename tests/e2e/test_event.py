"""Spectators and directors at an event, on a phone: live standings and pairing a Swiss round."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from clubs.models import ClubRole
from scoring.models import Match
from scoring.permissions import Actor
from scoring.services import entry_from_dict, hand_submit
from tests.clubs.factories import ClubRoleFactory, UserFactory
from tests.e2e.steps import sign_in
from tests.tournaments.factories import swiss_event
from tournaments.services import round_pair, standings_recompute

pytestmark = pytest.mark.django_db(transaction=True)


def _swiss(n: int = 4) -> Any:
    return swiss_event(n, name="Spring Swiss", player_name="Player {}")


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
        entry=entry_from_dict(
            {"knocker": 0, "outcome": "knock", "knocker_deadwood": 3, "defender_deadwood": 20}
        ),
    )

    page.goto(f"/events/{event.pk}/")
    expect(page.locator("#pairings")).to_contain_text("Table 1")
    freshness = page.locator("#standings .freshness")
    expect(freshness).to_contain_text("Updating…")
    assert page.locator("#standings").get_attribute("data-stale") == "true"

    standings_recompute(event=event)  # what the Celery task does
    expect(freshness).to_contain_text(re.compile(r"Updated \d\d:\d\d"), timeout=15_000)
    assert page.locator("#standings").get_attribute("data-stale") == "false"
    winner = match.seats.get(position=0).player.name
    first = page.locator("#standings tbody tr").first
    expect(first).to_contain_text(winner)
    expect(first.locator("td").nth(2)).to_have_text("1")


def test_director_signs_in_and_pairs_a_swiss_round(page, live_server):
    event = _swiss(6)
    ClubRoleFactory(club=event.club, role=ClubRole.Role.DIRECTOR, user=UserFactory(username="dora"))
    page.goto(f"/events/{event.pk}/")
    page.get_by_role("link", name="Sign in").click()
    sign_in(page, "dora")
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
