"""Browser steps shared by the e2e tests."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from clubs.models import Club, ClubRole
from tests.factories import PASSWORD


def sign_in(page: Any, username: str) -> None:
    """Fill in and send the sign-in form (already open) as a ``UserFactory`` user."""
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()


def start_club_with_players(page: Any, *, admin: str, names: list[str]) -> Club:
    """On the "New club" page: create "Mapo Gin Club", check ``admin`` became its admin, then
    paste ``names`` on the players page that follows."""
    page.get_by_label("Name", exact=True).fill("Mapo Gin Club")
    page.get_by_role("button", name="Create the club").click()
    club = Club.objects.get(name="Mapo Gin Club")
    assert ClubRole.objects.filter(club=club, user__username=admin, role="admin").exists()
    expect(page.locator("h1")).to_have_text("Players")
    page.get_by_label("Players, one name per line").fill("\n".join(names))
    page.get_by_role("button", name="Add these players").click()
    expect(page.locator(".notice.ok")).to_have_text(f"{len(names)} players added.")
    return club
