"""tests/support.py: a missing program skips on a developer's machine and fails under CI."""

from __future__ import annotations

import pytest

from tests.support import requires


def test_a_missing_program_fails_under_ci_and_skips_elsewhere(monkeypatch):
    def probe() -> str:
        return "ran"

    assert requires("/usr/bin/x", "x")(probe) is probe
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must provide x"):
        requires(None, "x")(probe)()
    monkeypatch.delenv("CI")
    skipped = requires(None, "x")(probe)
    assert [mark.name for mark in skipped.pytestmark] == ["skip"]
