"""Fixtures for the passes' tests: the club ones come from ``tests/clubs/conftest.py``."""

from __future__ import annotations

from tests.clubs.conftest import (  # noqa: F401 (fixtures)
    api,
    club,
    director,
    director_api,
    make_players,
    stranger,
)
