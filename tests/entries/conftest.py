"""Fixtures for the entries' tests: the club ones (a club with a director, API clients) come
from ``tests/clubs/conftest.py``."""

from __future__ import annotations

from tests.clubs.conftest import (  # noqa: F401 (fixtures)
    api,
    club,
    director,
    director_api,
    stranger,
)
