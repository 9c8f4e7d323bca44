"""Where a player is at a table (issue 13): the status that follows play, "You are … (seat n)",
the hand and who deals it (teams deal, players deal), the entry waiting in words, the sheet's
columns explained, and a partnership table named by its teams."""

from __future__ import annotations

from typing import Any

import pytest

from engine.rules import find_rules
from scoring.models import Match
from scoring.permissions import Actor
from scoring.selectors import match_display_status, match_prefetched, match_state
from scoring.services import (
    entry_from_dict,
    hand_confirm,
    hand_dispute,
    hand_submit,
    match_link_token,
)
from tests.clubs.factories import PlayerFactory
from tests.scoring.factories import MatchFactory
from tests.scoring.pages import Client
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db

KNOCK = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}


def _match(preset: str = "standard", names: tuple[str, ...] = ("Alice", "Bob"), **kw: Any) -> Any:
    event = EventFactory(
        rules=find_rules(preset).to_dict(), confirmation="opponent", kind="club_night", **kw
    )
    players = [PlayerFactory(club=event.club, name=n) for n in names]
    return MatchFactory(event=event, players=players)


def _seat(match: Match, position: int | None) -> Actor:
    return Actor(token=match_link_token(match=match, position=position))


def _status(match: Match, show_pending: bool = True) -> str:
    state = match_state(match=match_prefetched(match_id=match.pk))
    return match_display_status(state=state, show_pending=show_pending)


def _page(match: Match, position: int | None) -> str:
    url = f"/matches/{match.pk}/?k={match_link_token(match=match, position=position)}"
    return Client().get(url).content.decode()


def test_the_status_follows_the_play_while_the_stored_one_lags():
    match = _match()
    assert _status(match) == "scheduled"
    sub = hand_submit(match=match, actor=_seat(match, 0), entry=entry_from_dict(KNOCK))
    assert Match.objects.get(pk=match.pk).status != "waiting"  # the stored status lags
    assert _status(match) == "waiting"
    assert _status(match, show_pending=False) == "playing"  # spectators see no entry
    hand_dispute(submission=sub, actor=_seat(match, 1), reason="I had 15")
    assert _status(match) == "disputed"
    match.decision = "walkover"
    match.save(update_fields=["decision"])
    assert _status(match) == "walkover"


def test_a_confirmed_hand_is_playing_and_a_won_game_finished():
    match = _match()
    sub = hand_submit(match=match, actor=_seat(match, 0), entry=entry_from_dict(KNOCK))
    hand_confirm(submission=sub, actor=_seat(match, 1))
    assert _status(match) == "playing"
    big = {"knocker": 0, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 90}
    sub = hand_submit(match=match, actor=_seat(match, 0), entry=entry_from_dict(big))
    hand_confirm(submission=sub, actor=_seat(match, 1))
    assert _status(match) == "finished"


def test_the_seat_page_says_who_you_are_the_hand_the_dealer_and_the_entry_waiting():
    match = _match()
    html = _page(match, 1)
    assert "You are Bob (seat 2)." in html
    assert "Game 1, hand 1: Alice deals." in html
    assert 'data-status="scheduled"' in html
    hand_submit(match=match, actor=_seat(match, 0), entry=entry_from_dict(KNOCK))
    html = _page(match, 1)
    assert "Alice entered hand 1: check it, then confirm or dispute." in html
    assert 'data-status="waiting"' in html
    assert "waiting for confirmation" in html
    mine = _page(match, 0)
    assert "You entered hand 1: the other side confirms it." in mine
    table = _page(match, None)
    assert "This is the table&#x27;s shared phone." in table


def test_the_knocker_starts_as_the_visitor_and_the_picker_is_offered():
    match = _match()
    html = _page(match, 1)
    assert 'name="knocker" value="1" checked' in html
    assert 'name="knocker" value="0" checked' not in html
    assert "data-picker" in html
    assert f"/api/matches/{match.pk}/hands/preview/" in html
    assert html.count("data-card=") == 52
    # the table's phone is nobody: no knocker is ticked for it
    assert " checked" not in _page(match, None).split('name="knocker"')[1].split(">")[0]


