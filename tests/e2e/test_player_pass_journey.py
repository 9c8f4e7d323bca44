"""A player's own phone from entry to the round's clock (issue 27), on 390 x 844 phones, in English
and Korean: entries open for a Swiss with a cap of four; five entrants enter on their phones and
the fifth joins the waiting list; the first drops out with the pass the site mailed her and the
waiting entrant moves up (the director's list of entries says so); the four players open the
links of their mails and check in on their passes; the director pairs round 1 and every pass
shows its table and opponent within 3 s, without a reload; a hand is entered from one pass's
seat (one tap) and confirmed from the opponent's pass; the standings show the win; the director
starts a one-minute clock on the console and "time" shows on every pass and on the projector.

The worker's tasks (the mails, the standings) run at once in the server's thread: the browser
tests have no Celery worker. Mail goes to Django's test outbox; each link is opened as it was
written, so ``KNOCK_SITE_URL`` is the live server's address.

With the English run the test also takes the screenshots of docs/players.md and
docs/directors.md that show entry and the pass (their names are listed in
tests/e2e/test_docs_screenshots.py).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.core import mail
from django.core.cache import cache
from django.utils import timezone, translation
from playwright.sync_api import expect

from clubs.models import ClubRole
from config.celery_app import app as celery_app
from engine.rules import find_rules
from entries.models import Entry
from scoring.models import Match
from tests.clubs.factories import PASSWORD, ClubFactory, ClubRoleFactory, UserFactory
from tests.e2e.steps import pending_button, pick_hand
from tests.e2e.test_docs_screenshots import IMG
from tests.tournaments.factories import EventFactory
from tournaments.models import Event, Registration
from tournaments.services import clock as clock_services

pytestmark = pytest.mark.django_db(transaction=True)

# Issue 27: a pass shows its table within 3 s. It polls every 2 s (give or take a tenth), so it
# shows within 2.2 s and an answer; CI once saw a phone miss 3 s on a loaded machine (with
# nothing failed), so a second more for a machine shared with other runs, as test_whole_game.
# The time taken is printed with the journey's.
LIVE = 3_000 + 1_000
NAMES = {
    "en": ("Ann Lee", "Bo Kim", "Cy Park", "Dee Cho", "Eve Han"),
    "ko": ("이지아", "김보람", "박서연", "조다은", "한은우"),
}
# A knock by the first player at table 1: melds AS-3S, 5H-7H, 9S 9D 9C, deadwood KC = 10; the
# defender lays off 8H 9H and keeps 30 after KS KH KD: 20 for the knocker. The event's matches
# are one hand each (no target), so this hand decides the match.
KNOCK = (
    ["AS", "2S", "3S", "5H", "6H", "7H", "9S", "9D", "9C", "KC"],
    ["8H", "9H", "KS", "KH", "KD", "2C", "3C", "QS", "JD", "5C"],
)
PHONE = {"width": 390, "height": 844}
LINK = re.compile(r"https?://\S+/p/#\S+")


def _t(language: str, message: str, **values: Any) -> str:
    """The page's words for ``message`` in ``language`` (the site's own catalogue)."""
    with translation.override(language):
        return translation.gettext(message) % values


def _label(language: str, choice: Any) -> str:
    with translation.override(language):
        return str(choice.label)


def _phone(chromium: Any, live_server: Any, language: str) -> Any:
    context = chromium.new_context(
        viewport=PHONE, base_url=live_server.url, has_touch=True, is_mobile=True
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    return context.new_page()


def _mark(page: Any) -> None:
    """Mark this very document: still marked later means the page was never reloaded."""
    page.evaluate("window.__sameDocument = true")


def _not_reloaded(page: Any) -> None:
    assert page.evaluate("window.__sameDocument === true"), page.url


def _shot(language: str, page: Any, name: str) -> None:
    if language == "en":  # the guides are in English
        IMG.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(IMG / name), full_page=True)


def _pass_link(address: str) -> str:
    """The pass link of the newest mail the site wrote to ``address``."""
    for message in reversed(mail.outbox):
        if message.to == [address] and (found := LINK.search(message.body)):
            return found.group(0)
    raise AssertionError(f"no pass mailed to {address}: {[m.subject for m in mail.outbox]}")


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """The worker's tasks run at once, in the process that sends them (the server's thread)."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_players_phone_from_entry_to_the_rounds_clock(
    chromium, live_server, language, settings, monkeypatch, eager_tasks
):
    cache.clear()  # the per-address entry limit counts in the cache
    settings.KNOCK_SITE_URL = live_server.url
    names = NAMES[language]
    ann, bo, cy, dee, eve = names
    email = {name: f"player{i}@example.org" for i, name in enumerate(names)}
    event: Event = EventFactory.create(
        club=ClubFactory(name="Mapo Gin Club", slug="mapo-gin"),
        name="Winter Open",
        kind=Event.Kind.SWISS,
        status=Event.Status.REGISTRATION,
        rounds_planned=3,
        rules=find_rules("standard", target=None).to_dict(),
        confirmation=Event.Confirmation.OPPONENT,
        options={"entries_open": True, "entries_cap": 4},
    )
    ClubRoleFactory(club=event.club, role=ClubRole.Role.DIRECTOR, user=UserFactory(username="td"))
    started = time.monotonic()

    # -- entry: four places, the fifth entrant waits ---------------------------------------------
    phones: dict[str, Any] = {}
    for name in names:
        phone = phones[name] = _phone(chromium, live_server, language)
        phone.goto(f"/events/{event.pk}/enter/")
        expect(phone.locator("html")).to_have_attribute("lang", language)
        phone.locator("#id_name").fill(name)
        phone.locator("#id_email").fill(email[name])
        phone.locator(".entry-form button[type=submit]").tap()
        if name != eve:
            expect(phone.locator(".notice.ok")).to_have_text(
                _t(language, "%(name)s, you are registered. See you there!", name=name)
            )
    waiting = phones[eve]
    expect(waiting.locator(".notice.warn[role=alert]")).to_have_text(
        _t(language, "The event is full. You may join the waiting list.")
    )
    waiting.locator(".entry-form button[type=submit]").tap()
    expect(waiting.locator(".notice.warn[role=status]")).to_contain_text(
        _t(
            language,
            "%(name)s, you are on the waiting list (number %(n)s). You move up by yourself "
            "when a place comes free.",
            name=eve,
            n=1,
        )
    )
    _shot(language, waiting, "players-entry.png")

    # -- the first entrant drops out with the pass she was mailed; the waiting one moves up -------
    first = phones[ann]
    first.goto(_pass_link(email[ann]))
    expect(first.locator("#pass-holder")).to_have_text(ann)
    first.locator("#pass-withdraw").tap()
    first.locator("#pass-withdraw-confirm").tap()
    expect(first.locator(".notice.ok")).to_have_text(
        _t(language, "You have dropped out of the event: you will not be paired again.")
    )
    expect(first.locator("#pass-dropped")).to_be_visible()
    promoted = _t(language, "You have a place in %(event)s", event=event.name)
    assert any(m.to == [email[eve]] and m.subject == promoted for m in mail.outbox)

    director = _phone(chromium, live_server, language)
    director.goto(f"/accounts/login/?next=/events/{event.pk}/entries/")
    director.locator("#id_username").fill("td")
    director.locator("#id_password").fill(PASSWORD)
    director.locator("form.panel button[type=submit]").tap()
    entry = {e.name: e for e in Entry.objects.filter(event=event)}
    expect(director.locator(f"#entry-{entry[eve].pk} .badge")).to_have_text(
        _label(language, Entry.Status.ACCEPTED)
    )
    expect(director.locator(f"#entry-{entry[ann].pk} .badge")).to_have_text(
        _label(language, Entry.Status.WITHDRAWN)
    )
    _shot(language, director, "directors-entries.png")

    # -- the four players open their mailed passes and check in -----------------------------------
    players = (bo, cy, dee, eve)
    for name in players:
        phone = phones[name]
        phone.goto(_pass_link(email[name]))
        expect(phone.locator("#pass-holder")).to_have_text(name)
        expect(phone.locator("#pass-current")).to_have_text(
            _t(language, "No table for you yet: this page shows it the moment you are paired.")
        )
        phone.locator("#pass-checkin").tap()
        expect(phone.locator("#pass-checked-in")).to_have_text(_t(language, "You are checked in."))
        _mark(phone)
    director.goto(f"/events/{event.pk}/passes/")
    _shot(language, director, "directors-passes.png")
    assert Registration.objects.filter(event=event, status="checked_in").count() == 4

    # -- round 1 is paired: every pass shows its table within 3 s, without a reload ---------------
    director.goto(f"/events/{event.pk}/")
    director.get_by_role("button", name=_t(language, "Pair next round")).tap()
    expect(director.locator(".notice.ok")).to_have_text(_t(language, "Round %(n)s is paired.", n=1))
    paired = time.monotonic()
    seat: dict[str, tuple[Match, int, str]] = {}
    for match in Match.objects.filter(event=event).prefetch_related("seats__player"):
        seats = {s.position: s.player.name for s in match.seats.all()}
        for position, name in seats.items():
            seat[name] = (match, position, seats[1 - position])
    assert sorted(seat) == sorted(players)
    for name in players:
        match, position, opponent = seat[name]
        left = max(100, int(LIVE - (time.monotonic() - paired) * 1000))
        expect(phones[name].locator("#pass-current")).to_have_text(
            _t(
                language,
                "Round %(n)s: table %(t)s, you (seat %(s)s) against %(o)s",
                n=1,
                t=match.table_number,
                s=position + 1,
                o=opponent,
            ),
            timeout=left,
        )
        _not_reloaded(phones[name])
    shown_in = time.monotonic() - paired
    # ...and the mail of the pairing says it too (in the language the entrant used)
    match, position, opponent = seat[bo]
    table = _t(
        language,
        "Round %(n)s: table %(t)s, you (seat %(s)s) against %(o)s",
        n=1,
        t=match.table_number,
        s=position + 1,
        o=opponent,
    )
    assert any(table in m.body for m in mail.outbox if m.to == [email[bo]])

    # -- a hand from one pass's seat (one tap), confirmed from the opponent's pass ----------------
    winner = min(players, key=lambda n: (seat[n][0].table_number, seat[n][1]))
    match, position, loser = seat[winner]
    assert position == 0
    _shot(language, phones[winner], "players-pass.png")
    phones[winner].locator("#pass-seat").tap()
    expect(phones[winner]).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    panel = pick_hand(phones[winner], knocker=0, knocker_cards=KNOCK[0], defender_cards=KNOCK[1])
    panel.locator("button[type=submit]").tap()
    expect(pending_button(phones[winner], "withdraw")).to_be_visible()
    phones[loser].locator("#pass-seat").tap()
    expect(phones[loser]).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    pending_button(phones[loser], "confirm").tap()
    won = _t(language, "%(w)s wins the match.", w=winner)
    expect(phones[loser].locator("[data-live-region=scoreboard] .notice.ok")).to_have_text(won)
    # the winner's page follows by itself (3 s, and a second for a shared machine)
    expect(phones[winner].locator("[data-live-region=scoreboard] .notice.ok")).to_have_text(
        won, timeout=LIVE
    )
    for name in (winner, loser):
        phones[name].goto(f"/events/{event.pk}/pass/")
        expect(phones[name].locator("#pass-current")).to_have_text(
            _t(language, "Your match is over: wait for the next round here.")
        )
    expect(phones[loser].locator("#pass-results li")).to_have_text(
        f"{_t(language, 'Round %(n)s', n=1)}: {winner} · {_t(language, 'lost')}"
    )

    # -- the standings show it ---------------------------------------------------------------------
    director.goto(f"/events/{event.pk}/")
    top = director.locator("#standings tbody tr").first
    expect(top.locator("td.name")).to_have_text(winner)
    expect(top.locator("td.num").nth(2)).to_have_text("1-0-0")

    # -- the round's clock: one minute, started on the console, reaches time -----------------------
    screen = chromium.new_context(viewport={"width": 1280, "height": 720}, base_url=live_server.url)
    screen.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    projector = screen.new_page()
    projector.goto(f"/events/{event.pk}/projector/")
    expect(projector.locator("#pj-slides")).to_be_visible()
    director.goto(f"/events/{event.pk}/console/")
    director.locator("#id_clock_minutes").fill("1")
    # A minute is the shortest round. Rather than wait for it, the clock service records the
    # start 57 s in the past (only its own reading of the time is moved): the pages receive a
    # running clock with 3 s left, count it down themselves and show "time" at zero.
    real_now = timezone.now
    with monkeypatch.context() as patch:
        patch.setattr(
            clock_services,
            "timezone",
            SimpleNamespace(now=lambda: real_now() - timedelta(seconds=57)),
        )
        director.locator("#round-clock button[value=start]").tap()
        expect(director.locator("#console-clock [data-clock-phase]")).to_have_attribute(
            "data-clock-phase", "running"
        )
    time_up = _t(language, "Time: finish the hand being played.")
    other = next(n for n in players if seat[n][0].pk != match.pk)
    for page in (projector, director, *(phones[n] for n in players)):
        expect(page.locator("[data-clock-time]").first).to_have_text(time_up, timeout=10_000)
        expect(page.locator("[data-clock-time]").first).to_be_visible()
    _not_reloaded(phones[other])
    _shot(language, phones[other], "players-pass-clock.png")
    expect(director.locator("#after-time")).to_contain_text(seat[other][2], timeout=10_000)
    if language == "en":
        director.locator("#console-clock").screenshot(path=str(IMG / "directors-clock.png"))
    for page in (*phones.values(), director):
        page.context.close()
    screen.close()
    print(
        f"\n[{language}] tables on the passes in {shown_in:.2f} s; whole journey "
        f"{time.monotonic() - started:.1f} s"
    )
