"""The venue probe starts nginx, Knock and its worker twice (SQLite, then PostgreSQL + Redis):
it runs on its own (``pytest tests/venue`` or ``-m venue``, CI's phase 2b); a plain ``pytest`` /
``make test`` leaves it out."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import deselect_unless_asked

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    deselect_unless_asked(config, items, marker="venue", folder=HERE)
