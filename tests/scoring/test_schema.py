"""/api/schema/ documents every scoring operation."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_schema_documents_the_scoring_api():
    response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path, method in [
        ("/api/matches/", "get"),
        ("/api/matches/", "post"),
        ("/api/matches/{match_id}/", "get"),
        ("/api/matches/{match_id}/hands/", "post"),
        ("/api/matches/{match_id}/scoresheet/", "get"),
        ("/api/matches/{match_id}/scoresheet/", "post"),
        ("/api/hands/{submission_id}/confirm/", "post"),
        ("/api/hands/{submission_id}/withdraw/", "post"),
        ("/api/hands/{submission_id}/override/", "post"),
        ("/api/hands/{submission_id}/history/", "get"),
        ("/api/imports/", "post"),
    ]:
        assert method in paths[path], (path, method)
    submit = paths["/api/matches/{match_id}/hands/"]["post"]
    assert any(p["name"] == "Idempotency-Key" for p in submit["parameters"])
    assert Client().get("/api/docs/").status_code == 200
