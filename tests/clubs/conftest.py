"""Fixtures for the club tests: a club with an admin and a director, a stranger, API clients,
players made on demand.

The tournament and printing tests reuse them (``tests/tournaments/conftest.py``,
``tests/printing/conftest.py``).
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs.models import ClubRole
from tests.clubs.factories import ClubFactory, ClubRoleFactory, PlayerFactory, UserFactory


@pytest.fixture
def club(db):
    return ClubFactory()


@pytest.fixture
def director(club):
    return ClubRoleFactory(club=club, role=ClubRole.Role.DIRECTOR).user


@pytest.fixture
def admin_user(club):
    return ClubRoleFactory(club=club, role=ClubRole.Role.ADMIN).user


@pytest.fixture
def stranger(db):
    return UserFactory()


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def director_api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


@pytest.fixture
def make_players(club):
    def make(n: int, **kwargs):
        return [PlayerFactory(club=club, **kwargs) for _ in range(n)]

    return make
