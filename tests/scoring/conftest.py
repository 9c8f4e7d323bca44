"""Fixtures for the scoring API tests: clients, events and a small request helper."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Match
from scoring.services import match_link_token
from tests.clubs.factories import PlayerFactory, UserFactory
from tests.scoring.factories import event_director
from tests.tournaments.factories import EventFactory


class Api:
    """A thin wrapper over APIClient for the scoring routes."""

    def __init__(self, client: APIClient) -> None:
        self.client = client

    def start(self, event: Any, players: list[Any], expect: int = 201, **data: Any) -> Any:
        body = {"event": event.pk, "players": [p.pk for p in players], **data}
        response = self.client.post("/api/matches/", body, format="json")
        assert response.status_code == expect, response.json()
        return response.json()

    def hand(self, match_id: int, expect: int = 201, headers: Any = None, **data: Any) -> Any:
        response = self.client.post(
            f"/api/matches/{match_id}/hands/", data, format="json", headers=headers or {}
        )
        assert response.status_code == expect, response.json()
        return response.json()

    def detail(self, match_id: int, expect: int = 200) -> Any:
        response = self.client.get(f"/api/matches/{match_id}/")
        assert response.status_code == expect, response.content
        return response.json()

    def entries(self, match_id: int, expect: int = 200) -> Any:
        """The match's entries (pending, disputed, withdrawn too): its players' and directors'."""
        response = self.client.get(f"/api/matches/{match_id}/hands/")
        assert response.status_code == expect, response.content
        return response.json()

    def sheet(self, match_id: int) -> Any:
        response = self.client.get(f"/api/matches/{match_id}/scoresheet/")
        assert response.status_code == 200, response.content
        return response.json()

    def action(self, submission_id: int, name: str, expect: int = 200, **data: Any) -> Any:
        response = self.client.post(f"/api/hands/{submission_id}/{name}/", data, format="json")
        assert response.status_code == expect, response.json()
        return response.json()


def client_for(user: Any = None, token: str | None = None) -> Api:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    if token is not None:
        client.credentials(HTTP_X_MATCH_KEY=token)
    return Api(client)


@pytest.fixture
def make_event():
    def make(preset: str = "standard", confirmation: str = "none", **kwargs: Any) -> Any:
        from engine.rules import find_rules

        return EventFactory(rules=find_rules(preset).to_dict(), confirmation=confirmation, **kwargs)

    return make


@pytest.fixture
def director_api_for():
    """An API client signed in as the director of the event given."""

    def make(event: Any) -> Api:
        return client_for(event_director(event))

    return make


def players(event: Any, n: int, **kwargs: Any) -> list[Any]:
    return [PlayerFactory(club=event.club, **kwargs) for _ in range(n)]


def seat_api(match_id: int, position: int | None) -> Api:
    match = Match.objects.get(pk=match_id)
    return client_for(token=match_link_token(match=match, position=position))


def user_player(event: Any, name: str) -> tuple[Any, Any]:
    user = UserFactory(username=name)
    return user, PlayerFactory(club=event.club, name=name.title(), user=user)
