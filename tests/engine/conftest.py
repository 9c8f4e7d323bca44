"""Fixtures for the engine tests: the project's own known-answer vectors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

VECTORS = Path(__file__).resolve().parent / "data" / "gin_vectors.json"


@pytest.fixture(scope="session")
def gin_vectors() -> dict[str, Any]:
    """The known-answer cases of ``tests/engine/data/gin_vectors.json`` (see its ``meta``).

    Every case is re-derived by the brute-force oracle in ``tests/engine/oracle.py``
    (``tests/engine/test_oracle.py``), which shares no code with the engine.
    """
    with VECTORS.open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data
