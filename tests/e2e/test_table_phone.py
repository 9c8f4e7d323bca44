"""At the table with one thumb (issue 13), on a 390 x 844 phone: a hand picked card by card and
one entered by counts, with every tap counted; where the player is, in words; and every table
page checked with axe-core, at 320 px, for tap targets and focus, in English and Korean."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from engine.rules import find_rules
from scoring.models import HandSubmission, Match
from scoring.permissions import Actor
from scoring.services import entry_from_dict, hand_submit, match_link_token
from tests.clubs.factories import PlayerFactory
from tests.e2e.a11y import axe_violations, focus_ring, overflow, small_targets
from tests.scoring.factories import MatchFactory, event_director
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db(transaction=True)

# Counts what the phone really receives: every pointer press (a tap) and every key pressed,
# kept in the tab's sessionStorage so that it survives the form's own page loads.
COUNTER = """(() => {
  const bump = (key) =>
    sessionStorage.setItem(key, String(+(sessionStorage.getItem(key) || 0) + 1));
  addEventListener("pointerdown", () => bump("taps"), true);
  addEventListener("keydown", () => bump("taps"), true);
})();"""

KNOCKER = ["AS", "2S", "3S", "5H", "6H", "7H", "9S", "9D", "9C", "KC"]
DEFENDER = ["8H", "9H", "KS", "KH", "KD", "2C", "3C", "QS", "JD", "5C"]


def _match(
    preset: str = "standard",
    names: tuple[str, ...] = ("Alice", "Bob"),
    confirmation: str = "opponent",
    **kw: Any,
) -> Any:
    event = EventFactory(
        name="Thursday club night", rules=find_rules(preset).to_dict(), confirmation=confirmation
    )
    players = [PlayerFactory(club=event.club, name=n) for n in names]
    return MatchFactory(event=event, players=players, table_number=3, **kw)


def _phone(chromium: Any, live_server: Any, *, language: str = "en", width: int = 390) -> Any:
    context = chromium.new_context(
        viewport={"width": width, "height": 844},
        base_url=live_server.url,
        has_touch=True,
        is_mobile=True,
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    context.add_init_script(COUNTER)
    return context


def _seat(context: Any, match: Match, position: int | None) -> Any:
    page = context.new_page()
    page.goto(f"/l/{match_link_token(match=match, position=position)}/")
    return page


class Taps:
    """The test's own count of what it taps and types, checked against the phone's count."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0
        page.evaluate("() => sessionStorage.setItem('taps', '0')")

    def tap(self, locator: Any) -> None:
        locator.tap()
        self.count += 1

    def received(self) -> int:
        return int(self.page.evaluate("() => +(sessionStorage.getItem('taps') || 0)"))


def test_a_ten_card_knock_by_the_picker_takes_at_most_22_taps(chromium, live_server):
    match = _match()
    context = _phone(chromium, live_server)
    page = _seat(context, match, 0)
    expect(page.locator("#where .you")).to_have_text("You are Alice (seat 1).")
    expect(page.locator("#where .dealer")).to_have_text("Game 1, hand 1: Alice deals.")
    taps = Taps(page)
    taps.tap(page.get_by_role("tab", name="By cards"))
    panel = page.locator("#panel-cards")
    expect(panel.get_by_label("Alice")).to_be_checked()  # whoever enters usually knocked
    picker = panel.locator("[data-picker]")
    for card in KNOCKER:
        taps.tap(picker.locator(f'[data-card="{card}"]'))
    # a full knocker's hand: the next taps go to the defender; the knocker's cards are locked
    expect(picker.locator("[data-hand=defender]")).to_have_attribute("aria-pressed", "true")
    expect(picker.locator('[data-card="AS"]')).to_be_disabled()
    expect(picker.locator("[data-preview]")).to_contain_text("5H 6H 7H")
    for card in DEFENDER:
        taps.tap(picker.locator(f'[data-card="{card}"]'))
    preview = picker.locator("[data-preview]")
    expect(preview).to_contain_text("Alice scores 20")  # the engine's answer before submitting
    expect(preview).to_contain_text("8H on 5H 6H 7H")
    expect(preview.locator(".formula")).not_to_be_empty()
    expect(panel.get_by_label("Knocker's cards")).to_have_value(" ".join(KNOCKER))
    assert not HandSubmission.objects.exists()  # a preview stores nothing
    screens = Path(settings.BASE_DIR) / "var" / "screens"
    screens.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(screens / "picker.png"), full_page=True)
    taps.tap(panel.get_by_role("button", name="Enter hand"))
    expect(page.locator("#pending .arrangement")).to_contain_text("AS 2S 3S")
    expect(page.locator("#pending")).to_contain_text("Alice scores 20")
    expect(page.locator("#where .pending-words")).to_have_text(
        "You entered hand 1: the other side confirms it."
    )
    expect(page.locator("h1 + p .badge")).to_have_text("waiting for confirmation")
    assert taps.count == 22
    assert taps.received() == taps.count
    context.close()


