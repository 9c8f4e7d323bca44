"""Standings never hang and never leave a player out: a failed rebuild is an error state with its
reason, rebuilds coalesce, and club nights count everybody who played."""

from __future__ import annotations

from typing import Any, cast

import pytest

from scoring.models import Match
from tests.scoring.conftest import client_for, players
from tests.scoring.factories import event_director
from tests.tournaments.factories import EventFactory
from tournaments import tasks
from tournaments.models import Event, Registration
from tournaments.services import event_results_bump, registration_create, registration_drop

pytestmark = pytest.mark.django_db


def _event_factory(**fields: Any) -> Event:
    """An event from the factory, typed as the model it creates."""
    return cast(Event, EventFactory(**fields))


GIN = {"knocker": 0, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 90}


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Standings rebuild messages sent to the broker (their event ids)."""
    out: list[int] = []

    def record(args: Any = (), kwargs: Any = None, **_: Any) -> None:
        out.append(args[0])

    monkeypatch.setattr(tasks.event_standings_rebuild, "apply_async", record)
    return out


def _bump(event: Event, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        event_results_bump(event=event)


def test_results_for_an_event_with_a_rebuild_queued_send_one_more_not_one_each(
    sent, django_capture_on_commit_callbacks
):
    event = _event_factory()
    for _ in range(10):
        _bump(event, django_capture_on_commit_callbacks)
    assert sent == [event.pk]  # one rebuild queued; it will count all ten
    tasks.event_standings_rebuild(event.pk)  # a worker runs it
    for _ in range(10):
        _bump(event, django_capture_on_commit_callbacks)
    assert sent == [event.pk, event.pk]  # results after it started: exactly one more
    event.refresh_from_db()
    assert event.standings_seq == 10
    assert event.results_seq == 20


def test_a_result_with_a_rebuild_queued_writes_nothing_to_the_events_row(sent):
    """The prompt after a result reads whether a rebuild is waiting; only when none is does it
    claim the slot with an UPDATE (every table's results go through the event's row lock)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.services.work import standings_prompt

    event = _event_factory()
    assert standings_prompt(event_id=event.pk) is True
    with CaptureQueriesContext(connection) as queries:
        assert standings_prompt(event_id=event.pk) is False
    assert [q["sql"].split(" ", 1)[0] for q in queries.captured_queries] == ["SELECT"]
    assert sent == [event.pk]
    tasks.event_standings_rebuild(event.pk)  # a worker starts it: the slot is free again
    assert standings_prompt(event_id=event.pk) is True
    assert sent == [event.pk, event.pk]


def test_loading_many_results_in_one_transaction_sends_one_rebuild(
    sent, django_capture_on_commit_callbacks
):
    events = [_event_factory(), _event_factory()]
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(50):
            for event in events:
                event_results_bump(event=event)
    assert sorted(sent) == sorted(e.pk for e in events)


def test_a_failed_rebuild_is_an_error_state_with_its_reason(
    sent, monkeypatch, client, django_capture_on_commit_callbacks, caplog
):
    event = _event_factory(name="Broken night")
    _bump(event, django_capture_on_commit_callbacks)

    def broken(**_: Any) -> Any:
        raise ValueError("a result names a seat that does not exist")

    monkeypatch.setattr("tournaments.services.standings.standings_compute", broken)
    assert tasks.event_standings_rebuild(event.pk) is None
    # Logged with the event, stored, and shown instead of "Updating".
    assert any(
        r.levelname == "ERROR" and f"event {event.pk} (Broken night)" in r.getMessage()
        for r in caplog.records
    )
    body = client.get(f"/api/events/{event.pk}/standings/").json()
    assert body["state"] == "error"
    assert body["error"] == (
        "Standings could not be computed: a result names a seat that does not exist; "
        "the director has been told."
    )
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "Standings could not be computed: a result names a seat" in page
    assert "Updating" not in page
    # The sweep does not retry the same results every minute ...
    sent.clear()
    assert tasks.standings_sweep()["standings"] == 0
    assert sent == []
    # ... but newer results are tried again, and a good rebuild clears the error.
    monkeypatch.undo()
    sent_again: list[int] = []
    monkeypatch.setattr(
        tasks.event_standings_rebuild,
        "apply_async",
        lambda args=(), kwargs=None, **_: sent_again.append(args[0]),
    )
    _bump(event, django_capture_on_commit_callbacks)
    assert sent_again == [event.pk]
    assert client.get(f"/api/events/{event.pk}/standings/").json()["state"] == "updating"
    tasks.event_standings_rebuild(event.pk)
    body = client.get(f"/api/events/{event.pk}/standings/").json()
    assert (body["state"], body["error"], body["as_of"]) == ("current", None, 2)


