"""Fixtures for the tournament app's tests: the club ones (a club with a director, API clients,
players made on demand) come from ``tests/clubs/conftest.py``."""

from __future__ import annotations

from tests.clubs.conftest import (  # noqa: F401 (fixtures)
    admin_user,
    api,
    club,
    director,
    director_api,
    make_players,
    stranger,
)