def test_a_hand_by_counts_takes_at_most_5_taps(chromium, live_server):
    match = _match()
    context = _phone(chromium, live_server)
    page = _seat(context, match, 0)
    taps = Taps(page)
    panel = page.locator("#panel-counts")
    knocker = panel.get_by_role("group", name="The knocker's count, in one tap")
    taps.tap(knocker.get_by_role("button", name="5", exact=True))
    taps.tap(panel.get_by_role("group", name="The defender's count: tens").get_by_text("20"))
    taps.tap(panel.get_by_role("group", name="The defender's count: ones").get_by_text("+5"))
    expect(panel.get_by_label("Defender's deadwood", exact=True)).to_have_value("25")
    taps.tap(panel.get_by_role("button", name="Enter hand"))
    expect(page.locator("#pending .waiting")).to_have_text("Waiting for Bob to confirm.")
    assert taps.count <= 5
    assert taps.received() == taps.count
    sub = HandSubmission.objects.get()
    assert (sub.result["knocker_deadwood"], sub.result["defender_deadwood"]) == (5, 25)

    bob = _seat(context, match, 1)
    expect(bob.locator("#where .pending-words")).to_have_text(
        "Alice entered hand 1: check it, then confirm or dispute."
    )
    context.close()


def test_melds_are_grouped_by_tapping_and_typed_korean_fills_the_picker(chromium, live_server):
    match = _match()
    context = _phone(chromium, live_server, language="ko")
    page = _seat(context, match, 1)
    expect(page.locator("#where .you")).to_contain_text("Bob")
    page.get_by_role("tab", name="카드로 입력").click()
    panel = page.locator("#panel-cards")
    picker = panel.locator("[data-picker]")
    expect(picker.locator('[data-card="AS"]')).to_have_attribute("aria-label", "A♠ 스페이드 A")
    typed = "스페이드 A s2 ♠3 H5 6하트 7h 9s 다이아 9 클럽 9 K클로버"
    panel.locator("[data-pick=knocker]").fill(typed)
    expect(picker.locator("[data-count=knocker]")).to_have_text("10/10")
    for card in ("9S", "9D", "9C"):
        picker.locator("[data-chips] button", has_text=card).click()
    picker.locator("[data-make-meld]").click()
    expect(panel.locator("[data-pick=melds]")).to_have_value("9S 9D 9C")
    picker.locator("[data-hand=defender]").click()
    for card in DEFENDER:
        picker.locator(f'[data-card="{card}"]').click()
    expect(picker.locator('[data-card="9S"]')).to_be_disabled()
    preview = picker.locator("[data-preview]")
    # the melds given are all the knocker's melds: the rest is deadwood, over the limit
    expect(preview.locator(".problem")).to_contain_text("34 > 10")
    for meld in (("AS", "2S", "3S"), ("5H", "6H", "7H")):
        for card in meld:
            picker.locator("[data-chips] button", has_text=card).click()
        picker.locator("[data-make-meld]").click()
    expect(panel.locator("[data-pick=melds]")).to_have_value("9S 9D 9C | AS 2S 3S | 5H 6H 7H")
    expect(preview).to_contain_text("Bob 20점 획득")
    picker.locator("[data-melds] button").first.click()  # break up the first meld
    expect(panel.locator("[data-pick=melds]")).to_have_value("AS 2S 3S | 5H 6H 7H")
    assert overflow(page) == 0
    context.close()


def _director_cookie(match: Match, live_server: Any) -> dict[str, Any]:
    client = Client()
    client.force_login(event_director(match.event))
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}


def _check(page: Any, where: str) -> None:
    page.wait_for_load_state("load")
    problems = axe_violations(page)
    assert not problems, f"{where}: {problems}"
    small = small_targets(page)
    assert not small, f"{where}: tap targets under 44 px: {small}"
    page.set_viewport_size({"width": 320, "height": 800})
    assert overflow(page) == 0, f"{where}: scrolls sideways at 320 px"
    page.set_viewport_size({"width": 390, "height": 844})


