"""The load test's scenarios: the pace presets and the verdict on the 3-second target."""

from __future__ import annotations

import pytest

from loadtest.__main__ import PACES, pace_of, verdict


def test_the_default_pace_is_a_club_night_and_rush_is_ten_times_a_real_one():
    assert pace_of({}) == ("club", "60", "120", 240)
    assert pace_of({"LOADTEST_PACE": "rush"}) == ("rush", "8", "16", 60)
    assert set(PACES) == {"club", "rush", "open"}
    # The open: the club pace, through the reference stack (loadtest.open).
    assert pace_of({"LOADTEST_PACE": "open"}) == ("open", "60", "120", 240)


def test_each_number_of_a_pace_can_be_changed_alone():
    environ = {"LOADTEST_PACE": "rush", "LOADTEST_HAND_MAX": "20", "LOADTEST_SECONDS": "30"}
    assert pace_of(environ) == ("rush", "8", "20", 30)


def test_an_unknown_pace_is_refused_with_the_choices():
    with pytest.raises(SystemExit, match="expected one of club, rush"):
        pace_of({"LOADTEST_PACE": "slow"})


def test_the_verdict_says_met_only_when_every_update_was_within_3_s():
    assert verdict([0.5, 1.0, 2.9, 3.0]).startswith(
        "target (every confirmed result on the spectators' phones within 3 s): met;"
    )
    # 1 late in 40: within 3 s at p95, but not every update.
    assert ": met at p95, not by all; " in verdict([1.0] * 39 + [4.5])
    assert verdict([1.0] * 39 + [4.5]).endswith("max 4.50 s")
    assert ": not met; lag p95 5.00 s" in verdict([1.0] * 10 + [5.0] * 10)
    assert ": met; lag p95 2.00 s, max 2.00 s" in verdict([2.0])
