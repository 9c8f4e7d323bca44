"""A director on a phone: past score sheets from CSV (dry run, fix, import) and a paper sheet."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.rules import find_rules
from scoring.models import HandSubmission
from tests.clubs.factories import PlayerFactory, UserFactory
from tests.e2e.steps import sign_in
from tests.scoring.factories import MatchFactory
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(os.environ.get("KNOCK_VAR_DIR", "var")) / "screenshots"


def _setup() -> tuple[Any, Any]:
    event = EventFactory(
        name="Thursday club night",
        rules=find_rules("standard").to_dict(),
        confirmation="opponent",
    )
    event.directors.add(UserFactory(username="td"))
    alice = PlayerFactory(club=event.club, name="Alice")
    bob = PlayerFactory(club=event.club, name="Bob")
    return event, MatchFactory(event=event, players=[alice, bob], table_number=3)


def _sign_in(page: Any, event: Any) -> None:
    page.goto(f"/events/{event.pk}/")
    page.get_by_role("link", name="Sign in").click()
    sign_in(page, "td")
    expect(page.locator("h1")).to_have_text("Thursday club night")


def _fits_the_phone(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"


def test_director_checks_fixes_and_imports_a_csv(page, live_server):
    event, match = _setup()
    _sign_in(page, event)
    page.get_by_role("link", name="Import score sheets (CSV)").click()
    expect(page.locator("h1")).to_have_text("Import score sheets (CSV)")
    expect(page.locator("#columns dt").first).to_have_text("match")

    bad = (
        "match,hand,knocker,outcome,knocker_deadwood,defender_deadwood\n"
        f"{match.pk},1,Alice,knock,5,25\n"
        f"{match.pk},2,Bob,knock,12,30\n"
        f"{match.pk},3,Alice,gin,0,20\n"
    )
    page.get_by_label("Paste the CSV").fill(bad)
    page.get_by_role("button", name="Check only (dry run)").click()
    problems = page.locator("#report table.problems tbody tr")
    expect(problems).to_have_count(2)
    expect(problems.nth(0).locator("td").nth(0)).to_have_text("3")
    expect(problems.nth(0)).to_contain_text("knocker_deadwood")
    expect(problems.nth(0)).to_contain_text("Knock over the limit: deadwood 12 > 10")
    expect(problems.nth(1).locator("td").nth(0)).to_have_text("4")
    expect(problems.nth(1)).to_contain_text("an earlier row of this game has a problem")
    assert not HandSubmission.objects.exists()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "import-dry-run-phone.png"), full_page=True)
    _fits_the_phone(page)

    # The text stays in the box: fix row 3 and check again, then import.
    box = page.get_by_label("Paste the CSV")
    expect(box).to_have_value(bad)
    box.fill(bad.replace("Bob,knock,12,30", "Bob,knock,4,30"))
    page.get_by_role("button", name="Check only (dry run)").click()
    expect(page.locator("#all-valid")).to_contain_text("All 3 rows are valid.")
    assert not HandSubmission.objects.exists()
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.locator(".notice.ok")).to_have_text("Imported 3 hands.")
    assert HandSubmission.objects.filter(status="confirmed").count() == 3

    page.locator("#imported").get_by_role("link", name="Table 3").click()
    expect(page.locator("h1")).to_have_text("Table 3")
    rows = page.locator("#sheet tr.hand")
    expect(rows).to_have_count(3)
    expect(rows.nth(1)).to_contain_text("Bob")
    expect(page.locator(".scoreboard .total")).to_have_text(["65", "26"])


def test_director_enters_a_paper_score_sheet(page, live_server):
    event, match = _setup()
    _sign_in(page, event)
    page.goto(f"/matches/{match.pk}/")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "match-paper-sheet-link-phone.png"), full_page=True)
    page.get_by_role("link", name="Enter a paper score sheet").click()
    expect(page.locator("h2").first).to_have_text("Paper score sheet: game 1")
    rows = page.locator(".sheet-row")
    expect(rows).to_have_count(8)
    # The script adds rows in the page, without posting the sheet.
    page.get_by_role("button", name="Add 5 more rows").click()
    expect(rows).to_have_count(13)
    expect(page.locator("#hand-row-13 .sheet-num")).to_have_text("13")

    def fill(n: int, knocker: str, outcome: str, k: str = "", d: str = "") -> None:
        row = page.locator(f"#hand-row-{n}")
        if knocker:
            row.get_by_label("Knocker", exact=True).select_option(label=knocker)
        row.get_by_label("Outcome").select_option(outcome)
        if k:
            row.get_by_label("Knocker's deadwood").fill(k)
        if d:
            row.get_by_label("Defender's deadwood").fill(d)

    fill(1, "Alice", "knock", "5", "25")
    fill(2, "Bob", "gin", "0", "30")
    fill(3, "", "dead")
    fill(13, "Alice", "knock", "11", "30")  # over the knock limit: nothing is stored
    _fits_the_phone(page)
    page.get_by_role("button", name="Store the whole sheet").click()
    # The error is at the row it was typed in (the empty rows between are skipped).
    error = page.locator("#hand-row-13 .row-error")
    expect(error).to_contain_text("Knocker's deadwood: Knock over the limit: deadwood 11 > 10")
    expect(page.locator("#h12-kd")).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".sheet-row.has-row-error")).to_have_count(1)
    expect(page.locator(".notice.error")).to_contain_text("Nothing was stored: fix row 13.")
    assert not HandSubmission.objects.exists()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "paper-sheet-error-phone.png"), full_page=True)

    page.locator("#hand-row-13").get_by_label("Knocker's deadwood").fill("1")
    page.get_by_role("button", name="Store the whole sheet").click()
    expect(page.locator(".notice.ok")).to_have_text("Score sheet stored: 4 hands.")
    expect(page.locator("#sheet tr.hand")).to_have_count(4)
    expect(page.locator(".scoreboard .total")).to_have_text(["49", "55"])
    assert HandSubmission.objects.filter(status="confirmed").count() == 4
