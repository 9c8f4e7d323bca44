"""Two people entering the same hand at once, and a double tap, on PostgreSQL with real threads."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, connections

from scoring.models import HandSubmission
from tests.scoring.conftest import players, seat_api

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _needs_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL)")


def _race(*calls: Any) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Any) -> None:
        try:
            barrier.wait()
            results[index] = call()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_two_people_enter_the_same_hand(make_event, director_api_for):
    event = make_event("standard", confirmation="opponent")
    m = director_api_for(event).start(event, players(event, 2))["id"]
    alice, bob = seat_api(m, 0).client, seat_api(m, 1).client
    url = f"/api/matches/{m}/hands/"
    for _ in range(3):
        HandSubmission.objects.filter(status="pending").update(status="withdrawn")
        a, b = _race(
            lambda: alice.post(
                url,
                {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25},
                format="json",
            ),
            lambda: bob.post(
                url,
                {"knocker": 1, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 9},
                format="json",
            ),
        )
        codes = sorted([a.status_code, b.status_code])
        assert codes == [201, 409], (a.json(), b.json())
        winner, loser = (a, b) if a.status_code == 201 else (b, a)
        assert loser.json()["stored"]["id"] == winner.json()["id"]
        assert HandSubmission.objects.filter(status="pending").count() == 1


def test_a_double_tap_stores_once_and_replays(make_event, director_api_for):
    event = make_event("standard", confirmation="opponent")
    m = director_api_for(event).start(event, players(event, 2))["id"]
    alice = seat_api(m, 0).client
    body = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}

    def tap() -> Any:
        return alice.post(
            f"/api/matches/{m}/hands/", body, format="json", headers={"Idempotency-Key": "dbl"}
        )

    first, second = _race(tap, tap)
    assert first.status_code == second.status_code == 201, (first.json(), second.json())
    assert first.json() == second.json()
    assert HandSubmission.objects.count() == 1