def test_the_picker_names_each_card_in_the_pages_language():
    """The deck's 52 buttons are drawn once per language and process: English and Korean each
    get their own names, in picking order, escaped as the template would."""
    from django.utils import translation

    from scoring.views.picker import deck_buttons

    with translation.override("en"):
        english = str(deck_buttons())
    with translation.override("ko"):
        korean = str(deck_buttons())
    with translation.override("en"):
        assert str(deck_buttons()) == english
    first = (
        '<button type="button" class="card" data-card="AS" aria-pressed="false" '
        'aria-label="A♠ ace of spades">A♠</button>'
    )
    assert english.startswith(first)
    assert 'class="card red" data-card="AH"' in english
    assert english.count("<button") == korean.count("<button") == 52
    assert korean != english
    assert "ace of spades" not in korean
    html = _page(_match(), 1)
    assert first in html


def test_an_error_is_tied_to_its_field():
    match = _match()
    client = Client()
    client.get(f"/matches/{match.pk}/?k={match_link_token(match=match, position=0)}")
    response = client.post(
        f"/matches/{match.pk}/hands/",
        {"mode": "counts", "knocker": "0", "outcome": "knock", "knocker_deadwood": "12",
         "defender_deadwood": "30"},
    )  # fmt: skip
    html = response.content.decode()
    assert response.status_code == 400
    assert 'aria-invalid="true" aria-describedby="counts-kd-err"' in html
    assert 'id="counts-kd-err"' in html


def test_the_sheet_explains_its_columns():
    match = _match()
    html = _page(match, 0)
    assert '<abbr title="knocker deadwood">K</abbr>' in html
    assert 'aria-describedby="sheet-legend-1"' in html
    assert "the defender's deadwood after lay-offs" in html


def test_a_partnership_reads_as_teams():
    match = _match(preset="partnership", names=("Zeke", "Cleo", "Elif", "Gus"))
    html = _page(match, 1)
    assert "You are Cleo (seat 2). Your team: Cleo &amp; Gus." in html
    assert "Game 1, hand 1: Zeke &amp; Elif deal." in html
    event_page = Client().get(f"/events/{match.event.pk}/").content.decode()
    assert 'Zeke &amp; Elif <span class="muted">v</span> Cleo &amp; Gus' in event_page
    assert 'Zeke <span class="muted">v</span> Cleo' not in event_page


def test_the_seat_page_in_korean():
    match = _match()
    client = Client(HTTP_ACCEPT_LANGUAGE="ko")
    html = client.get(f"/matches/{match.pk}/?k={match_link_token(match=match, position=1)}")
    text = html.content.decode()
    assert "Bob (2번 좌석) 님으로 참가하고 있습니다." in text
    assert "당신" not in text
    assert "1번 게임, 1번 핸드: Alice 님이 딜합니다." in text
    assert "시작 전" in text


def test_a_disputed_hand_reads_right_in_korean_to_the_other_player_and_a_director():
    """The sentence about a disputed hand names who entered it without a fallback particle
    ("Bao이(가) 입력한" was read on the page before)."""
    match = _match(names=("Bao", "Dan"))
    sub = hand_submit(match=match, actor=_seat(match, 0), entry=entry_from_dict(KNOCK))
    hand_dispute(submission=sub, actor=_seat(match, 1), reason="I had 15")
    client = Client(HTTP_ACCEPT_LANGUAGE="ko")
    link = match_link_token(match=match, position=1)
    text = client.get(f"/matches/{match.pk}/?k={link}").content.decode()
    assert "Bao 님이 입력한 1번 핸드에 이의가 제기되었습니다. 디렉터가 판정합니다." in text
    assert "이(가)" not in text


def test_the_event_page_shows_the_status_a_spectator_can_read():
    match = _match()
    page = Client().get(f"/events/{match.event.pk}/").content.decode()
    assert '<span class="badge scheduled">not started</span>' in page
    hand_submit(match=match, actor=_seat(match, 0), entry=entry_from_dict(KNOCK))
    page = Client().get(f"/events/{match.event.pk}/").content.decode()
    # a hand was played (its entry, not yet counted, stays hidden from spectators)
    assert '<span class="badge playing">playing</span>' in page
