"""At the table, on a phone: private links, entry by counts and by cards, confirmation, Korean."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import expect

from engine.rules import find_rules
from scoring.models import HandSubmission, Match
from scoring.services import match_link_token
from tests.clubs.factories import PlayerFactory
from tests.scoring.factories import MatchFactory
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _match(confirmation: str = "opponent") -> Any:
    event = EventFactory(
        name="Thursday club night",
        rules=find_rules("standard").to_dict(),
        confirmation=confirmation,
    )
    alice = PlayerFactory(club=event.club, name="Alice")
    bob = PlayerFactory(club=event.club, name="Bob")
    return MatchFactory(event=event, players=[alice, bob], table_number=3)


def _link(match: Match, position: int) -> str:
    return f"/matches/{match.pk}/?k={match_link_token(match=match, position=position)}"


def _enter_by_counts(page: Any, knocker: str, k: str, d: str) -> None:
    entry = page.locator("#entry")
    entry.get_by_role("tab", name="By counts").click()
    panel = page.locator("#panel-counts")
    panel.get_by_label(knocker).check()
    panel.get_by_label("knock", exact=True).check()
    panel.get_by_label("Knocker's deadwood").fill(k)
    panel.get_by_label("Defender's deadwood").fill(d)
    panel.get_by_role("button", name="Enter hand").click()


def test_player_enters_by_counts_and_the_opponent_confirms_on_their_own_link(
    page, chromium, live_server
):
    match = _match()
    page.goto(_link(match, 0))
    expect(page.locator("h1")).to_have_text("Table 3")
    assert page.get_by_label("Knocker's deadwood").get_attribute("inputmode") == "numeric"
    _enter_by_counts(page, "Alice", "5", "25")
    expect(page.locator("#pending .waiting")).to_have_text("Waiting for Bob to confirm.")
    expect(page.get_by_role("button", name="Withdraw")).to_be_visible()
    expect(page.get_by_role("button", name="Confirm")).to_have_count(0)

    Path(settings.BASE_DIR / "var" / "screens").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(settings.BASE_DIR / "var" / "screens" / "match.png"), full_page=True)

    other = chromium.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url)
    bob = other.new_page()
    bob.goto(_link(match, 1))
    expect(bob.locator("#pending")).to_contain_text("Entered by Alice")
    bob.get_by_role("button", name="Confirm").click()
    expect(bob.locator(".notice.ok")).to_contain_text("Hand 1 confirmed.")
    row = bob.locator("#sheet tr.hand[data-hand='1']")
    expect(row).to_contain_text("knock")
    expect(row.locator("td").last).to_have_text("0")
    expect(row.locator("td").nth(-2)).to_have_text("20")
    expect(bob.locator(".scoreboard [data-side='0'] .total")).to_have_text("20")
    other.close()

    # Alice's phone, still open, notices the confirmation by itself (htmx poll) and reloads.
    expect(page.locator("#pending")).to_have_count(0, timeout=10_000)
    expect(page.locator("#sheet tr.hand[data-hand='1'] td").nth(-2)).to_have_text("20")
    expect(page.locator("#entry h2")).to_have_text("Enter hand 2")


def test_knock_over_the_limit_shows_the_engines_message_and_stores_nothing(page, live_server):
    match = _match()
    page.goto(_link(match, 0))
    _enter_by_counts(page, "Alice", "12", "30")
    error = page.locator("#panel-counts .has-error .error")
    expect(error).to_contain_text("Knock over the limit: deadwood 12 > 10")
    expect(page.get_by_label("Knocker's deadwood")).to_have_value("12")
    assert not HandSubmission.objects.exists()


def test_entering_by_cards_shows_the_arrangement_and_layoffs(page, live_server):
    match = _match()
    page.goto(_link(match, 0))
    page.get_by_role("tab", name="By cards").click()
    panel = page.locator("#panel-cards")
    expect(panel).to_be_visible()
    panel.get_by_label("Alice").check()
    panel.get_by_label("Knocker's cards").fill("AS 2S 3S 5H 6H 7H 9S 9D 9C KC")
    panel.get_by_label("Defender's cards").fill("8H 9H KS KH KD 2C 3C QS JD 5C")
    panel.get_by_role("button", name="Enter hand").click()
    pending = page.locator("#pending")
    expect(pending.locator(".arrangement")).to_contain_text("AS 2S 3S")
    expect(pending.locator(".arrangement")).to_contain_text("5H 6H 7H")
    expect(pending.locator(".layoffs")).to_contain_text("8H on 5H 6H 7H")
    expect(pending.locator(".layoffs")).to_contain_text("9H on 9S 9D 9C")
    expect(pending).to_contain_text("Alice scores 20")


def test_match_page_in_korean(page, live_server):
    match = _match()
    page.goto(_link(match, 0))
    page.get_by_role("button", name="한국어").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "ko"
    # The seat (kept in the session the link was exchanged for) survives the language switch,
    # and the secret never comes back into the address.
    assert "k=" not in page.url
    expect(page.locator("#entry")).to_be_visible()
    expect(page.locator("h1")).to_have_text("3번 테이블")
    expect(page.get_by_role("tab", name="데드우드로 입력")).to_be_visible()
    expect(page.get_by_role("tab", name="카드로 입력")).to_be_visible()
    expect(page.locator("#sheet h2")).to_have_text("점수표")
    expect(page.get_by_label("노커의 데드우드", exact=True)).to_be_visible()
    page.screenshot(path=str(settings.BASE_DIR / "var" / "screens" / "match-ko.png"))
    assert re.search(r"[가-힣]", page.locator("#entry").inner_text())
