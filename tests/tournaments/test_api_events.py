"""Events and registrations through the real API routes, with permissions (clubs, roles and
players: tests/clubs/test_api_clubs.py)."""

from __future__ import annotations

import pytest

from tests.clubs.factories import PlayerFactory
from tournaments.models import Event, Registration

pytestmark = pytest.mark.django_db


def test_event_creation_validates_rules_options_and_tiebreaks(director_api, club, stranger, api):
    base = {"club": club.pk, "name": "Spring Swiss", "kind": "swiss", "rounds_planned": 5}
    r = director_api.post("/api/events/", {**base, "rules": "oklahoma"}, format="json")
    assert r.status_code == 201, r.json()
    event = r.json()
    assert event["rules"]["name"] == "oklahoma"
    assert event["status"] == "registration"
    assert event["lots_seed"] != 0
    bad = director_api.post("/api/events/", {**base, "rules": "canasta"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["field"] == "rules"
    bad = director_api.post("/api/events/", {**base, "options": {"bye_pts": 1}}, format="json")
    assert bad.status_code == 400
    assert "bye_pts" in bad.json()["detail"]
    bad = director_api.post("/api/events/", {**base, "tiebreaks": ["coin"]}, format="json")
    assert bad.status_code == 400
    assert bad.json()["field"] == "tiebreaks"
    ok = director_api.post(
        "/api/events/",
        {
            **base,
            "tiebreaks": ["match_points", "head_to_head", "gins", "lots"],
            "match_format": {"kind": "best_of", "games": 3},
        },
        format="json",
    )
    assert ok.status_code == 201
    bad = director_api.post(
        "/api/events/", {**base, "match_format": {"kind": "best_of", "games": 2}}, format="json"
    )
    assert bad.status_code == 400
    assert bad.json()["field"] == "match_format"
    api.force_authenticate(stranger)
    assert api.post("/api/events/", base, format="json").status_code == 403
    assert api.get(f"/api/events/{event['id']}/").status_code == 200


def _event(director_api, club, **extra):
    body = {"club": club.pk, "name": "Night", "kind": "swiss", **extra}
    return director_api.post("/api/events/", body, format="json").json()


def test_registration_checkin_by_director_and_by_own_link(director_api, club, api, stranger):
    event = _event(director_api, club)
    player = PlayerFactory(club=club)
    url = f"/api/events/{event['id']}/registrations/"
    r = director_api.post(url, {"player": player.pk, "seed": 3}, format="json")
    assert r.status_code == 201
    assert r.json()["status"] == "registered"
    token = r.json()["checkin_token"]
    assert director_api.post(url, {"player": player.pk}, format="json").status_code == 409
    public = api.get(url).json()["results"][0]
    assert "checkin_token" not in public
    assert public["player"]["name"] == player.name
    assert api.post(f"/api/checkin/{token}/").json()["status"] == "checked_in"
    assert api.post("/api/checkin/not-a-token/").status_code == 404
    other = PlayerFactory(club=club)
    reg = director_api.post(url, {"player": other.pk}, format="json").json()
    api.force_authenticate(stranger)
    checkin = f"{url}{reg['id']}/checkin/"
    assert api.post(checkin).status_code == 403
    assert director_api.post(checkin).json()["status"] == "checked_in"
    drop = director_api.post(f"{url}{reg['id']}/drop/").json()
    assert drop["status"] == "dropped"
    assert director_api.post(checkin).status_code == 409


def test_event_director_who_is_not_a_club_director_manages_the_event(api, club, director, stranger):
    event = Event.objects.get(pk=_event_as(director, club)["id"])
    event.directors.add(stranger)
    api.force_authenticate(stranger)
    player = PlayerFactory(club=club)
    r = api.post(f"/api/events/{event.pk}/registrations/", {"player": player.pk}, format="json")
    assert r.status_code == 201
    assert Registration.objects.filter(event=event).count() == 1


def _event_as(user, club):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(user)
    return _event(client, club)


def test_forbidden_pairing_and_finish(director_api, club):
    event = _event(director_api, club)
    a, b = PlayerFactory(club=club), PlayerFactory(club=club)
    r = director_api.post(
        f"/api/events/{event['id']}/forbidden-pairings/",
        {"player_a": a.pk, "player_b": b.pk, "hard": False},
        format="json",
    )
    assert r.status_code == 201
    assert r.json()["hard"] is False
    assert director_api.post(f"/api/events/{event['id']}/finish/").json()["status"] == "finished"
    reg = director_api.post(
        f"/api/events/{event['id']}/registrations/", {"player": a.pk}, format="json"
    )
    assert reg.status_code == 409
