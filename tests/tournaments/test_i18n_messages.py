"""Tournament errors in the user's language: the API answers a Korean client in Korean.

Each request sends ``Accept-Language``; ``translation.override`` only keeps the language the
middleware activates from leaking into later tests.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from engine.rules import find_rules
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.tournaments.factories import EventFactory
from tournaments.models import Event, Registration

pytestmark = pytest.mark.django_db


def _post(client: APIClient, url: str, body: dict[str, Any], language: str) -> Any:
    with translation.override(language):
        return client.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE=language)


def _swiss(club: Any) -> Event:
    made = EventFactory(
        club=club,
        kind=Event.Kind.SWISS,
        status=Event.Status.REGISTRATION,
        rules=find_rules("classic").to_dict(),
    )
    return Event.objects.get(pk=made.pk)


def test_a_player_of_another_club_is_refused_in_korean(club, director_api):
    event = _swiss(club)
    outsider = PlayerFactory(club=ClubFactory(name="옆 동네 클럽"), name="베라")
    url = f"/api/events/{event.pk}/registrations/"
    r = _post(director_api, url, {"player": outsider.pk}, "ko")
    assert r.status_code == 400
    assert r.json() == {
        "detail": f"베라는 {club.name}의 플레이어 명단에 없습니다. 클럽 대회에는 그 클럽의 "
        "플레이어만 참가할 수 있습니다.",
        "field": "player",
    }
    r = _post(director_api, url, {"player": outsider.pk}, "en")
    assert r.json()["detail"].startswith(f"베라 is not on {club.name}'s player list;")
    assert not Registration.objects.filter(event=event).exists()


def test_a_reserved_club_address_is_refused_in_korean(director_api):
    r = _post(director_api, "/api/clubs/", {"name": "New", "slug": "new"}, "ko")
    assert r.status_code == 400
    assert r.json() == {"detail": "예약된 주소입니다. 다른 주소를 고르세요.", "field": "slug"}


def test_a_round_that_cannot_be_paired_says_why_in_korean(club, director_api):
    a, b = PlayerFactory(club=club, name="가람"), PlayerFactory(club=club, name="나래")
    event = _swiss(club)
    for p in (a, b):
        body = {"player": p.pk, "checked_in": True}
        r = _post(director_api, f"/api/events/{event.pk}/registrations/", body, "ko")
        assert r.status_code == 201, r.json()
    pair = f"/api/events/{event.pk}/forbidden-pairings/"
    assert _post(director_api, pair, {"player_a": a.pk, "player_b": b.pk}, "ko").status_code == 201
    r = _post(director_api, f"/api/events/{event.pk}/rounds/", {}, "ko")
    assert r.status_code == 409
    detail = r.json()["detail"]
    # The algorithm's reason (a code and the player's id) is worded here, with the name.
    assert detail.startswith("1라운드 대진을 짤 수 없습니다. ")
    assert "가람은 " in detail or "나래는 " in detail
    assert detail.endswith("재대결을 허용하거나, 금지 대진을 풀거나, 부전승을 주세요.")
    r = _post(director_api, f"/api/events/{event.pk}/rounds/", {}, "en")
    assert r.json()["detail"].startswith("Round 1 cannot be paired: ")


def test_service_and_permission_errors_of_an_event_in_korean(club, director_api, stranger):
    event = _swiss(club)
    url = f"/api/events/{event.pk}/"
    with translation.override("ko"):
        r = director_api.patch(
            url, {"options": {"bye_points": -1}}, format="json", HTTP_ACCEPT_LANGUAGE="ko"
        )
    assert r.status_code == 400
    assert r.json() == {
        "detail": "옵션 bye_points는 0 이상의 숫자여야 합니다.",
        "field": "options",
    }
    outsider = APIClient()
    outsider.force_authenticate(stranger)
    with translation.override("ko"):
        r = outsider.patch(url, {"name": "X"}, format="json", HTTP_ACCEPT_LANGUAGE="ko")
    assert r.status_code == 403
    assert r.json()["detail"] == "이 대회의 디렉터와 클럽 관리자·디렉터만 할 수 있습니다."


def test_a_forbidden_pairing_with_a_player_of_another_club_is_refused(club, director_api):
    event = _swiss(club)
    ours = PlayerFactory(club=club, name="Ours")
    outsider = PlayerFactory(club=ClubFactory(name="Elsewhere"), name="Vera")
    pair = f"/api/events/{event.pk}/forbidden-pairings/"
    r = _post(director_api, pair, {"player_a": ours.pk, "player_b": outsider.pk}, "en")
    assert r.status_code == 400
    assert r.json()["field"] == "player_b"
    assert r.json()["detail"].startswith(f"Vera is not on {club.name}'s player list;")
    assert not event.forbidden_pairings.exists()
