"""A Swiss round that fails to pair in the background tells each reader why in their language.

The worker has no reader's language: the failure is stored as data (``Round.error_code`` and
``error_params``) and worded when it is read, so a Korean director polling the round gets the
whole reason in Korean, and an English one in English, from the same row.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from tournaments.models import ForbiddenPairing, Round
from tournaments.services import round_pair_execute
from tournaments.tasks import round_pair_task

pytestmark = pytest.mark.django_db


def _get(client: APIClient, url: str, language: str) -> Any:
    with translation.override(language):
        return client.get(url, HTTP_ACCEPT_LANGUAGE=language)


def _queued_blocked_round(director_api: APIClient, club: Any, players: list[Any]) -> dict:
    body = {
        "club": club.pk,
        "name": "Swiss",
        "kind": "swiss",
        "rounds_planned": 3,
        "options": {"async_pairing_from": 2},
    }
    event = director_api.post("/api/events/", body, format="json").json()
    for k, p in enumerate(players, start=1):
        r = director_api.post(
            f"/api/events/{event['id']}/registrations/",
            {"player": p.pk, "seed": k, "checked_in": True},
            format="json",
        )
        assert r.status_code == 201, r.json()
    a, b = players
    r = director_api.post(
        f"/api/events/{event['id']}/forbidden-pairings/",
        {"player_a": a.pk, "player_b": b.pk},
        format="json",
    )
    assert r.status_code == 201, r.json()
    r = director_api.post(f"/api/events/{event['id']}/rounds/")
    assert r.status_code == 202, r.json()
    return event


@pytest.mark.parametrize("worker", ["en", "ko"])
def test_a_worker_failure_reads_in_the_readers_language(worker, director_api, club, make_players):
    players = make_players(2)
    players[0].name, players[1].name = "Ada", "Bo"
    for p in players:
        p.save()
    event = _queued_blocked_round(director_api, club, players)
    rnd = Round.objects.get(event_id=event["id"], number=1)
    with translation.override(worker):  # whatever language the worker happens to run in
        assert round_pair_task(rnd.pk) == Round.Status.FAILED
        round_pair_execute(round_id=rnd.pk)  # again: no longer queued, nothing changes
    rnd.refresh_from_db()
    assert rnd.error_code in ("player_blocked", "no_pairing")
    assert rnd.error  # kept as text too, in the site's language (for old readers)

    url = f"/api/events/{event['id']}/rounds/1/"
    ko = _get(director_api, url, "ko").json()
    en = _get(director_api, url, "en").json()
    assert ko["status"] == en["status"] == "failed"
    assert (ko["error_code"], ko["error_params"]) == (rnd.error_code, rnd.error_params)
    assert ko["error"].startswith("1라운드 대진을 짤 수 없습니다.")
    assert "cannot be paired" not in ko["error"]
    assert "Allow a rematch" not in ko["error"]
    assert en["error"].startswith("Round 1 cannot be paired:")
    if rnd.error_code == "player_blocked":
        assert "Ada" in ko["error"] or "Bo" in ko["error"]
    listed = _get(director_api, f"/api/events/{event['id']}/rounds/", "ko").json()
    assert listed[0]["error"] == ko["error"]
    with translation.override("ko"):
        assert rnd.error_message() == ko["error"]

    # Pairing the next round is refused with the stored reason, worded for the reader too.
    with translation.override("ko"):
        r = director_api.post(f"/api/events/{event['id']}/rounds/", HTTP_ACCEPT_LANGUAGE="ko")
    assert r.status_code == 409
    assert ko["error"] in r.json()["detail"]
    assert "cannot be paired" not in r.json()["detail"]


def test_a_round_without_a_code_shows_its_stored_text(director_api, club, make_players):
    players = make_players(2)
    event = _queued_blocked_round(director_api, club, players)
    Round.objects.filter(event_id=event["id"]).update(
        status=Round.Status.FAILED, error="An old reason.", error_code="", error_params={}
    )
    got = _get(director_api, f"/api/events/{event['id']}/rounds/1/", "ko").json()
    assert (got["error"], got["error_code"]) == ("An old reason.", "")


def test_repair_after_a_failure_clears_the_reason(director_api, club, make_players):
    players = make_players(2)
    event = _queued_blocked_round(director_api, club, players)
    rnd = Round.objects.get(event_id=event["id"], number=1)
    round_pair_execute(round_id=rnd.pk)
    ForbiddenPairing.objects.filter(event_id=event["id"]).delete()
    r = director_api.post(f"/api/events/{event['id']}/rounds/1/repair/")
    assert r.status_code == 200, r.json()
    assert (r.json()["status"], r.json()["error"], r.json()["error_code"]) == ("paired", "", "")
    rnd.refresh_from_db()
    assert (rnd.status, rnd.error, rnd.error_code, rnd.error_params) == ("paired", "", "", {})
