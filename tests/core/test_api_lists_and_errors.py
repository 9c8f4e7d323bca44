"""One pagination everywhere (limit/offset, at most 500), and numbers out of range are a 400."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs.models import Club, ClubRole
from tests.clubs.factories import ClubFactory, ClubRoleFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def test_lists_page_with_limit_and_offset_and_cap_the_limit():
    club = ClubFactory()
    PlayerFactory.create_batch(7, club=club)
    client = APIClient()
    page = client.get(f"/api/players/?club={club.pk}&limit=3&offset=3").json()
    assert page["count"] == 7
    assert len(page["results"]) == 3
    assert "offset=6" in page["next"]
    assert "limit=3" in page["next"]
    assert page["previous"] is not None
    last = client.get(f"/api/players/?club={club.pk}&limit=3&offset=6").json()
    assert len(last["results"]) == 1
    assert last["next"] is None
    # not a number, negative: ignored; above 500: taken as 500
    assert len(client.get(f"/api/players/?club={club.pk}&limit=x").json()["results"]) == 7
    capped = client.get(f"/api/players/?club={club.pk}&limit=100000").json()
    assert len(capped["results"]) == 7
    assert client.get("/api/clubs/?limit=100000").status_code == 200


def test_the_schema_documents_limit_and_offset_on_every_paginated_list(client):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    for path in [
        "/api/clubs/",
        "/api/players/",
        "/api/events/",
        "/api/events/{event_id}/registrations/",
        "/api/matches/",
        "/api/matches/{match_id}/hands/",
    ]:
        get = paths[path]["get"]
        names = {p["name"] for p in get.get("parameters", [])}
        assert {"limit", "offset"} <= names, path
        body = get["responses"]["200"]["content"]["application/json"]["schema"]
        assert body["$ref"].startswith("#/components/schemas/Paginated"), path


def test_a_number_too_large_for_the_database_is_400_and_stores_nothing():
    role = ClubRoleFactory(role=ClubRole.Role.ADMIN)
    client = APIClient()
    client.force_authenticate(role.user)
    before = Club.objects.count()
    response = client.post(
        "/api/clubs/", {"name": "Huge", "rating_period_days": 10**30}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "A number in the request is out of range."}
    assert Club.objects.count() == before
    # As a filter: SQLite cannot take it (400); PostgreSQL compares it and finds nothing.
    listed = client.get(f"/api/matches/?event={10**30}")
    assert listed.status_code in (200, 400)
    if listed.status_code == 200:
        assert listed.json()["results"] == []
