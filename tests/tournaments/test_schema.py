"""Every tournament endpoint appears in the OpenAPI schema, which builds without errors."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_schema_lists_the_tournament_api(api):
    r = api.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert r.status_code == 200
    body = r.json() if r["Content-Type"].startswith("application/json") else None
    text = r.content.decode()
    for path in (
        "/api/clubs/",
        "/api/players/",
        "/api/events/",
        "/api/events/{event_id}/registrations/",
        "/api/events/{event_id}/rounds/",
        "/api/events/{event_id}/standings/",
        "/api/events/{event_id}/bracket/",
        "/api/players/{player_id}/ratings/",
        "/api/checkin/{token}/",
    ):
        assert path in (body["paths"] if body else text)
