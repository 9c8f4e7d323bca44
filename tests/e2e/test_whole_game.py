"""A whole game at the table (issue 13), on 390 x 844 phones, in English and Korean: two players,
each on their own phone (seat link), play a game to 50 by the card picker, a knock, a dead hand,
an undercut and a gin, each entry confirmed by the other player from what their page shows by
itself; they race to enter the undercut (the loser is told which entry was kept), dispute the
gin (the submitter withdraws it and enters it again), and both see the final score sheet with
the game and box bonuses. A spectator's page follows every confirmed hand without reloading.

The points are worked out here by hand from docs/rules.md (standard rules, target 50), not read
back from the page.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from django.utils.text import capfirst
from playwright.sync_api import expect

from engine.rules import find_rules
from scoring.models import HandSubmission, Match
from scoring.services import match_link_token
from tests.clubs.factories import PlayerFactory
from tests.e2e.steps import pending_button, pick_hand
from tests.scoring.factories import MatchFactory
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db(transaction=True)

LIVE = 4_000  # issue 13 asks for 3 s; a second more for a machine shared with other runs
NAMES = {"en": ("Alice", "Bob"), "ko": ("서연", "민준")}


def _hand(cards: str) -> list[str]:
    return cards.split()


# Hand 1, a knock by seat 1: melds AS-3S, 5H-7H, 9S 9D 9C, deadwood KC = 10. The defender lays
# off 8H 9H on 5H-7H and keeps 2C 3C QS JD 5C = 30 after KS KH KD: 30 - 10 = 20 for seat 1.
KNOCK = (_hand("AS 2S 3S 5H 6H 7H 9S 9D 9C KC"), _hand("8H 9H KS KH KD 2C 3C QS JD 5C"))
# Hand 3, seat 1 knocks with 8D (8) and is undercut: seat 2 keeps 2C (2), nothing to lay off;
# 8 - 2 + 25 (undercut bonus) = 31 for seat 2.
UNDERCUT = (_hand("AH 2H 3H 4C 4D 4S 7S 8S 9S 8D"), _hand("JC QC KC KH KS KD 5D 6D 7D 2C"))
# Hand 4, gin by seat 1; seat 2 keeps 5H (5), no lay-offs on gin: 5 + 25 (gin bonus) = 30.
GIN = (_hand("AS 2S 3S 4S 7H 7D 7C QH QD QC"), _hand("9S 9H 9C 4D 5D 6D KS KH KD 5H"))
# ...first entered with an 8H instead of the 5H, which seat 2 disputes (8 + 25 = 33).
GIN_WRONG = (GIN[0], [*GIN[1][:-1], "8H"])
OUTCOMES = {"knock": "knock", "undercut": "undercut", "gin": "gin", "dead": "dead hand"}


def _t(language: str, message: str, context: str = "", **values: Any) -> str:
    """The page's words for ``message`` in ``language`` (the site's own catalogue)."""
    with translation.override(language):
        if context:
            return translation.pgettext(context, message) % values
        return translation.gettext(message) % values


def _label(language: str, outcome: str) -> str:
    return _t(language, OUTCOMES[outcome])


def _phone(chromium: Any, live_server: Any, language: str, path: str) -> Any:
    context = chromium.new_context(
        viewport={"width": 390, "height": 844},
        base_url=live_server.url,
        has_touch=True,
        is_mobile=True,
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.goto(path)
    expect(page.locator("html")).to_have_attribute("lang", language)
    _mark(page)
    return page


def _mark(page: Any) -> None:
    """Mark this very document: still marked later means the page was never reloaded."""
    page.evaluate("window.__sameDocument = true")


def _not_reloaded(*pages: Any) -> None:
    for page in pages:
        assert page.evaluate("window.__sameDocument === true"), page.url


def _row(page: Any, hand: int) -> Any:
    return page.locator(f"#sheet tr.hand[data-hand='{hand}'] td")


def _totals(page: Any, first: int, second: int) -> None:
    board = page.locator(".scoreboard")
    expect(board.locator("[data-side='0'] .total")).to_have_text(str(first), timeout=LIVE)
    expect(board.locator("[data-side='1'] .total")).to_have_text(str(second), timeout=LIVE)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_two_phones_play_a_whole_game_and_a_spectator_follows(chromium, live_server, language):
    first, second = NAMES[language]
    event = EventFactory(
        name="Thursday club night",
        rules=find_rules("standard", target=50).to_dict(),
        confirmation="opponent",
    )
    players = [PlayerFactory(club=event.club, name=n) for n in (first, second)]
    match: Match = MatchFactory.create(event=event, players=players, table_number=3)
    a = _phone(chromium, live_server, language, f"/l/{match_link_token(match=match, position=0)}/")
    b = _phone(chromium, live_server, language, f"/l/{match_link_token(match=match, position=1)}/")
    spectator = _phone(chromium, live_server, language, f"/matches/{match.pk}/")
    expect(spectator.locator("#entry")).to_have_count(0)

    def says(page: Any, message: str, **values: Any) -> None:
        expect(page.locator("#live-status")).to_contain_text(
            _t(language, message, **values), timeout=LIVE
        )

    # Hand 1, a knock: A picks both hands; the engine's answer shows before anything is sent.
    panel = pick_hand(a, knocker=0, knocker_cards=KNOCK[0], defender_cards=KNOCK[1])
    expect(panel.locator("[data-preview]")).to_contain_text(
        _t(language, "%(name)s scores %(points)s", name=first, points=20)
    )
    panel.locator("button[type=submit]").tap()
    expect(pending_button(a, "withdraw")).to_be_visible()
    _mark(a)  # her own entry loaded her page once
    # B's page shows it by itself and B confirms; A's page and the spectator's follow.
    says(b, "%(who)s entered hand %(n)s — review it.", who=first, n=1)
    expect(b.locator("#pending")).to_contain_text(
        _t(language, "%(w)s scores %(p)s", w=first, p=20), timeout=LIVE
    )
    _not_reloaded(b)
    pending_button(b, "confirm").tap()
    knock_row = ["1", _label(language, "knock"), first, "10", "30", "20", "20", "0"]
    expect(_row(b, 1)).to_have_text(knock_row)
    _mark(b)
    says(a, "%(who)s confirmed hand %(n)s.", who=second, n=1)
    for page in (a, spectator):
        expect(_row(page, 1)).to_have_text(knock_row, timeout=LIVE)
        _totals(page, 20, 0)
    expect(a.locator("#entry h2")).to_have_text(_t(language, "Enter hand %(n)s", n=2))
    _not_reloaded(a, spectator)

    # Hand 2, a dead hand, entered by B and confirmed by A.
    b.locator("#tab-dead").tap()
    b.locator("#panel-dead button[type=submit]").tap()
    expect(pending_button(b, "withdraw")).to_be_visible()
    _mark(b)
    says(a, "%(who)s entered hand %(n)s — review it.", who=second, n=2)
    expect(pending_button(a, "confirm")).to_be_visible(timeout=LIVE)
    _not_reloaded(a)
    pending_button(a, "confirm").tap()
    dead_row = ["2", _label(language, "dead"), "–", "", "", "0", "20", "0"]
    expect(_row(a, 2)).to_have_text(dead_row)
    _mark(a)
    says(b, "%(who)s confirmed hand %(n)s.", who=first, n=2)
    for page in (b, spectator):
        expect(_row(page, 2)).to_have_text(dead_row, timeout=LIVE)
    _not_reloaded(b, spectator)

    # Hand 3, an undercut, and a race: both pick it; B sends first. A is told at once, her
    # picked cards are left alone, and sending them tells her whose entry was kept.
    pick_hand(b, knocker=0, knocker_cards=UNDERCUT[0], defender_cards=UNDERCUT[1])
    pick_hand(a, knocker=0, knocker_cards=UNDERCUT[0], defender_cards=UNDERCUT[1])
    b.locator("#panel-cards button[type=submit]").tap()
    expect(pending_button(b, "withdraw")).to_be_visible()
    _mark(b)
    says(a, "%(who)s entered hand %(n)s — review it.", who=second, n=3)
    expect(a.locator("#panel-cards [data-pick=defender]")).to_have_value(" ".join(UNDERCUT[1]))
    _not_reloaded(a)
    a.locator("#panel-cards button[type=submit]").tap()
    race = a.locator("#race")
    expect(race).to_contain_text(_t(language, "Hand %(n)s: your entry was not stored", n=3))
    expect(race).to_contain_text(
        _t(language, "%(who)s entered this hand first: their entry was kept.", who=second)
    )
    expect(race.locator(".kept")).to_contain_text(
        f"{capfirst(_label(language, 'undercut'))} · "
        + _t(language, "%(w)s scores %(p)s", w=second, p=31)
    )
    assert HandSubmission.objects.filter(hand__game__match=match, hand__number=3).count() == 1
    pending_button(a, "confirm").tap()
    undercut_row = ["3", _label(language, "undercut"), second, "8", "2", "31", "20", "31"]
    expect(_row(a, 3)).to_have_text(undercut_row)
    _mark(a)
    says(b, "%(who)s confirmed hand %(n)s.", who=first, n=3)
    for page in (b, spectator):
        expect(_row(page, 3)).to_have_text(undercut_row, timeout=LIVE)
        _totals(page, 20, 31)
    _not_reloaded(b, spectator)

    # Hand 4, a gin, entered wrong: B disputes it, A sees why, withdraws and enters it again.
    panel = pick_hand(a, knocker=0, knocker_cards=GIN_WRONG[0], defender_cards=GIN_WRONG[1])
    panel.locator("button[type=submit]").tap()
    expect(pending_button(a, "withdraw")).to_be_visible()
    _mark(a)
    says(b, "%(who)s entered hand %(n)s — review it.", who=first, n=4)
    expect(b.locator("#pending")).to_contain_text(
        _t(language, "%(w)s scores %(p)s", w=first, p=33), timeout=LIVE
    )
    _not_reloaded(b)
    reason = "5♥, not 8♥"
    b.locator("#pending .dispute-form input[name=reason]").fill(reason)
    pending_button(b, "dispute").tap()
    expect(b.locator("#pending")).to_have_attribute("data-status", "disputed")
    _mark(b)
    says(a, "%(who)s disputed hand %(n)s.", who=second, n=4)
    expect(a.locator("#pending h2")).to_have_text(_t(language, "Hand %(n)s: disputed", n=4))
    expect(a.locator("#pending .dispute-reason q")).to_have_text(reason)
    expect(spectator.locator(".scoreboard [data-side='0'] .total")).to_have_text("20")
    _not_reloaded(a, spectator)
    pending_button(a, "withdraw").tap()
    expect(a.locator("#pending")).to_have_count(0)
    says(b, "%(who)s withdrew hand %(n)s: it can be entered again.", who=first, n=4)
    expect(b.locator("#pending")).to_have_count(0, timeout=LIVE)
    _not_reloaded(b)
    panel = pick_hand(a, knocker=0, knocker_cards=GIN[0], defender_cards=GIN[1])
    panel.locator("button[type=submit]").tap()
    expect(pending_button(a, "withdraw")).to_be_visible()
    _mark(a)
    expect(b.locator("#pending")).to_contain_text(
        _t(language, "%(w)s scores %(p)s", w=first, p=30), timeout=LIVE
    )
    _not_reloaded(b)
    pending_button(b, "confirm").tap()

    # The game is over at 50: 20 + 30 for A, 31 for B. A takes the game bonus (100) and two
    # boxes, B one (25 each; the dead hand is nobody's); no shutout, as B won a hand.
    # Final: 50 + 100 + 50 = 200 against 31 + 25 = 56, a margin of 144.
    gin_row = ["4", _label(language, "gin"), first, "0", "5", "30", "50", "31"]
    ledger = [
        [_t(language, "Points"), "50", "31"],
        [_t(language, "Game bonus"), "100", "0"],
        [_t(language, "Box bonus"), "50", "25"],
        [_t(language, "Final", context="score sheet total"), "200", "56"],
    ]
    for page in (b, a, spectator):
        expect(_row(page, 4)).to_have_text(gin_row, timeout=LIVE)
        rows = page.locator("#sheet table.bonuses tbody tr")
        expect(rows).to_have_count(len(ledger))
        for line, values in zip(rows.all(), ledger, strict=True):
            expect(line.locator("td")).to_have_text(values)
        expect(page.locator("#sheet .margin")).to_have_text(
            _t(language, "%(w)s wins by %(m)s", w=first, m=144)
        )
        expect(page.locator("[data-live-region=scoreboard] .notice.ok")).to_have_text(
            _t(language, "%(w)s wins the match.", w=first)
        )
        expect(page.locator("#entry")).to_have_count(0)
    if language == "ko":  # the catalogue is really used, not the English words
        expect(a.locator("#sheet .margin")).to_have_text("서연 144점 차 승리")
    says(a, "%(who)s confirmed hand %(n)s.", who=second, n=4)
    _not_reloaded(a, spectator)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    for page in (a, b, spectator):
        page.context.close()
