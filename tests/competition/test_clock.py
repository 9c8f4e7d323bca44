"""The round's clock as pure arithmetic (competition.clock): every move, every refusal, and
properties over any sequence of moves."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition import clock as c

T0 = datetime(2026, 12, 5, 18, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_a_round_without_a_length_has_no_clock():
    clock = c.Clock()
    assert c.phase(clock, now=T0) is c.Phase.UNSET
    assert c.remaining(clock, now=T0) is None
    assert c.deadline(clock) is None
    assert not c.at_time(clock, now=at(10**6))


def test_a_length_makes_it_ready_and_it_does_not_run_before_start():
    clock = c.length_set(c.Clock(), seconds=3000)
    assert c.phase(clock, now=at(99999)) is c.Phase.READY
    assert c.remaining(clock, now=at(99999)) == 3000
    assert c.deadline(clock) is None
    assert not c.at_time(clock, now=at(99999))


def test_started_it_counts_down_to_a_deadline_and_reaches_time():
    clock = c.start(c.length_set(c.Clock(), seconds=600), now=T0)
    assert c.deadline(clock) == at(600)
    assert c.remaining(clock, now=at(100)) == 500
    assert c.phase(clock, now=at(599)) is c.Phase.RUNNING
    assert c.phase(clock, now=at(600)) is c.Phase.TIME
    assert c.at_time(clock, now=at(600))
    assert c.remaining(clock, now=at(900)) == 0


def test_a_pause_stops_it_and_the_time_paused_does_not_count():
    clock = c.start(c.length_set(c.Clock(), seconds=600), now=T0)
    clock = c.pause(clock, now=at(100))
    assert c.phase(clock, now=at(5000)) is c.Phase.PAUSED
    assert c.remaining(clock, now=at(5000)) == 500
    assert c.deadline(clock) is None
    clock = c.resume(clock, now=at(400))
    assert clock.paused_total == 300
    assert c.deadline(clock) == at(900)
    assert c.remaining(clock, now=at(500)) == 400


def test_a_paused_clock_at_time_stays_at_time():
    clock = c.start(c.length_set(c.Clock(), seconds=60), now=T0)
    clock = c.pause(clock, now=at(120))
    assert c.at_time(clock, now=at(121))
    assert c.phase(clock, now=at(121)) is c.Phase.PAUSED


def test_one_table_gets_extra_time_and_the_others_do_not():
    clock = c.start(c.length_set(c.Clock(), seconds=600), now=T0)
    clock = c.extend(clock, match_id=7, seconds=300)
    assert c.deadline(clock, match_id=7) == at(900)
    assert c.deadline(clock, match_id=8) == at(600)
    assert c.deadline(clock) == at(600)
    assert c.at_time(clock, now=at(700), match_id=8)
    assert not c.at_time(clock, now=at(700), match_id=7)
    assert c.phase(clock, now=at(700)) is c.Phase.TIME
    assert c.extend(clock, match_id=7, seconds=120).extension(7) == 420


def test_extra_time_taken_back_to_none_leaves_no_entry():
    clock = c.extend(c.length_set(c.Clock(), seconds=600), match_id=3, seconds=60)
    clock = c.extend(clock, match_id=3, seconds=-60)
    assert dict(clock.extensions) == {}


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (lambda k: c.start(c.Clock(), now=T0), "no_length"),
        (lambda k: c.start(k, now=T0), "started"),
        (lambda k: c.pause(c.length_set(c.Clock(), seconds=60), now=T0), "not_started"),
        (lambda k: c.pause(c.pause(k, now=at(1)), now=at(2)), "paused"),
        (lambda k: c.resume(k, now=at(1)), "not_paused"),
        (lambda k: c.length_set(k, seconds=0), "length"),
        (lambda k: c.length_set(k, seconds=c.MAX_LENGTH + 1), "length"),
        (lambda k: c.length_set(k, seconds=None), "started"),
        (lambda k: c.extend(c.Clock(), match_id=1, seconds=60), "no_length"),
        (lambda k: c.extend(k, match_id=1, seconds=0), "extension"),
        (lambda k: c.extend(k, match_id=1, seconds=-60), "extension"),
        (lambda k: c.extend(k, match_id=1, seconds=c.MAX_EXTENSION + 1), "extension"),
    ],
)
def test_moves_the_clock_cannot_make_are_refused_by_code(move, code):
    running = c.start(c.length_set(c.Clock(), seconds=600), now=T0)
    with pytest.raises(c.ClockError) as caught:
        move(running)
    assert caught.value.code == code


def test_a_length_changed_while_running_keeps_the_time_used():
    clock = c.start(c.length_set(c.Clock(), seconds=600), now=T0)
    longer = c.length_set(clock, seconds=1200)
    assert c.remaining(longer, now=at(500)) == 700


def test_a_clock_with_no_length_may_be_cleared_before_it_starts():
    assert c.length_set(c.length_set(c.Clock(), seconds=60), seconds=None).length is None


def test_stored_extensions_read_back_and_unreadable_ones_are_left_out():
    assert c.extensions_read({"3": 60, "x": 5, "4": "nope", "5": 0, "6": -3}) == {3: 60}
    assert c.extensions_read(["not", "a", "dict"]) == {}
    assert c.extensions_store({9: 60, 2: 30}) == {"2": 30, "9": 60}
    assert c.extensions_read(c.extensions_store({9: 60, 2: 30})) == {2: 30, 9: 60}


# -- properties over any sequence of moves --------------------------------------------------

Move = tuple[str, int, int]
moves = st.lists(
    st.tuples(
        st.sampled_from(["pause", "resume", "extend", "length"]),
        st.integers(min_value=0, max_value=3000),  # seconds after the move before
        st.integers(min_value=-600, max_value=600),  # extension or length change
    ),
    max_size=12,
)


def _run(length: int, steps: list[Move]) -> tuple[c.Clock, datetime, float]:
    """The clock after ``steps`` (refused moves skipped), the instant of the last, and the
    seconds it ran in all (counted independently, step by step)."""
    clock = c.start(c.length_set(c.Clock(), seconds=length), now=T0)
    now, ran = T0, 0.0
    for name, wait, amount in steps:
        later = now + timedelta(seconds=wait)
        if clock.paused_at is None:
            ran += wait
        now = later
        try:
            if name == "pause":
                clock = c.pause(clock, now=now)
            elif name == "resume":
                clock = c.resume(clock, now=now)
            elif name == "extend":
                clock = c.extend(clock, match_id=1, seconds=amount)
            else:
                clock = c.length_set(clock, seconds=(clock.length or 0) + amount)
        except c.ClockError:
            pass
    return clock, now, ran


@settings(max_examples=300, deadline=None)
@given(length=st.integers(min_value=1, max_value=7200), steps=moves)
def test_elapsed_is_exactly_the_time_spent_running(length, steps):
    clock, now, ran = _run(length, steps)
    assert c.elapsed(clock, now=now) == pytest.approx(ran)


@settings(max_examples=300, deadline=None)
@given(
    length=st.integers(min_value=1, max_value=7200),
    steps=moves,
    later=st.integers(min_value=0, max_value=9000),
)
def test_remaining_never_negative_never_above_the_time_given_and_never_grows(length, steps, later):
    clock, now, _ran = _run(length, steps)
    given_time = (clock.length or 0) + clock.extension(1)
    first = c.remaining(clock, now=now, match_id=1)
    second = c.remaining(clock, now=now + timedelta(seconds=later), match_id=1)
    assert first is not None
    assert second is not None
    assert 0 <= second <= first <= given_time


@settings(max_examples=300, deadline=None)
@given(length=st.integers(min_value=1, max_value=7200), steps=moves)
def test_a_running_clocks_deadline_is_when_remaining_reaches_zero(length, steps):
    clock, now, _ran = _run(length, steps)
    for match_id in (None, 1, 2):
        end = c.deadline(clock, match_id=match_id)
        if clock.paused_at is not None:
            assert end is None
            continue
        assert end is not None
        left = c.remaining(clock, now=now, match_id=match_id)
        assert left == pytest.approx(max(0.0, (end - now).total_seconds()))
        assert c.at_time(clock, now=end, match_id=match_id)
        if end > now:
            assert not c.at_time(clock, now=end - timedelta(seconds=1), match_id=match_id)


@settings(max_examples=300, deadline=None)
@given(length=st.integers(min_value=1, max_value=7200), steps=moves)
def test_a_table_with_extra_time_is_never_at_time_before_the_round(length, steps):
    clock, now, _ran = _run(length, steps)
    if c.at_time(clock, now=now, match_id=1):
        assert c.at_time(clock, now=now)
    assert clock.extension(1) >= 0
    assert c.phase(clock, now=now) in set(c.Phase) - {c.Phase.UNSET, c.Phase.READY}


@settings(max_examples=200, deadline=None)
@given(
    length=st.integers(min_value=1, max_value=7200),
    pause_at=st.integers(min_value=0, max_value=9000),
    pause_for=st.integers(min_value=0, max_value=9000),
)
def test_a_pause_and_a_resume_push_the_deadline_back_by_the_pause(length, pause_at, pause_for):
    clock = c.start(c.length_set(c.Clock(), seconds=length), now=T0)
    before = c.deadline(clock)
    clock = c.resume(c.pause(clock, now=at(pause_at)), now=at(pause_at + pause_for))
    after = c.deadline(clock)
    assert before is not None
    assert after is not None
    assert after - before == timedelta(seconds=pause_for)


def test_the_arithmetic_imports_no_framework_and_no_app():
    """competition/clock.py is pure: the services store what it returns (it cannot be in the
    import-linter contract of the pure libraries, being inside tournaments)."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(c.__file__).read_text())
    imported = {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    } | {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert imported <= {
        "__future__",
        "math",
        "collections",
        "dataclasses",
        "datetime",
        "enum",
        "types",
    }
