"""Fixtures for the engine tests: the shared known-answer vectors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

VECTORS = Path(__file__).resolve().parents[2].parent / "shared" / "vectors" / "gin_vectors.json"


@pytest.fixture(scope="session")
def gin_vectors() -> dict[str, Any]:
    """The known-answer cases of ``../shared/vectors/gin_vectors.json`` (see its ``meta``)."""
    with VECTORS.open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data
