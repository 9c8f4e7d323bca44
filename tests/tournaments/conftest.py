"""Fixtures for the tournament app's tests: the club ones (a club with a director, API clients)
come from ``tests/clubs/conftest.py``; players made on demand."""

from __future__ import annotations

import pytest

from tests.clubs.conftest import (  # noqa: F401 (fixtures)
    admin_user,
    api,
    club,
    director,
    director_api,
    stranger,
)
from tests.clubs.factories import PlayerFactory


@pytest.fixture
def make_players(club):  # noqa: F811 (the imported fixture)
    def make(n: int, **kwargs):
        return [PlayerFactory(club=club, **kwargs) for _ in range(n)]

    return make
