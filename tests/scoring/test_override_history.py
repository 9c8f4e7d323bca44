"""A director's correction (a new version; old versions stay) and the full history."""

from __future__ import annotations

import pytest

from scoring.models import HandSubmission
from tests.clubs.factories import UserFactory
from tests.scoring.conftest import client_for, players, seat_api

pytestmark = pytest.mark.django_db


def _knock(knocker, k, d):
    return {"knocker": knocker, "outcome": "knock", "knocker_deadwood": k, "defender_deadwood": d}


def test_override_adds_a_version_and_history_shows_every_change(make_event, director_api_for):
    event = make_event("standard", confirmation="opponent")
    director = director_api_for(event)
    m = director.start(event, players(event, 2))["id"]
    alice, bob = seat_api(m, 0), seat_api(m, 1)
    alice.client.credentials(
        HTTP_X_MATCH_KEY=alice.client._credentials["HTTP_X_MATCH_KEY"],
        HTTP_USER_AGENT="alice-phone",
    )
    entered = alice.hand(m, **_knock(0, 5, 25))
    bob.action(entered["id"], "confirm")
    bob.action(entered["id"], "override", expect=403, reason="no", **_knock(0, 5, 35))
    no_reason = director.client.post(
        f"/api/hands/{entered['id']}/override/", _knock(0, 5, 35), format="json"
    )
    assert no_reason.status_code == 400
    assert "reason" in no_reason.json()
    fixed = director.action(
        entered["id"], "override", expect=201, reason="Deadwood miscounted", **_knock(0, 5, 35)
    )
    assert (fixed["version"], fixed["status"], fixed["points"]) == (2, "confirmed", 30)
    assert fixed["override_reason"] == "Deadwood miscounted"
    assert director.detail(m)["games"][0]["totals"] == [30, 0]
    statuses = list(HandSubmission.objects.order_by("version").values_list("status", flat=True))
    assert statuses == ["superseded", "confirmed"]
    bob.client.get(f"/api/hands/{entered['id']}/history/")
    assert bob.client.get(f"/api/hands/{entered['id']}/history/").status_code == 403
    history = director.client.get(f"/api/hands/{entered['id']}/history/").json()
    assert [v["version"] for v in history["versions"]] == [1, 2]
    assert history["versions"][0]["payload"]["defender_deadwood"] == 25
    changes = [(c["version"], c["status"], c["reason"]) for c in history["changes"]]
    assert changes == [
        (1, "pending", "submitted"),
        (1, "confirmed", "confirmed"),
        (1, "superseded", "superseded: Deadwood miscounted"),
        (2, "confirmed", "override"),
    ]
    first = history["changes"][0]
    assert first["player"]
    # Where an entry came from (address, browser) stays in the admin, never in the API.
    assert "ip" not in first
    assert "user_agent" not in first
    assert all("ip" not in v and "user_agent" not in v for v in history["versions"])
    assert history["changes"][3]["user"] == director.client.handler._force_user.username


def test_a_correction_can_reopen_a_finished_game(make_event, director_api_for):
    event = make_event("standard")
    director = director_api_for(event)
    m = director.start(event, players(event, 2))["id"]
    director.hand(m, **_knock(0, 5, 55))  # 50
    last = director.hand(m, **_knock(0, 0, 0) | {"outcome": "gin", "defender_deadwood": 30})
    assert director.detail(m)["status"] == "finished"  # 50 + 55 = 105
    director.action(
        last["id"], "override", expect=201, reason="It was a knock", **_knock(0, 5, 30)
    )  # 25 -> 75
    detail = director.detail(m)
    assert detail["status"] == "playing"
    assert detail["games"][0]["status"] == "playing"
    assert detail["games"][0]["totals"] == [75, 0]
    assert detail["next"]["hand_number"] == 3


def test_a_correction_that_breaks_later_hands_is_refused(make_event, director_api_for):
    event = make_event("standard")
    director = director_api_for(event)
    m = director.start(event, players(event, 2))["id"]
    first = director.hand(m, **_knock(0, 5, 55))  # 50
    director.hand(m, **_knock(1, 5, 15))  # 10
    # making hand 1 a 110-point gin would end the game before hand 2
    refused = director.action(
        first["id"],
        "override",
        expect=409,
        reason="x",
        outcome="gin",
        knocker=0,
        knocker_deadwood=0,
        defender_deadwood=85,
    )
    assert "Hand 2" in refused["detail"]
    assert HandSubmission.objects.filter(status="confirmed").count() == 2
    assert director.detail(m)["games"][0]["totals"] == [50, 10]


def test_a_signed_in_stranger_cannot_override(make_event, director_api_for):
    event = make_event("standard")
    director = director_api_for(event)
    m = director.start(event, players(event, 2))["id"]
    hand = director.hand(m, **_knock(0, 5, 25))
    client_for(UserFactory()).action(
        hand["id"], "override", expect=404, reason="x", **_knock(0, 5, 35)
    )
