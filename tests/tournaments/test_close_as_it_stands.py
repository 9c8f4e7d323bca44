"""Closing a table as it stands at time (docs/rules.md §11, ``at_time`` = ``as_it_stands``): the
service (the leader wins by the difference without bonuses, level is a draw, every refusal
storing nothing), the API route and the console's button on the tables after time."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import ClubRole
from core.errors import ApplicationError
from engine.rules import find_rules
from scoring.models import Game, Match
from scoring.permissions import Actor
from scoring.services import entry_from_dict, hand_override, match_close_as_it_stands
from tests.clubs.factories import ClubRoleFactory
from tests.clubs.helpers import page_client
from tests.scoring.factories import HandSubmissionFactory
from tests.tournaments.factories import swiss_event
from tests.tournaments.helpers import open_matches
from tournaments.models import Event, Round
from tournaments.services import round_pair
from tournaments.services.clock import round_clock_start

pytestmark = pytest.mark.django_db


def _later(seconds: float):
    moment = timezone.now() + timedelta(seconds=seconds)
    return mock.patch("django.utils.timezone.now", return_value=moment)


def _event(at_time: str = "as_it_stands") -> Event:
    event = swiss_event(4, rules=find_rules("standard").to_dict())
    Event.objects.filter(pk=event.pk).update(options={"at_time": at_time})
    event.refresh_from_db()
    round_pair(event=event)
    return event


@pytest.fixture
def event() -> Event:
    return _event()


@pytest.fixture
def boss(event):
    return ClubRoleFactory(club=event.club, role=ClubRole.Role.DIRECTOR).user


def _started(event, boss) -> Match:
    round_clock_start(rnd=Round.objects.get(event=event, number=1), user=boss, minutes=10)
    return open_matches(event.pk, 1)[0]


def _knock(match, seat: int) -> None:
    """A knock of 25 - 5 = 20 points to ``seat``."""
    HandSubmissionFactory(match=match, knocker=seat)


def test_the_leader_wins_by_the_difference_without_any_bonus(event, boss):
    match = _started(event, boss)
    _knock(match, 0)
    _knock(match, 1)
    _knock(match, 0)
    with _later(11 * 60):
        standing = match_close_as_it_stands(match=match, actor=Actor(user=boss))
    assert (standing.winner, standing.margin, standing.game_totals) == (0, 20, (40, 20))
    match.refresh_from_db()
    seat0 = match.seats.get(position=0).player_id
    assert match.status == Match.Status.FINISHED
    assert match.winner_id == seat0
    assert match.decision == Match.Decision.PLAYED
    assert match.summary["as_it_stands"]["by"] == boss.pk
    assert match.summary["margin"] == 20
    game = Game.objects.get(match=match, number=1)
    assert game.status == Game.Status.FINISHED
    assert (game.winner_position, game.margin) == (0, 20)  # no box bonus: 40 - 20
    assert game.result == {"as_it_stands": True, "totals": [40, 20]}


def test_level_points_are_a_draw(event, boss):
    match = _started(event, boss)
    _knock(match, 0)
    _knock(match, 1)
    with _later(11 * 60):
        standing = match_close_as_it_stands(match=match, actor=Actor(user=boss))
    assert standing.winner is None
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.winner_id is None


def _refused(match, user, status):
    with pytest.raises(ApplicationError) as refused:
        match_close_as_it_stands(match=match, actor=Actor(user=user))
    assert refused.value.status == status
    assert Match.objects.get(pk=match.pk).status != Match.Status.FINISHED
    return refused.value.message


def test_refused_when_the_event_plays_on():
    event = _event("play_on")
    boss = ClubRoleFactory(club=event.club, role=ClubRole.Role.DIRECTOR).user
    match = _started(event, boss)
    with _later(11 * 60):
        assert "plays matches out" in _refused(match, boss, 409)


def test_refused_before_time_and_without_a_clock(event, boss):
    match = open_matches(event.pk, 1)[0]
    assert "not up" in _refused(match, boss, 409)  # no clock at all
    _started(event, boss)
    assert "not up" in _refused(match, boss, 409)


def test_refused_while_a_hand_awaits_confirmation(event, boss):
    Event.objects.filter(pk=event.pk).update(confirmation=Event.Confirmation.OPPONENT)
    match = _started(event, boss)
    _knock(match, 0)  # a director's entry waits for a player of the other side
    with _later(11 * 60):
        assert "waiting for confirmation" in _refused(match, boss, 409)


def test_refused_once_finished_and_for_anyone_but_a_director(event, boss):
    match = _started(event, boss)
    seated = match.seats.first().player
    with _later(11 * 60):
        assert _refused(match, None, 403)
        match_close_as_it_stands(match=match, actor=Actor(user=boss))
        with pytest.raises(ApplicationError) as again:
            match_close_as_it_stands(match=match, actor=Actor(user=boss))
    assert again.value.status == 409
    assert seated is not None


def test_the_api_closes_a_table_and_refuses_with_a_clear_message(event, boss):
    match = _started(event, boss)
    _knock(match, 1)
    client = APIClient()
    client.force_authenticate(boss)
    url = f"/api/events/{event.pk}/matches/{match.pk}/close-as-it-stands/"
    early = client.post(url)
    assert early.status_code == 409
    assert early.json()["detail"] == "This table's time is not up yet."
    with _later(11 * 60):
        done = client.post(url)
    assert done.status_code == 200, done.content
    assert done.json()["status"] == "finished"
    assert Match.objects.get(pk=match.pk).winner_id == match.seats.get(position=1).player_id
    anonymous = APIClient().post(url)
    assert anonymous.status_code in (401, 403)


def test_the_console_offers_the_button_only_when_the_event_scores_as_it_stands(event, boss):
    match = _started(event, boss)
    client = page_client(boss)
    with _later(11 * 60):
        html = client.get(f"/events/{event.pk}/console/").content.decode()
        assert "Close as it stands" in html
        done = client.post(f"/events/{event.pk}/matches/{match.pk}/close-as-it-stands/")
    assert done.status_code == 302
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    Event.objects.filter(pk=event.pk).update(options={"at_time": "play_on"})
    with _later(11 * 60):
        html = client.get(f"/events/{event.pk}/console/").content.decode()
    assert "Close as it stands" not in html


def test_no_hand_is_entered_after_closing_and_the_result_stands(event, boss):
    match = _started(event, boss)
    _knock(match, 0)
    with _later(11 * 60):
        match_close_as_it_stands(match=match, actor=Actor(user=boss))
    with pytest.raises(ApplicationError) as over:
        _knock(match, 1)
    assert over.value.status == 409
    assert over.value.message == "This match is over."
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.winner_id == match.seats.get(position=0).player_id


def test_a_correction_after_closing_changes_the_result_as_it_stands(event, boss):
    """A director corrects a hand of a closed table: its result is read again from the hands as
    they now are (as any other match's), and the organiser hears of the corrected result."""
    match = _started(event, boss)
    first = HandSubmissionFactory(match=match, knocker=0)  # seat 1 ahead by 20
    _knock(match, 1)
    _knock(match, 0)
    with _later(11 * 60):
        match_close_as_it_stands(match=match, actor=Actor(user=boss))
    seat = {p: match.seats.get(position=p).player_id for p in (0, 1)}
    match.refresh_from_db()
    assert (match.winner_id, match.summary["margin"]) == (seat[0], 20)
    # The first hand was really the other player's knock: seat 2 now leads 40 to 20.
    correction = entry_from_dict(
        {"knocker": 1, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}
    )
    hand_override(submission=first, actor=Actor(user=boss), entry=correction, reason="Recounted")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.summary["as_it_stands"]["by"] == boss.pk  # still closed, by whom it was
    assert (match.winner_id, match.summary["margin"]) == (seat[1], 20)
    game = Game.objects.get(match=match, number=1)
    assert (game.winner_position, game.margin) == (1, 20)
    assert game.result["totals"] == [20, 40]
