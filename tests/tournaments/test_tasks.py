"""The task path itself, run by a real Celery worker process on the test database."""

from __future__ import annotations

import pytest

from ratings.models import Rating
from scoring.models import Match
from tests.conftest import wait_for
from tests.tournaments.helpers import open_matches, play, seated
from tournaments.models import Event, Round, Standing
from tournaments.services import event_create, registration_create, round_pair
from tournaments.tasks import event_standings_rebuild

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def _event(club, players, **options):
    event = event_create(club_id=club.pk, name="Worker", kind="swiss", options=options)
    for p in players:
        registration_create(event=event, player=p, checked_in=True)
    return event


def test_results_schedule_the_standings_task_on_commit(celery_worker_process, club, make_players):
    players = make_players(4)
    event = _event(club, players)
    event.refresh_from_db()
    assert event.results_seq == 4  # each registration is a new line of the standings
    round_pair(event=event)
    for m in open_matches(event.pk, 1):
        play(m, winner=min(seated(m)))
    event.refresh_from_db()
    assert event.results_seq == 4 + 2

    def current() -> bool:
        event.refresh_from_db()
        return event.standings_seq == event.results_seq

    assert wait_for(current, timeout=60), "the worker did not rebuild the standings"
    assert Standing.objects.filter(event=event).count() == 4
    top = Standing.objects.filter(event=event).first()
    assert top.values["match_points"] == 1
    assert top.seq == event.results_seq
    # the rating task ran too (scheduled by match_finished)
    assert wait_for(lambda: Rating.objects.filter(club=club).count() == 4, timeout=60)
    event_standings_rebuild.delay(event.pk)  # a duplicate message changes nothing
    assert wait_for(current, timeout=10)


def test_large_round_is_paired_by_the_worker(celery_worker_process, club, make_players):
    event = _event(club, make_players(8), async_pairing_from=8)
    rnd = round_pair(event=event)
    assert rnd.status == Round.Status.QUEUED

    def paired() -> bool:
        rnd.refresh_from_db()
        return rnd.status == Round.Status.PAIRED

    assert wait_for(paired, timeout=60), rnd.error
    assert Match.objects.filter(round=rnd).count() == 4
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
