"""The pass in the API: the holder's view by ``X-Pass-Key``, the directors' list, revoke and
reissue; bad passes refused with nothing stored."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from passes.models import PlayerPass
from tests.passes.helpers import secret, swiss_with_passes
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counts():
    cache.clear()


def test_the_holder_reads_their_view_with_the_header(club, director):
    event, regs = swiss_with_passes(club)
    round_pair(event=event, user=director)
    client = APIClient()
    got = client.get(f"/api/events/{event.pk}/pass/", HTTP_X_PASS_KEY=secret(regs[0]))
    assert got.status_code == 200, got.content
    body = got.json()
    assert body["player"] == "Ada"
    assert body["current"]["round"] == 1
    assert body["current"]["seat"] in (1, 2)
    assert len(body["current"]["opponents"]) == 1
    assert "Ada" not in body["current"]["opponents"]
    text = got.content.decode()
    for reg in regs[1:]:
        other = PlayerPass.objects.get(registration=reg, revoked_at__isnull=True)
        assert other.nonce not in text
        assert reg.checkin_token not in text
    assert PlayerPass.objects.get(registration=regs[0], revoked_at__isnull=True).opened_at


def test_bad_passes_are_refused(club):
    event_a, regs_a = swiss_with_passes(club, players=2)
    event_b, _ = swiss_with_passes(club, players=2, suffix=" B")
    client = APIClient()
    assert client.get(f"/api/events/{event_a.pk}/pass/").status_code == 404
    assert (
        client.get(f"/api/events/{event_a.pk}/pass/", HTTP_X_PASS_KEY="z" * 32).status_code == 404
    )
    other = client.get(f"/api/events/{event_b.pk}/pass/", HTTP_X_PASS_KEY=secret(regs_a[0]))
    assert other.status_code == 403
    assert not PlayerPass.objects.filter(opened_at__isnull=False).exists()  # nothing stored


def test_directors_list_reissue_and_revoke(club, director_api, api):
    event, regs = swiss_with_passes(club, players=2)
    listed = director_api.get(f"/api/events/{event.pk}/passes/")
    assert listed.status_code == 200
    assert {row["player"] for row in listed.json()} == {"Ada", "Bo"}
    assert all("/p/#" in row["link"] for row in listed.json())
    old = secret(regs[0])
    again = director_api.post(f"/api/events/{event.pk}/passes/{regs[0].pk}/reissue/")
    assert again.status_code == 200
    assert old not in again.json()["link"]
    assert secret(regs[0]) in again.json()["link"]
    assert api.get(f"/api/events/{event.pk}/pass/", HTTP_X_PASS_KEY=old).status_code == 404
    gone = director_api.post(f"/api/events/{event.pk}/passes/{regs[0].pk}/revoke/")
    assert gone.status_code == 200
    assert gone.json()["link"] == ""
    assert api.get(f"/api/events/{event.pk}/passes/").status_code in (401, 403)
    assert api.post(f"/api/events/{event.pk}/passes/{regs[1].pk}/revoke/").status_code in (
        401,
        403,
    )
    assert PlayerPass.objects.filter(registration=regs[1], revoked_at__isnull=True).exists()


def test_the_schema_documents_the_pass():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    assert "/api/events/{event_id}/pass/" in paths
    params = paths["/api/events/{event_id}/pass/"]["get"]["parameters"]
    assert any(p["name"] == "X-Pass-Key" and p["in"] == "header" for p in params)
    assert "/api/events/{event_id}/passes/{registration_id}/reissue/" in paths
