"""The venue probe starts nginx, Knock and its worker twice (SQLite, then PostgreSQL + Redis):
it runs on its own (``pytest tests/venue`` or ``-m venue``, CI's phase 2b); a plain ``pytest`` /
``make test`` leaves it out."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def _asked_for(config: pytest.Config) -> bool:
    if "venue" in (config.getoption("markexpr", "") or ""):
        return True
    for arg in config.args:
        path = Path(arg.split("::")[0]).resolve()
        if path == HERE or HERE in path.parents:
            return True
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _asked_for(config):
        return
    left_out = [item for item in items if HERE in Path(str(item.fspath)).resolve().parents]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item not in left_out]
