"""Fixtures for the ratings app's tests: a club, its players and an API client."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.clubs.factories import ClubFactory, PlayerFactory


@pytest.fixture
def club(db):
    return ClubFactory()


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def make_players(club):
    def make(n: int, **kwargs):
        return [PlayerFactory(club=club, **kwargs) for _ in range(n)]

    return make
