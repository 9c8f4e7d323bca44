"""Trust at the table, on a phone: a player's page shows only their own link, the table link
hands the phone over, and a dispute reaches the director's list and is settled there."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from engine.rules import find_rules
from scoring.models import HandSubmission, Match
from scoring.services import match_link_token
from tests.clubs.factories import PlayerFactory
from tests.e2e.steps import sign_in
from tests.scoring.factories import MatchFactory, event_director
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _match() -> Any:
    event = EventFactory(
        name="Friday club night", rules=find_rules("standard").to_dict(), confirmation="opponent"
    )
    alice = PlayerFactory(club=event.club, name="Alice")
    dee = PlayerFactory(club=event.club, name="Dee")
    return MatchFactory(event=event, players=[alice, dee], table_number=5)


def _phone(chromium: Any, live_server: Any) -> Any:
    context = chromium.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url)
    return context, context.new_page()


def _enter_knock(page: Any, knocker: str, k: str, d: str, *, i_am: str | None = None) -> None:
    page.get_by_role("tab", name="By counts").click()
    panel = page.locator("#panel-counts")
    if i_am is not None:  # the table link: who is holding the phone
        panel.get_by_role("group", name="I am").get_by_label(i_am).check()
    panel.get_by_role("group", name="Who knocked?").get_by_label(knocker).check()
    panel.get_by_label("knock", exact=True).check()
    panel.get_by_label("Knocker's deadwood").fill(k)
    panel.get_by_label("Defender's deadwood").fill(d)
    panel.get_by_role("button", name="Enter hand").click()


def test_a_players_page_shows_no_link_of_the_other_player(page):
    match = _match()
    own = match_link_token(match=match, position=0)
    page.goto(f"/l/{own}/")
    expect(page.locator("h1")).to_have_text("Table 5")
    assert own not in page.url  # exchanged for a session: a clean address
    assert page.url.endswith(f"/matches/{match.pk}/")
    html = page.content()
    assert match_link_token(match=match, position=1) not in html
    assert match_link_token(match=match) not in html
    figures = page.locator("#links figure.qr")
    expect(figures).to_have_count(1)
    expect(figures.first).to_contain_text("Alice")
    # a reload keeps the seat (cookie-bound session), with no secret in the address
    page.reload()
    expect(page.locator("#entry")).to_be_visible()


def test_a_printed_link_keeps_its_secret_in_the_fragment_and_out_of_the_address(page, live_server):
    match = _match()
    secret = match_link_token(match=match, position=1)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{live_server.url}/l/#{secret}")
    expect(page.locator("h1")).to_have_text("Table 5")
    assert page.url.endswith(f"/matches/{match.pk}/")
    expect(page.locator("#entry")).to_be_visible()
    assert not any(secret in url for url in requested)  # never in a request line (access logs)


def test_the_table_link_asks_who_is_entering_and_hands_the_phone_over(page):
    match = _match()
    page.goto(f"/l/{match_link_token(match=match)}/")
    _enter_knock(page, "Alice", "5", "25", i_am="Alice")
    pending = page.locator("#pending")
    expect(pending.locator(".handover")).to_have_text("Hand the phone to Dee to confirm.")
    expect(page.get_by_role("button", name="I am Alice: confirm")).to_have_count(0)
    page.get_by_role("button", name="I am Dee: confirm").click()
    expect(page.locator(".notice.ok")).to_contain_text("Hand 1 confirmed.")
    sub = HandSubmission.objects.get()
    assert sub.status == "confirmed"
    assert (sub.submitted_by_player.name, sub.confirmed_by_player.name) == ("Alice", "Dee")


def test_a_dispute_reaches_the_directors_list_and_is_settled(page, chromium, live_server):
    match: Match = _match()
    page.goto(f"/l/{match_link_token(match=match, position=0)}/")
    _enter_knock(page, "Alice", "5", "25")
    expect(page.locator("#pending .waiting")).to_have_text("Waiting for Dee to confirm.")

    context, dee = _phone(chromium, live_server)
    dee.goto(f"/l/{match_link_token(match=match, position=1)}/")
    dee.get_by_label("Not right? Say what is wrong").fill("I had 15, not 25")
    dee.get_by_role("button", name="Dispute").click()
    expect(dee.locator("#pending h2")).to_have_text("Hand 1: disputed")
    context.close()

    # Alice sees why (her phone polls and reloads by itself)
    expect(page.locator("#pending .dispute-reason")).to_contain_text(
        "I had 15, not 25", timeout=10_000
    )
    expect(page.get_by_role("button", name="Withdraw")).to_be_visible()

    director = event_director(match.event)
    context, desk = _phone(chromium, live_server)
    desk.goto(f"/accounts/login/?next=/events/{match.event.pk}/disputes/")
    sign_in(desk, director.username)
    expect(desk.locator("h1")).to_have_text("Disputed hands")
    item = desk.locator("li.dispute")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("I had 15, not 25")
    item.get_by_role("button", name="Settle: confirm as entered").click()
    expect(desk.locator(".notice.ok")).to_contain_text("Hand 1 confirmed.")
    expect(desk.locator("li.dispute")).to_have_count(0)
    expect(desk.get_by_text("No disputed hands.")).to_be_visible()
    context.close()
    assert HandSubmission.objects.get().status == "confirmed"