def test_starting_a_club_night_match_registers_its_players():
    event = _event_factory(confirmation="none")
    api = client_for(event_director(event))
    a, b = players(event, 2)
    registration_create(event=event, player=a)
    m = api.start(event, [a, b])["id"]
    regs = dict(Registration.objects.filter(event=event).values_list("player_id", "status"))
    assert regs == {a.pk: "registered", b.pk: "checked_in"}
    api.hand(m, **GIN)
    from tournaments.services import standings_recompute

    standings_recompute(event=event)
    body = api.client.get(f"/api/events/{event.pk}/standings/").json()
    assert [row["player"] for row in body["rows"]] == [a.pk, b.pk]
    assert body["rows"][0]["values"]["won"] == 1


def test_registered_players_only_refuses_a_match_with_anyone_else():
    event = _event_factory(options={"registered_only": True})
    api = client_for(event_director(event))
    a, b, c, d = players(event, 4)
    registration_create(event=event, player=a)
    before = Event.objects.get(pk=event.pk).results_seq
    body = api.start(event, [a, b], expect=400)
    assert body["field"] == "players"
    assert b.name in body["detail"]
    assert "only registered players may play here" in body["detail"]
    assert not Match.objects.filter(event=event).exists()
    assert set(Registration.objects.filter(event=event).values_list("player_id", flat=True)) == {
        a.pk
    }
    assert Event.objects.get(pk=event.pk).results_seq == before
    registration_create(event=event, player=b)
    api.start(event, [a, b])
    registration_create(event=event, player=d)
    assert api.start(event, [d, c], expect=400)["field"] == "players"  # a and b play now


def test_the_registered_only_option_is_true_or_false(director_api, club):
    response = director_api.post(
        "/api/events/",
        {"club": club.pk, "name": "N", "kind": "club_night", "options": {"registered_only": 1}},
        format="json",
    )
    assert response.status_code == 400
    assert "registered_only" in response.json()["detail"]


def test_every_registration_change_makes_the_standings_due():
    event = _event_factory(status=Event.Status.REGISTRATION)
    a, b = players(event, 2)

    def seq() -> int:
        return Event.objects.get(pk=event.pk).results_seq

    start = seq()
    registration = registration_create(event=event, player=a)
    assert seq() == start + 1
    registration_create(event=event, player=b, checked_in=True)
    assert seq() == start + 2
    from tournaments.services import registration_checkin

    registration_checkin(registration=registration)
    assert seq() == start + 3
    registration_checkin(registration=registration)  # twice: nothing changed
    assert seq() == start + 3
    registration_drop(registration=registration)
    assert seq() == start + 4


def test_the_sweep_resends_lost_prompts_only_once_they_are_overdue(monkeypatch, settings):
    from datetime import timedelta

    from django.utils import timezone

    from core.models import WorkDue
    from tournaments.services import work_sweep
    from tournaments.services.work import RATINGS_MATCH_TASK

    settings.KNOCK_WORK_RESEND_AFTER = 60
    sent: list[tuple] = []
    monkeypatch.setattr(
        tasks.ratings_update_task,
        "apply_async",
        lambda args=(), kwargs=None, **_: sent.append(args),
    )
    now = timezone.now()
    WorkDue.objects.create(task=RATINGS_MATCH_TASK, key=1, sent_at=None)  # never sent
    WorkDue.objects.create(task=RATINGS_MATCH_TASK, key=2, sent_at=now)  # in the queue
    lost = WorkDue.objects.create(
        task=RATINGS_MATCH_TASK, key=3, sent_at=now - timedelta(minutes=5)
    )
    failed = WorkDue.objects.create(
        task=RATINGS_MATCH_TASK,
        key=4,
        sent_at=now - timedelta(minutes=5),
        attempts=3,
        error="ValueError()",
    )
    assert work_sweep()["work"] == 2
    assert sorted(a[0] for a in sent) == [1, 3]
    lost.refresh_from_db()
    assert lost.attempts == 1
    # Failed work waits 60 s x 2^attempts before it is tried again.
    WorkDue.objects.filter(pk=failed.pk).update(sent_at=now - timedelta(minutes=9))
    sent.clear()
    assert work_sweep()["work"] == 1
    assert [a[0] for a in sent] == [4]


def test_tasks_survive_a_lost_worker_and_redis_redelivers_in_minutes(settings):
    for task in (
        tasks.event_standings_rebuild,
        tasks.ratings_update_task,
        tasks.round_pair_task,
        tasks.standings_sweep,
    ):
        assert task.acks_late, task.name
        assert task.reject_on_worker_lost, task.name
        assert task.max_retries == 5, task.name
    assert 60 <= settings.CELERY_VISIBILITY_TIMEOUT <= 900
    if settings.CELERY_BROKER_URL.startswith("redis"):
        options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
        assert options["visibility_timeout"] == settings.CELERY_VISIBILITY_TIMEOUT
    assert settings.CELERY_BEAT_SCHEDULE["standings-sweep"]["schedule"] <= 60
