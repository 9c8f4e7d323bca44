"""Each stored or confirmed result bumps the event's results sequence and schedules standings."""

from __future__ import annotations

import pytest

from scoring.models import Match
from tests.conftest import wait_for
from tests.scoring.conftest import players, seat_api
from tournaments.models import Event

pytestmark = pytest.mark.django_db

KNOCK = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}


def _seq(event):
    return Event.objects.get(pk=event.pk).results_seq


def test_store_and_confirm_bump_and_schedule_on_commit(
    make_event, director_api_for, django_capture_on_commit_callbacks
):
    event = make_event("standard", confirmation="opponent")
    m = director_api_for(event).start(event, players(event, 2))["id"]
    start = _seq(event)
    with django_capture_on_commit_callbacks() as stored:
        entered = seat_api(m, 0).hand(m, **KNOCK)
    assert _seq(event) == start + 1
    assert len(stored) == 1
    with django_capture_on_commit_callbacks() as confirmed:
        seat_api(m, 1).action(entered["id"], "confirm")
    assert _seq(event) == start + 2
    assert len(confirmed) == 1


def test_closing_a_game_bumps_once(
    make_event, director_api_for, django_capture_on_commit_callbacks
):
    """The hand that closes the game and the match is one result: one bump, one prompt."""
    event = make_event("standard")
    api = director_api_for(event)
    m = api.start(event, players(event, 2))["id"]
    start = _seq(event)
    with django_capture_on_commit_callbacks() as callbacks:
        api.hand(m, knocker=0, outcome="gin", knocker_deadwood=0, defender_deadwood=90)
    assert _seq(event) == start + 1
    assert len(callbacks) == 2  # the standings prompt, the rating update
    assert Match.objects.get(pk=m).status == "finished"


def test_a_refused_entry_bumps_nothing(
    make_event, director_api_for, django_capture_on_commit_callbacks
):
    event = make_event("standard")
    api = director_api_for(event)
    m = api.start(event, players(event, 2))["id"]
    start = _seq(event)
    with django_capture_on_commit_callbacks() as callbacks:
        api.hand(m, expect=400, **{**KNOCK, "knocker_deadwood": 11})
    assert _seq(event) == start
    assert callbacks == []


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_rebuilds_standings_after_a_result(
    make_event, director_api_for, celery_worker_process
):
    event = make_event("standard")
    api = director_api_for(event)
    m = api.start(event, players(event, 2))["id"]
    start = _seq(event)
    api.hand(m, knocker=0, outcome="gin", knocker_deadwood=0, defender_deadwood=90)
    assert _seq(event) == start + 1
    assert wait_for(lambda: Event.objects.get(pk=event.pk).standings_seq == start + 1, timeout=60)


def test_match_detail_has_no_n_plus_one(
    make_event, director_api_for, django_assert_max_num_queries
):
    event = make_event("standard", confirmation="opponent")
    api = director_api_for(event)
    m = api.start(event, players(event, 2), match_format={"kind": "best_of", "games": 3})["id"]
    entered = api.hand(m, knocker=0, outcome="gin", knocker_deadwood=0, defender_deadwood=90)
    seat_api(m, 1).action(entered["id"], "confirm")
    for _ in range(6):
        entered = api.hand(m, outcome="dead")
        seat_api(m, 1).action(entered["id"], "confirm")
    with django_assert_max_num_queries(12):
        api.detail(m)
    with django_assert_max_num_queries(12):
        api.sheet(m)


def test_a_confirmation_locks_the_event_only_at_its_end(make_event, director_api_for):
    """Every table of an event confirms through the event's row: its results sequence is bumped
    after the match's own work (its hands read again and scored by the engine, its games saved
    when one closes), so the row lock that UPDATE takes is held for the commit only."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    event = make_event("standard", confirmation="opponent")
    m = director_api_for(event).start(event, players(event, 2))["id"]
    entered = seat_api(m, 0).hand(m, **KNOCK)
    with CaptureQueriesContext(connection) as queries:
        seat_api(m, 1).action(entered["id"], "confirm")
    sql = [q["sql"] for q in queries.captured_queries]
    bump = [i for i, s in enumerate(sql) if s.startswith('UPDATE "tournaments_event"')]
    assert bump, sql
    writes_after = [
        s
        for s in sql[bump[-1] + 1 :]
        if s.split(" ", 1)[0] in {"INSERT", "UPDATE", "DELETE"}
        and '"tournaments_event"' not in s.split(" SET ", 1)[0]
    ]
    assert writes_after == []
    hands_read = [
        i for i, s in enumerate(sql) if s.startswith("SELECT") and '"scoring_handsubmission"' in s
    ]
    assert len(hands_read) >= 2  # the entry being confirmed, then the match's hands again
    assert hands_read[-1] < bump[0]
