"""A director runs a Swiss round from the console on a phone: signs in to their events, pairs
round 1, watches the tables finish, opens a table's score sheet, pairs round 2 and reaches
round 1 again; then the same console in Korean."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from clubs.models import ClubRole
from tests.clubs.factories import ClubRoleFactory, UserFactory
from tests.e2e.steps import sign_in
from tests.tournaments.factories import swiss_event
from tests.tournaments.helpers import open_matches, play, seated


def _fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"


def _finish(event_id: int, number: int, *, tables: int | None = None) -> None:
    for m in open_matches(event_id, number)[:tables]:
        play(m, winner=seated(m)[0])


def test_director_runs_a_swiss_round_from_the_console(page, live_server):
    event = swiss_event(4, name="Spring Swiss", player_name="Player {}")
    ClubRoleFactory(club=event.club, role=ClubRole.Role.DIRECTOR, user=UserFactory(username="dee"))

    page.goto("/accounts/login/")
    sign_in(page, "dee")
    expect(page.locator("h1")).to_have_text("My clubs & events")
    page.locator("#my-events").get_by_role("link", name="Console").click()
    expect(page.locator("h1")).to_contain_text("Console")
    page.get_by_role("button", name="Pair round 1").click()
    expect(page.locator(".notice.ok")).to_have_text("Round 1 is paired.")
    expect(page.locator("#done-count")).to_have_text("0 of 2 tables finished")
    expect(page.locator("li.console-table")).to_have_count(2)
    expect(page.get_by_role("button", name="Pair round 2")).to_have_count(0)
    _fits(page)

    # One table finishes: it goes to the bottom, the missing one stays on top.
    _finish(event.pk, 1, tables=1)
    page.reload()
    expect(page.locator("#done-count")).to_have_text("1 of 2 tables finished")
    expect(page.locator("li.console-table").first).to_have_attribute("data-state", "playing")
    expect(page.locator("#force-pair summary")).to_have_text("Pair round 2 anyway")

    # One tap opens the missing table's score sheet.
    page.locator("li.console-table").first.locator("a").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    page.go_back()

    _finish(event.pk, 1)
    page.reload()
    expect(page.locator("#done-count")).to_have_text("2 of 2 tables finished")
    page.get_by_role("button", name="Pair round 2").click()
    expect(page.locator(".notice.ok")).to_have_text("Round 2 is paired.")
    expect(page.locator("#done-count")).to_have_text("0 of 2 tables finished")
    # Round 1 stays one tap away.
    page.locator("#console-rounds").get_by_role("link", name="Round 1").click()
    expect(page.locator("#console-summary h2")).to_contain_text("Round 1")
    expect(page.locator("li.console-table[data-state=finished]")).to_have_count(2)
    _fits(page)

    # The same console in Korean.
    page.get_by_role("button", name="한국어").click()
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    expect(page.locator("#done-count")).to_have_text("테이블 2개 중 2개 종료")
    page.get_by_role("link", name="현재 라운드로 돌아가기").click()
    expect(page.locator("#done-count")).to_have_text("테이블 2개 중 0개 종료")
    expect(page.locator("li.console-table").first).to_contain_text("진행 중")
    expect(page.locator("#pair-blocked")).to_contain_text("최종 결과가 나오면")
    _fits(page)

    # Setting up the next event: the form shows only what the chosen kind uses.
    page.goto(f"/clubs/{event.club.slug}/events/new/")
    expect(page.locator("#id_opt_grand_final_reset")).to_be_hidden()
    expect(page.locator("#id_rounds_planned")).to_be_visible()
    page.locator("#id_kind").select_option("double_elim")
    expect(page.locator("#id_opt_grand_final_reset")).to_be_visible()
    expect(page.locator("#id_rounds_planned")).to_be_hidden()
    expect(page.locator("#id_opt_pair_by")).to_be_hidden()
