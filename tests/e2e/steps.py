"""Browser steps shared by the e2e tests."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from clubs.models import Club, ClubRole
from tests.clubs.factories import PASSWORD


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


def pick_hand(
    page: Any, *, knocker: int, knocker_cards: list[str], defender_cards: list[str]
) -> Any:
    """On a match page's entry form: open "By cards", say who knocked (by seat position), then
    tap the knocker's cards and the defender's in the card picker. Returns the cards panel; its
    preview (``[data-preview]``) shows the engine's answer once both hands are whole."""
    page.locator("#tab-cards").tap()
    panel = page.locator("#panel-cards")
    panel.locator(f"input[name=knocker][value='{knocker}']").check()
    picker = panel.locator("[data-picker]")
    for card in knocker_cards:
        picker.locator(f'[data-card="{card}"]').tap()
    # a full knocker's hand sends the next taps to the defender's by itself
    expect(picker.locator("[data-hand=defender]")).to_have_attribute("aria-pressed", "true")
    for card in defender_cards:
        picker.locator(f'[data-card="{card}"]').tap()
    expect(panel.locator("[data-pick=knocker]")).to_have_value(" ".join(knocker_cards))
    expect(panel.locator("[data-pick=defender]")).to_have_value(" ".join(defender_cards))
    return panel


def pending_button(page: Any, action: str) -> Any:
    """The button of the entry waiting for confirmation that posts to ``action`` (``confirm``,
    ``withdraw`` or ``dispute``), whatever the page's language."""
    return page.locator(f"#pending form[action$='/{action}/'] button[type=submit]")
