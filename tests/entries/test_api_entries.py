"""Online entry, the API: public entry without an account, the director's list and actions,
the entry settings; refusals store nothing and answer with a ``code``."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from entries.models import Entry
from tests.tournaments.factories import EventFactory, RegistrationFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counts() -> None:
    cache.clear()


@pytest.fixture
def event(club: Any) -> Any:
    return EventFactory(
        club=club,
        kind=Event.Kind.SWISS,
        status=Event.Status.REGISTRATION,
        options={"entries_open": True, "entries_cap": 1},
    )


def test_public_entry_and_its_refusals(api: APIClient, event: Any):
    url = f"/api/events/{event.pk}/enter/"
    made = api.post(url, {"name": "Ann", "email": "ann@example.com"}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["status"] == "accepted"
    assert "email" not in made.json()
    assert api.post(url, {"name": "ANN"}, format="json").json()["code"] == "duplicate"
    full = api.post(url, {"name": "Bob"}, format="json")
    assert full.status_code == 409
    assert full.json()["code"] == "full"
    waiting = api.post(url, {"name": "Bob", "waiting_list": True}, format="json")
    assert waiting.json()["status"] == "waiting"
    assert waiting.json()["waiting_position"] == 1
    assert api.post(url, {"name": "Cy", "website": "x"}, format="json").status_code == 400
    assert api.post(url, {"name": "Cy", "email": "nope"}, format="json").status_code == 400
    assert Entry.objects.count() == 2


def test_a_closed_event_refuses(api: APIClient, club: Any):
    closed = EventFactory(club=club, kind=Event.Kind.SWISS, status=Event.Status.REGISTRATION)
    answer = api.post(f"/api/events/{closed.pk}/enter/", {"name": "Ann"}, format="json")
    assert answer.status_code == 409
    assert answer.json()["code"] == "closed"


def test_the_list_is_the_directors(api: APIClient, director_api: APIClient, event: Any):
    api.post(f"/api/events/{event.pk}/enter/", {"name": "Ann", "note": "hi"}, format="json")
    assert api.get(f"/api/events/{event.pk}/entries/").status_code in (401, 403)
    listed = director_api.get(f"/api/events/{event.pk}/entries/")
    assert listed.status_code == 200
    assert [e["name"] for e in listed.json()["results"]] == ["Ann"]
    assert listed.json()["results"][0]["note"] == "hi"


def test_the_directors_actions(director_api: APIClient, event: Any):
    base = f"/api/events/{event.pk}"
    director_api.post(
        f"{base}/entries/settings/",
        {"entries_open": True, "entries_cap": 1, "entries_approval": True},
        format="json",
    )
    ann = director_api.post(f"{base}/enter/", {"name": "Ann"}, format="json").json()
    bob = director_api.post(f"{base}/enter/", {"name": "Bob"}, format="json").json()
    assert ann["status"] == bob["status"] == "pending"
    approved = director_api.post(f"{base}/entries/{ann['id']}/approve/")
    assert approved.json()["status"] == "accepted"
    assert approved.json()["registration"]
    # Full: approving Bob puts him on the waiting list.
    assert director_api.post(f"{base}/entries/{bob['id']}/approve/").json()["status"] == "waiting"
    withdrawn = director_api.post(f"{base}/entries/{ann['id']}/withdraw/")
    assert withdrawn.json()["status"] == "withdrawn"
    # The waiting list moved up by itself.
    assert Entry.objects.get(pk=bob["id"]).status == Entry.Status.ACCEPTED
    assert director_api.post(f"{base}/entries/{ann['id']}/refuse/").status_code == 409
    waited = director_api.post(f"{base}/entries/{bob['id']}/waitlist/")
    assert waited.json()["status"] == "waiting"
    assert director_api.post(f"{base}/entries/{bob['id']}/refuse/").json()["status"] == "refused"
    assert director_api.post(f"{base}/entries/999999/approve/").status_code == 404


def test_merge_and_settings(director_api: APIClient, event: Any):
    base = f"/api/events/{event.pk}"
    settings = director_api.post(
        f"{base}/entries/settings/",
        {
            "entries_open": True,
            "entries_cap": None,
            "entries_approval": True,
            "entries_close_at": "2030-01-01T10:00:00Z",
        },
        format="json",
    )
    assert settings.status_code == 200
    assert settings.json()["entries_cap"] is None
    assert settings.json()["entries_approval"]
    assert director_api.get(f"{base}/entries/settings/").json() == settings.json()
    a = director_api.post(f"{base}/enter/", {"name": "Dee Park"}, format="json").json()
    b = director_api.post(
        f"{base}/enter/", {"name": "Dee P", "email": "d@example.com"}, format="json"
    ).json()
    merged = director_api.post(f"{base}/entries/{b['id']}/merge/", {"into": a["id"]}, format="json")
    assert merged.status_code == 200
    assert merged.json()["email"] == "d@example.com"
    assert (
        director_api.post(
            f"{base}/entries/{a['id']}/merge/", {"into": a["id"]}, format="json"
        ).status_code
        == 400
    )
    assert (
        director_api.post(
            f"{base}/entries/settings/", {"entries_open": True, "entries_cap": 0}, format="json"
        ).status_code
        == 400
    )


def test_a_stranger_cannot_act(api: APIClient, stranger: Any, event: Any):
    client = APIClient()
    client.force_authenticate(stranger)
    entry = api.post(f"/api/events/{event.pk}/enter/", {"name": "Ann"}, format="json").json()
    assert client.post(f"/api/events/{event.pk}/entries/{entry['id']}/refuse/").status_code == 403
    assert client.get(f"/api/events/{event.pk}/entries/").status_code == 403
    RegistrationFactory(event=event)
