"""The contract walk takes minutes, so it runs on its own: ``make contract`` (or ``pytest
tests/contract``, or ``-m contract``), and as its own phase in ``.ci/run``; a plain ``pytest`` /
``make test`` leaves it out."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import deselect_unless_asked

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    deselect_unless_asked(config, items, marker="contract", folder=HERE)
