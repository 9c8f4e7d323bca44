"""Acknowledged means kept: with the broker unreachable every write answers its normal 2xx, what
is due is recorded in the database, and a real worker finishes it (at start-up, or when beat's
sweep runs): standings, a queued Swiss round, ratings."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from core.models import WorkDue
from ratings.models import Rating
from scoring.models import Match
from tests.conftest import broker_unreachable, celery_worker, wait_for
from tests.scoring.conftest import seat_api
from tests.tournaments.helpers import api_event
from tournaments.models import Event, Registration, Round
from tournaments.services.work import RATINGS_MATCH_TASK, ROUND_PAIR_TASK
from tournaments.tasks import standings_sweep

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

GIN = {"knocker": 0, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 90}
KNOCK = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}


def _ok(response: Any, code: int = 0) -> Any:
    assert 200 <= response.status_code < 300, (response.status_code, response.content)
    if code:
        assert response.status_code == code, response.content
    return response.json()


def _writes_while_the_broker_is_down(api: APIClient, club: Any, players: list[Any]) -> dict:
    """Every kind of write a club night and a Swiss event take, with the broker unreachable."""
    swiss = api_event(api, club, players[:4], "swiss", async_pairing_from=4)
    night = _ok(
        api.post(
            "/api/events/",
            {"club": club.pk, "name": "Night", "kind": "club_night", "confirmation": "opponent"},
            format="json",
        )
    )
    with broker_unreachable():
        late = _ok(
            api.post(
                f"/api/events/{swiss['id']}/registrations/",
                {"player": players[4].pk, "checked_in": True},
                format="json",
            ),
            201,
        )
        _ok(api.post(f"/api/events/{swiss['id']}/registrations/{late['id']}/drop/"))
        queued = _ok(api.post(f"/api/events/{swiss['id']}/rounds/"), 202)
        assert queued["status"] == "queued"
        # While no worker pairs it, the round is honestly "being paired".
        assert api.post(f"/api/events/{swiss['id']}/rounds/").status_code == 409
        pair = [players[5].pk, players[6].pk]
        match = _ok(
            api.post("/api/matches/", {"event": night["id"], "players": pair}, format="json"), 201
        )
        first, second = seat_api(match["id"], 0), seat_api(match["id"], 1)
        dead = first.hand(match["id"], outcome="dead")  # entered (201) ...
        second.action(dead["id"], "confirm")  # ... and confirmed (200) by the other side
        knock = first.hand(match["id"], **KNOCK)
        # The director corrects the pending entry: a gin that ends the match.
        _ok(api.post(f"/api/hands/{knock['id']}/override/", {**GIN, "reason": "gin"}), 201)
    # Everything is stored, and what is still to do is recorded.
    assert Registration.objects.get(pk=late["id"]).status == Registration.Status.DROPPED
    assert Round.objects.get(event_id=swiss["id"], number=1).status == Round.Status.QUEUED
    assert Match.objects.get(pk=match["id"]).status == Match.Status.FINISHED
    assert WorkDue.objects.filter(task=RATINGS_MATCH_TASK, key=match["id"]).exists()
    round_id = Round.objects.get(event_id=swiss["id"], number=1).pk
    assert WorkDue.objects.filter(task=ROUND_PAIR_TASK, key=round_id).exists()
    # What could not be sent is marked so: the next sweep sends it at once.
    assert not WorkDue.objects.filter(sent_at__isnull=False).exists()
    # (A running worker may still count the Swiss event's outage writes with a rebuild prompted
    # before it; nothing prompted the club night's.)
    night_event = Event.objects.get(pk=night["id"])
    assert night_event.standings_seq < night_event.results_seq
    return {"swiss": swiss["id"], "night": night["id"], "match": match["id"], "pair": pair}


def _all_done(api: APIClient, ids: dict) -> None:
    def round_paired() -> bool:
        return Round.objects.get(event_id=ids["swiss"], number=1).status == Round.Status.PAIRED

    def standings_current() -> bool:
        return all(
            _ok(api.get(f"/api/events/{e}/standings/"))["state"] == "current"
            for e in (ids["swiss"], ids["night"])
        )

    assert wait_for(round_paired, timeout=60), "the queued round was never paired"
    assert wait_for(standings_current, timeout=60), "the standings never caught up"
    assert wait_for(lambda: not WorkDue.objects.exists(), timeout=60), "ratings still due"
    rated = set(Rating.objects.values_list("player_id", flat=True))
    assert set(ids["pair"]) <= rated
    night = _ok(api.get(f"/api/events/{ids['night']}/standings/"))
    top = night["rows"][0]
    assert top["values"]["match_points"] == 1
    assert {row["player"] for row in night["rows"]} == set(ids["pair"])
    # The recovered round is an ordinary round again: it can be re-paired.
    _ok(api.post(f"/api/events/{ids['swiss']}/rounds/1/repair/"))


def test_a_worker_starting_after_a_broker_outage_finishes_everything_due(
    director_api, club, make_players
):
    ids = _writes_while_the_broker_is_down(director_api, club, make_players(7))
    with celery_worker(purge=False):
        _all_done(director_api, ids)


def test_beat_sweep_resends_what_a_running_worker_never_received(
    director_api, club, make_players, settings
):
    with celery_worker():
        # The worker is up (and its start-up sweep is over) once it has rebuilt a standings.
        ready = api_event(director_api, club, make_players(1), "club_night")

        def consumed() -> bool:
            event = Event.objects.get(pk=ready["id"])
            return event.standings_seq == event.results_seq > 0

        assert wait_for(consumed, timeout=60)
        ids = _writes_while_the_broker_is_down(director_api, club, make_players(7))
        assert Round.objects.get(event_id=ids["swiss"], number=1).status == Round.Status.QUEUED
        standings_sweep.delay()  # what beat sends every minute
        _all_done(director_api, ids)