@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_table_page_passes_axe_fits_320_px_and_has_big_targets(
    chromium, live_server, language
):
    match = _match()
    context = _phone(chromium, live_server, language=language)
    alice = _seat(context, match, 0)
    _check(alice, "seat page, entry by counts")
    alice.locator("#tab-cards").click()
    _check(alice, "seat page, card picker")
    assert focus_ring(alice, "#tab-cards") >= 3
    # the tabs work from the keyboard: arrows move and select
    alice.locator("#tab-cards").focus()
    alice.keyboard.press("ArrowRight")
    expect(alice.locator("#tab-dead")).to_be_focused()
    expect(alice.locator("#tab-dead")).to_have_attribute("aria-selected", "true")
    expect(alice.locator("#panel-dead")).to_be_visible()
    alice.keyboard.press("Home")
    expect(alice.locator("#panel-counts")).to_be_visible()
    # an error is tied to its field
    alice.locator("#counts-kd").fill("12")
    alice.locator("#counts-dd").fill("30")
    alice.locator("#panel-counts button[type=submit]").click()
    field = alice.locator("#counts-kd")
    expect(field).to_have_attribute("aria-invalid", "true")
    described = field.get_attribute("aria-describedby")
    expect(alice.locator(f"#{described}")).not_to_be_empty()
    _check(alice, "seat page with an error")
    alice.locator("#counts-kd").fill("5")
    alice.locator("#counts-dd").fill("25")
    alice.locator("#panel-counts button[type=submit]").click()
    expect(alice.locator("#pending")).to_be_visible()
    _check(alice, "seat page, waiting for confirmation")
    bob = _seat(context, match, 1)
    expect(bob.locator("#pending .dispute-form")).to_be_visible()
    _check(bob, "opponent's page with confirm and dispute")
    alice.goto(f"/matches/{match.pk}/sheet/")
    _check(alice, "paper score sheet page")
    link = context.new_page()
    link.goto("/l/")
    _check(link, "open a link page")
    context.close()

    stranger = _phone(chromium, live_server, language=language)
    page = stranger.new_page()
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#entry")).to_have_count(0)
    _check(page, "spectator's match page")
    breaks = page.evaluate("() => getComputedStyle(document.body).wordBreak")
    assert breaks == ("keep-all" if language == "ko" else "normal")
    stranger.close()

    desk = _phone(chromium, live_server, language=language)
    desk.add_cookies([_director_cookie(match, live_server)])
    page = desk.new_page()
    page.goto(f"/matches/{match.pk}/links/")
    _check(page, "links page")
    page.goto(f"/matches/{match.pk}/")
    _check(page, "director's match page")
    desk.close()


def test_hollywood_digits_and_partnership_names_read_at_390_px(chromium, live_server):
    holly = _match(preset="hollywood", confirmation="none", match_format={"kind": "hollywood"})
    director = Actor(user=event_director(holly.event))
    for knocker, k, d in ((0, 0, 95), (1, 0, 98), (0, 0, 97)):
        hand_submit(
            match=holly,
            actor=director,
            entry=entry_from_dict(
                {"knocker": knocker, "outcome": "gin", "knocker_deadwood": k}
                | {"defender_deadwood": d}
            ),
        )
    context = _phone(chromium, live_server)
    page = _seat(context, holly, 0)
    boxes = page.evaluate(
        """() => Array.from(document.querySelectorAll('.side[data-side="0"] .holly .total'))
            .map(el => { const r = el.getBoundingClientRect();
                         return [r.left, r.right, el.scrollWidth <= el.clientWidth + 1]; })"""
    )
    assert len(boxes) == 3
    for (_, right, _fits), (left, _r, _f) in itertools.pairwise(boxes):
        assert right <= left, boxes
    assert all(fits for _, _, fits in boxes), boxes

    team = _match(preset="partnership", names=("Zeke", "Cleo", "Elif", "Gus"))
    page = _seat(context, team, 1)
    expect(page.locator("#where .you")).to_have_text(
        "You are Cleo (seat 2). Your team: Cleo & Gus."
    )
    expect(page.locator("#where .dealer")).to_have_text("Game 1, hand 1: Zeke & Elif deal.")
    context.close()
