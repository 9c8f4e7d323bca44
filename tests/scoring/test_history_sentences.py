"""The director's hand page: the history as sentences without IPs or user agents, the override
form starting from the stored entry, and a corrected hand marked on the score sheet."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scoring.models import HandSubmission
from scoring.permissions import Actor
from scoring.services import (
    entry_from_dict,
    hand_confirm,
    hand_dispute,
    hand_override,
    hand_submit,
    match_link_token,
)
from scoring.views.history import stored_entry, verdict_sentence
from tests.clubs.factories import PlayerFactory
from tests.scoring.factories import MatchFactory, event_director
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db


def _match(confirmation: str = "opponent"):
    event = EventFactory(confirmation=confirmation)
    players = [PlayerFactory(club=event.club, name=n) for n in ("Bao", "Cleo")]
    return MatchFactory(event=event, players=players)


def _seat(match, position: int) -> Actor:
    return Actor(
        token=match_link_token(match=match, position=position),
        ip="127.0.0.1",
        user_agent="bao-phone",
    )


def _knock(kd: int, dd: int) -> object:
    return entry_from_dict(
        {"knocker": 0, "outcome": "knock", "knocker_deadwood": kd, "defender_deadwood": dd}
    )


def _director_client(match) -> Client:
    client = Client()
    client.force_login(event_director(match.event))
    return client


def test_the_history_reads_as_sentences_without_where_it_came_from():
    match = _match()
    sub = hand_submit(match=match, actor=_seat(match, 0), entry=_knock(5, 20))
    hand_dispute(submission=sub, actor=_seat(match, 1), reason="I had 25")
    client = _director_client(match)
    html = client.get(f"/matches/{match.pk}/entries/{sub.pk}/").content.decode()
    assert "Bao entered: Bao knocked with 5, Cleo 20 — 15 points" in html
    assert "Cleo disputed it: “I had 25”" in html
    assert "bao-phone" not in html
    assert "127.0.0.1" not in html
    assert "knocker_deadwood:" not in html


def test_the_override_form_starts_from_the_stored_entry_and_the_sheet_marks_it():
    match = _match()
    sub = hand_submit(match=match, actor=_seat(match, 0), entry=_knock(7, 31))
    hand_confirm(submission=sub, actor=_seat(match, 1))
    client = _director_client(match)
    html = client.get(f"/matches/{match.pk}/entries/{sub.pk}/").content.decode()
    assert re.search(r'name="knocker_deadwood" value="7"', html)
    assert re.search(r'name="defender_deadwood" value="31"', html)
    assert re.search(r'name="knocker" value="0"\s+checked', html)
    director = Actor(user=event_director(match.event))
    hand_override(submission=sub, actor=director, entry=_knock(7, 35), reason="Recounted")
    sheet = client.get(f"/matches/{match.pk}/").content.decode()
    assert "✎ corrected: <q>Recounted</q>" in sheet
    assert 'class="hand corrected"' in sheet
    page = client.get(f"/matches/{match.pk}/entries/{sub.pk}/").content.decode()
    assert "corrected it (version 2): Bao knocked with 7, Cleo 35 — 28 points" in page
    assert "Reason: Recounted" in page
    # Players see the mark too: a correction is part of the record.
    table = Client().get(f"/matches/{match.pk}/").content.decode()
    assert "✎ corrected: <q>Recounted</q>" in table


def test_verdict_sentences_for_each_outcome():
    names = {0: "Bao", 1: "Cleo"}
    gin = {"outcome": "gin", "knocker": 0, "knocker_deadwood": 0, "defender_deadwood": 30}
    assert verdict_sentence({**gin, "points": 55}, names) == "Bao went gin, Cleo 30 — 55 points"
    under = {"outcome": "undercut", "knocker": 0, "knocker_deadwood": 8, "defender_deadwood": 5}
    assert verdict_sentence({**under, "points": 28}, names) == (
        "Bao knocked with 8, Cleo undercut with 5 — 28 points to Cleo"
    )
    assert verdict_sentence({"outcome": "dead", "points": 0}, names) == "Dead hand: no score"
    rummy = {"outcome": "rummy", "winner": 1, "points": 40}
    assert verdict_sentence(rummy, names) == "Cleo won the hand — 40 points"


def test_stored_entry_of_a_dead_hand_and_of_cards():
    dead = HandSubmission(entry="dead", payload={"outcome": "dead"})
    assert stored_entry(dead) == ("dead", {})
    cards = HandSubmission(
        entry="cards",
        payload={"knocker": 1, "knocker_cards": "AS 2S", "knocker_melds": ["AS 2S 3S", "7H 7D 7C"]},
    )
    tab, posted = stored_entry(cards)
    assert tab == "cards"
    assert posted == {
        "knocker": "1",
        "knocker_cards": "AS 2S",
        "knocker_melds": "AS 2S 3S | 7H 7D 7C",
    }
