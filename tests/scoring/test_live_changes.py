"""The last change of a match, read as the few columns it needs: who did what to which hand,
for a player's move and for a director's, in one query."""

from __future__ import annotations

import re

import pytest

from scoring.permissions import Actor
from scoring.selectors.changes import match_last_change
from scoring.services import entry_from_dict, hand_confirm, hand_override, hand_submit
from tests.clubs.factories import UserFactory
from tests.scoring.helpers import knock_enter, live_match, seat_actor, seat_client

pytestmark = pytest.mark.django_db


def test_the_last_change_says_who_did_what_in_one_query(django_assert_num_queries):
    match = live_match()
    assert match_last_change(match_id=match.pk) is None
    sub = knock_enter(match, position=1)
    with django_assert_num_queries(1):
        entered = match_last_change(match_id=match.pk)
    assert entered is not None
    assert (entered.action, entered.hand_number, entered.submission_id) == ("entered", 1, sub.pk)
    dee = match.seats.get(position=1).player
    assert (entered.player_id, entered.player_name) == (dee.pk, "Dee")
    assert (entered.user_id, entered.user_name) == (None, "")
    hand_confirm(submission=sub, actor=seat_actor(match, 0))
    confirmed = match_last_change(match_id=match.pk)
    assert confirmed is not None
    assert confirmed.id > entered.id
    assert (confirmed.action, confirmed.player_name) == ("confirmed", "Cleo")

    director = UserFactory(username="dora")
    match.event.directors.add(director)
    entry = entry_from_dict(
        {"knocker": 0, "outcome": "knock", "knocker_deadwood": 2, "defender_deadwood": 9}
    )
    hand_override(submission=sub, actor=Actor(user=director), entry=entry, reason="typo")
    corrected = match_last_change(match_id=match.pk)
    assert corrected is not None
    assert (corrected.action, corrected.hand_number) == ("corrected", 1)
    assert (corrected.user_id, corrected.user_name) == (director.pk, "dora")
    assert (corrected.player_id, corrected.player_name) == (None, "")


def test_a_players_live_regions_take_a_fixed_number_of_queries(django_assert_max_num_queries):
    """The session, the match, its seats, games, hands and entries, the seat's key and the last
    change: as many after six hands as after one."""
    match = live_match()
    sub = knock_enter(match, position=1)
    client = seat_client(match, 0)
    url = f"/matches/{match.pk}/live/"
    with django_assert_max_num_queries(8):
        first = client.get(url)
    assert b"Dee entered hand 1" in first.content
    hand_confirm(submission=sub, actor=seat_actor(match, 0))
    low = {"outcome": "knock", "knocker_deadwood": 2, "defender_deadwood": 6}
    for n in range(2, 7):
        seat = 1 if n % 2 else 0
        entry = entry_from_dict({"knocker": seat, **low})
        sub = hand_submit(match=match, actor=seat_actor(match, seat), entry=entry)
        if n < 6:
            hand_confirm(submission=sub, actor=seat_actor(match, 1 - seat))
    with django_assert_max_num_queries(8):
        later = client.get(url)
    assert f'data-live-key="{sub.pk}-pending"'.encode() in later.content
    assert f"/entries/{sub.pk}/confirm/".encode() not in later.content  # their own entry
    assert later.content.count(b'data-live-region="') == first.content.count(b'data-live-region="')


def _where(content: bytes) -> str:
    found = re.search(r'<div class="where" id="where">.*?</div>', content.decode(), re.S)
    assert found is not None
    return found.group(0)


def test_the_live_head_region_keeps_where_the_player_is_as_the_page_shows_it():
    """The page's head region holds where the visitor is (whose turn, who deals, the entry
    waiting): the live region swapped in for it holds the same, not the heading alone. A new
    entry that arrives live is told once, by the live notice, not again in the region."""
    match = live_match()
    client = seat_client(match, 0)
    before = client.get(f"/matches/{match.pk}/live/")
    knock_enter(match, position=1)
    page = client.get(f"/matches/{match.pk}/")
    live = client.get(f"/matches/{match.pk}/live/")
    told = re.sub(r'\s*<p class="pending-words">.*?</p>', "", _where(page.content))
    assert re.sub(r"\s+", " ", _where(live.content)) == re.sub(r"\s+", " ", told)
    assert "Dee entered hand 1" in _where(page.content)
    assert "Dee entered hand 1 — review it." in live.content.decode()
    assert "You are Cleo" in _where(live.content)
    assert "Dee entered hand 1" not in before.content.decode()
