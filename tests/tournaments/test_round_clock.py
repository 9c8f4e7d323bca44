"""The round's clock as stored: the services (who may run it, each move, refusals storing
nothing, the event's log, the live versions), the selectors (a table's extra time, tables after
time), the console, the round, event, match and projector pages, and the API."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from clubs.models import ClubRole
from core.errors import ApplicationError
from scoring.models import Match
from scoring.organiser import organiser
from tests.clubs.factories import ClubRoleFactory, UserFactory
from tests.clubs.helpers import page_client
from tests.tournaments.factories import swiss_event
from tests.tournaments.helpers import open_matches, play, seated
from tournaments.models import Event, EventLog, Round
from tournaments.selectors import event_console
from tournaments.selectors.clock import (
    event_clock_state,
    match_clock_state,
    round_clock_state,
    round_tables_after_time,
)
from tournaments.selectors.live import event_version
from tournaments.services import round_pair
from tournaments.services.clock import (
    round_clock_extend,
    round_clock_pause,
    round_clock_resume,
    round_clock_set,
    round_clock_start,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    event = swiss_event(8)
    round_pair(event=event)
    return event


@pytest.fixture
def boss(event):
    return ClubRoleFactory(club=event.club, role=ClubRole.Role.DIRECTOR).user


def _round(event: Event) -> Round:
    return Round.objects.get(event=event, number=1)


def _later(seconds: float):
    """Pretend ``seconds`` have passed (services and selectors read timezone.now)."""
    moment = timezone.now() + timedelta(seconds=seconds)
    return mock.patch("django.utils.timezone.now", return_value=moment)


def test_pairing_does_not_start_a_clock_and_a_round_without_length_has_none(event):
    rnd = _round(event)
    assert round_clock_state(rnd=rnd) is None
    assert event_console(event=event).clock is None


def test_a_director_sets_starts_pauses_resumes_and_each_move_is_logged(event, boss):
    rnd = round_clock_set(rnd=_round(event), user=boss, minutes=50)
    state = round_clock_state(rnd=rnd)
    assert state is not None
    assert state.phase == "ready"
    assert state.remaining == 3000
    rnd = round_clock_start(rnd=rnd, user=boss)
    state = round_clock_state(rnd=rnd)
    assert state is not None
    assert state.phase == "running"
    assert state.deadline is not None
    with _later(600):
        rnd = round_clock_pause(rnd=rnd, user=boss)
    with _later(900):
        state = round_clock_state(rnd=rnd)
        assert state is not None
        assert state.phase == "paused"
        assert 2399 <= state.remaining <= 2401
        rnd = round_clock_resume(rnd=rnd, user=boss)
    assert rnd.clock_paused_total >= 299
    actions = list(
        EventLog.objects.filter(event=event, kind=EventLog.Kind.ROUND_CLOCK)
        .order_by("id")
        .values_list("details__action", flat=True)
    )
    assert actions == ["set", "start", "pause", "resume"]
    assert EventLog.objects.filter(user=boss, round_number=1).count() == 4


def test_start_with_minutes_sets_them_first(event, boss):
    rnd = round_clock_start(rnd=_round(event), user=boss, minutes=30)
    assert rnd.clock_length == 1800
    assert rnd.clock_started_at is not None


@pytest.mark.parametrize("who", ["stranger", "anonymous", "player"])
def test_only_the_events_directors_run_its_clock(event, who):
    user = {
        "stranger": UserFactory(),
        "anonymous": None,
        "player": ClubRoleFactory(club=event.club, role=ClubRole.Role.SCORER).user
        if hasattr(ClubRole.Role, "SCORER")
        else UserFactory(),
    }[who]
    with pytest.raises(ApplicationError) as caught:
        round_clock_set(rnd=_round(event), user=user, minutes=50)
    assert caught.value.status == 403
    assert _round(event).clock_length is None


@pytest.mark.parametrize("minutes", [0, -5, 24 * 60 + 1, True, 2.5])
def test_a_length_out_of_bounds_is_refused_and_nothing_stored(event, boss, minutes):
    with pytest.raises(ApplicationError) as caught:
        round_clock_set(rnd=_round(event), user=boss, minutes=minutes)
    assert caught.value.status == 400
    assert _round(event).clock_length is None
    assert not EventLog.objects.filter(kind=EventLog.Kind.ROUND_CLOCK).exists()


def test_moves_out_of_order_are_refused_with_409_and_nothing_stored(event, boss):
    rnd = _round(event)
    with pytest.raises(ApplicationError) as caught:
        round_clock_start(rnd=rnd, user=boss)
    assert caught.value.status == 409
    rnd = round_clock_set(rnd=rnd, user=boss, minutes=10)
    for move in (round_clock_pause, round_clock_resume):
        with pytest.raises(ApplicationError) as caught:
            move(rnd=rnd, user=boss)
        assert caught.value.status == 409
    rnd = round_clock_start(rnd=rnd, user=boss)
    seq = Round.objects.get(pk=rnd.pk).clock_seq
    with pytest.raises(ApplicationError):
        round_clock_start(rnd=rnd, user=boss)
    with pytest.raises(ApplicationError):
        round_clock_resume(rnd=rnd, user=boss)
    assert Round.objects.get(pk=rnd.pk).clock_seq == seq


def test_the_clock_of_a_finished_event_stays_as_it_is(event, boss):
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    with pytest.raises(ApplicationError) as caught:
        round_clock_set(rnd=_round(event), user=boss, minutes=10)
    assert caught.value.status == 409


def test_one_table_gets_extra_time_and_is_the_last_after_time(event, boss):
    rnd = round_clock_start(rnd=_round(event), user=boss, minutes=10)
    first, second, *_ = open_matches(event.pk, 1)
    rnd = round_clock_extend(rnd=rnd, user=boss, match_id=first.pk, minutes=5)
    assert rnd.clock_extensions == {str(first.pk): 300}
    with _later(11 * 60):
        late = {m.pk for m in round_tables_after_time(rnd=rnd)}
        assert second.pk in late
        assert first.pk not in late
        extended = match_clock_state(match=first)
        assert extended is not None
        assert not extended.at_time
        assert extended.extension == 300
        other = match_clock_state(match=second)
        assert other is not None
        assert other.at_time
        assert other.phase == "time"
    with _later(16 * 60):
        assert first.pk in {m.pk for m in round_tables_after_time(rnd=rnd)}


def test_extra_time_for_a_table_of_another_round_is_refused(event, boss):
    other = swiss_event(4)
    round_pair(event=other)
    stray = open_matches(other.pk, 1)[0]
    rnd = round_clock_start(rnd=_round(event), user=boss, minutes=10)
    with pytest.raises(ApplicationError) as caught:
        round_clock_extend(rnd=rnd, user=boss, match_id=stray.pk, minutes=5)
    assert caught.value.status == 400
    for minutes in (0, 241, -1):
        with pytest.raises(ApplicationError):
            round_clock_extend(
                rnd=rnd, user=boss, match_id=open_matches(event.pk, 1)[0].pk, minutes=minutes
            )
    assert Round.objects.get(pk=rnd.pk).clock_extensions == {}


def test_finished_tables_are_not_listed_after_time(event, boss):
    rnd = round_clock_start(rnd=_round(event), user=boss, minutes=10)
    done = open_matches(event.pk, 1)[0]
    play(done, winner=seated(done)[0])
    with _later(11 * 60):
        late = [m.pk for m in round_tables_after_time(rnd=rnd)]
        console = event_console(event=event)
    assert done.pk not in late
    assert len(late) == 3
    assert [t.match_id for t in console.after_time] == late


def test_every_change_moves_the_event_and_match_versions(event, boss):
    match = open_matches(event.pk, 1)[0]
    before_event = event_version(event_id=event.pk)
    before_match = Match.objects.get(pk=match.pk).live_seq
    round_clock_set(rnd=_round(event), user=boss, minutes=10)
    assert event_version(event_id=event.pk) != before_event
    assert Match.objects.get(pk=match.pk).live_seq == before_match + 1


def test_every_change_is_pushed_to_the_event_and_the_rounds_tables(event, boss, settings):
    settings.KNOCK_LIVE_PUBLISH_URL = "http://127.0.0.1:9/live/pub/"
    with mock.patch("tournaments.services.clock.live_changed") as told:
        round_clock_set(rnd=_round(event), user=boss, minutes=10)
    pages = [c.kwargs["page"] for c in told.call_args_list]
    assert pages.count("event") == 1
    assert pages.count("match") == 4


def test_the_organiser_tells_scoring_a_tables_clock(event, boss):
    match = open_matches(event.pk, 1)[0]
    assert organiser().clock_for(match=match) is None
    round_clock_start(rnd=_round(event), user=boss, minutes=10)
    clock = organiser().clock_for(match=match)
    assert clock is not None
    assert clock.round_number == 1
    assert clock.deadline_ms is not None
    assert event_clock_state(event=event) is not None


# -- pages ---------------------------------------------------------------------------------


def test_the_console_offers_start_then_shows_the_clock_and_pause(event, boss):
    client = page_client(boss)
    page = client.get(f"/events/{event.pk}/console/").content.decode()
    assert 'id="round-clock"' in page
    assert 'value="start"' in page
    response = client.post(
        f"/events/{event.pk}/rounds/1/clock/", {"action": "start", "minutes": "45"}
    )
    assert response.status_code == 302
    page = client.get(f"/events/{event.pk}/console/").content.decode()
    assert "data-clock" in page
    assert 'value="pause"' in page
    assert "Round 1: clock started by" in page


def test_the_console_lists_tables_after_time_and_the_event_setting(event, boss):
    round_clock_start(rnd=_round(event), user=boss, minutes=10)
    client = page_client(boss)
    with _later(11 * 60):
        page = client.get(f"/events/{event.pk}/console/").content.decode()
    assert 'id="after-time"' in page
    assert "4 tables still playing after time" in page
    assert "played out" in page


def test_a_refused_clock_move_on_the_console_says_why(event, boss):
    client = page_client(boss)
    response = client.post(
        f"/events/{event.pk}/rounds/1/clock/", {"action": "start", "minutes": "abc"}, follow=True
    )
    assert "Type the minutes as a whole number." in response.content.decode()
    response = client.post(f"/events/{event.pk}/rounds/1/clock/", {"action": "pause"}, follow=True)
    assert "The round&#x27;s clock has not started." in response.content.decode()
    assert _round(event).clock_length is None


def test_a_stranger_cannot_run_the_clock_from_a_page(event):
    client = page_client(UserFactory())
    response = client.post(f"/events/{event.pk}/rounds/1/clock/", {"action": "set", "minutes": 5})
    assert response.status_code == 404
    assert _round(event).clock_length is None


def test_at_time_every_page_of_the_round_says_so(event, boss):
    round_clock_start(rnd=_round(event), user=boss, minutes=10)
    match = open_matches(event.pk, 1)[0]
    client = page_client()
    notice = "Time: finish the hand being played."
    with _later(11 * 60):
        pages = {
            "round": client.get(f"/events/{event.pk}/rounds/1/"),
            "event": client.get(f"/events/{event.pk}/"),
            "live": client.get(f"/events/{event.pk}/live/"),
            "projector": client.get(f"/events/{event.pk}/projector/"),
            "match": page_client(boss).get(f"/matches/{match.pk}/"),
            "console": page_client(boss).get(f"/events/{event.pk}/console/"),
        }
    for name, response in pages.items():
        html = response.content.decode()
        assert response.status_code == 200, name
        assert notice in html, name
        assert 'data-clock-time role="alert">' in html, name  # shown, not hidden


def test_before_time_the_notice_is_there_but_hidden_for_the_script(event, boss):
    round_clock_start(rnd=_round(event), user=boss, minutes=10)
    html = page_client().get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert 'data-clock-time role="alert" hidden' in html
    assert "data-clock-deadline=" in html
    assert 'data-live-region="clock"' in html
    assert "data-live-fragment-url" in html


# -- API -----------------------------------------------------------------------------------


def test_the_api_runs_and_reads_the_clock(event, boss, api):
    api.force_authenticate(boss)
    url = f"/api/events/{event.pk}/rounds/1/clock/"
    assert api.get(url).json()["phase"] == "unset"
    body = api.post(url, {"action": "start", "minutes": 20}, format="json").json()
    assert body["phase"] == "running"
    assert body["length"] == 1200
    assert body["deadline"]
    match = open_matches(event.pk, 1)[0]
    body = api.post(
        url, {"action": "extend", "match": match.pk, "minutes": 3}, format="json"
    ).json()
    assert body["extensions"] == [{"match": match.pk, "seconds": 180}]
    body = api.post(url, {"action": "pause"}, format="json").json()
    assert body["phase"] == "paused"
    assert body["deadline"] is None
    console = api.get(f"/api/events/{event.pk}/console/").json()
    assert console["clock"]["phase"] == "paused"
    assert console["after_time"] == []


def test_the_api_refuses_bad_input_clearly(event, boss, api):
    url = f"/api/events/{event.pk}/rounds/1/clock/"
    assert api.post(url, {"action": "set", "minutes": 5}, format="json").status_code in (401, 403)
    api.force_authenticate(boss)
    assert api.post(url, {"action": "nap"}, format="json").status_code == 400
    assert api.post(url, {"action": "set"}, format="json").status_code == 400
    assert api.post(url, {"action": "extend", "minutes": 3}, format="json").status_code == 400
    response = api.post(url, {"action": "resume"}, format="json")
    assert response.status_code == 409
    assert "not paused" in response.json()["detail"] or "not paused" in str(response.json())
    missing = f"/api/events/{event.pk}/rounds/9/clock/"
    assert api.post(missing, {"action": "pause"}, format="json").status_code == 404
    # The body is read first: bad input is named even for a round that does not exist.
    assert api.post(missing, {}, format="json").status_code == 400
    assert _round(event).clock_length is None


def test_the_console_shows_a_late_tables_points_as_they_stand():
    from engine.rules import find_rules
    from tests.tournaments.helpers import director_knock

    game = swiss_event(4, rules=find_rules("standard").to_dict())
    round_pair(event=game)
    director = ClubRoleFactory(club=game.club, role=ClubRole.Role.DIRECTOR).user
    first = open_matches(game.pk, 1)[0]
    director_knock(first)
    round_clock_start(rnd=_round(game), user=director, minutes=10)
    with _later(11 * 60):
        page = page_client(director).get(f"/events/{game.pk}/console/").content.decode()
    assert "points as they stand: 17 – 0" in page
