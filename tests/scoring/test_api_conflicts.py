"""Idempotent submits, the 409 for a hand already entered, and the database constraints."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from scoring.models import Hand, HandSubmission, IdempotencyRecord
from tests.scoring.conftest import players, seat_api
from tests.scoring.factories import HandSubmissionFactory, MatchFactory

pytestmark = pytest.mark.django_db

KNOCK = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}


def test_same_key_same_body_replays_without_storing(make_event, director_api_for):
    event = make_event("standard", confirmation="opponent")
    m = director_api_for(event).start(event, players(event, 2))["id"]
    alice = seat_api(m, 0)
    headers = {"Idempotency-Key": "tap-1"}
    first = alice.client.post(f"/api/matches/{m}/hands/", KNOCK, format="json", headers=headers)
    second = alice.client.post(f"/api/matches/{m}/hands/", KNOCK, format="json", headers=headers)
    assert first.status_code == second.status_code == 201
    assert second.json() == first.json()
    assert second.headers["Idempotent-Replayed"] == "true"
    assert HandSubmission.objects.count() == 1
    other = alice.client.post(
        f"/api/matches/{m}/hands/",
        {**KNOCK, "knocker_deadwood": 6},
        format="json",
        headers=headers,
    )
    assert other.status_code == 422
    assert other.json()["field"] == "Idempotency-Key"
    # another person's key of the same name is theirs alone
    bob = seat_api(m, 1).client.post(
        f"/api/hands/{first.json()['id']}/confirm/", {}, format="json", headers=headers
    )
    assert bob.status_code == 200
    assert IdempotencyRecord.objects.count() == 2


def test_a_failed_request_is_not_stored_for_replay(make_event, director_api_for):
    event = make_event("standard")
    api = director_api_for(event)
    m = api.start(event, players(event, 2))["id"]
    headers = {"Idempotency-Key": "k"}
    bad = api.client.post(
        f"/api/matches/{m}/hands/",
        {**KNOCK, "knocker_deadwood": 12},
        format="json",
        headers=headers,
    )
    assert bad.status_code == 400
    assert not IdempotencyRecord.objects.exists()


def test_hand_already_recorded_is_409_with_what_was_stored(make_event, director_api_for):
    event = make_event("standard")
    api = director_api_for(event)
    m = api.start(event, players(event, 2))["id"]
    stored = api.hand(m, **KNOCK)
    clash = api.hand(
        m,
        expect=409,
        hand_number=1,
        knocker=1,
        outcome="gin",
        knocker_deadwood=0,
        defender_deadwood=10,
    )
    assert clash["stored"]["id"] == stored["id"]
    assert clash["stored"]["points"] == 20
    assert HandSubmission.objects.count() == 1


def test_constraints_allow_one_confirmed_and_one_pending_per_hand():
    sub = HandSubmissionFactory(match=MatchFactory(event__confirmation="none"))
    assert sub.status == "confirmed"
    fields = {
        "hand": sub.hand,
        "entry": sub.entry,
        "payload": sub.payload,
        "result": sub.result,
    }
    with pytest.raises(IntegrityError), transaction.atomic():
        HandSubmission.objects.create(version=2, status="confirmed", **fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        HandSubmission.objects.create(version=1, status="withdrawn", **fields)
    HandSubmission.objects.create(version=2, status="pending", **fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        HandSubmission.objects.create(version=3, status="pending", **fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(game=sub.hand.game, number=1)


def test_factory_traits():
    match = MatchFactory(event__confirmation="none")
    assert HandSubmissionFactory(match=match, gin=True).result["outcome"] == "gin"
    under = HandSubmissionFactory(match=match, undercut=True)
    assert (under.result["outcome"], under.result["points"]) == ("undercut", 28)
    assert HandSubmissionFactory(match=match, dead=True).entry == "dead"
