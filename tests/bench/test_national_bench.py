"""The national bench's arithmetic: a result's lag runs to the first rebuild that counts it."""

from __future__ import annotations

from bench.national_bench import Rebuild, Result, percentile, result_lags


def _rebuild(done: float, seq: int) -> Rebuild:
    return Rebuild(done=done, seq=seq, wall=0.5, cpu=0.4)


def _result(sent: float, seq: int) -> Result:
    return Result(sent=sent, seq=seq, wall=0.1, cpu=0.05)


def test_a_lag_ends_at_the_first_rebuild_counting_the_result() -> None:
    rebuilds = [_rebuild(1.0, 2), _rebuild(2.5, 6), _rebuild(4.0, 8)]
    results = [_result(0.2, 2), _result(0.9, 4), _result(1.5, 6), _result(3.0, 8)]
    assert result_lags(results, rebuilds) == [0.8, 1.6, 1.0, 1.0]


def test_a_rebuild_done_before_the_result_was_sent_does_not_count_it() -> None:
    """A rebuild's sequence is read at its start; one that ended before the result was even
    sent cannot have counted it, whatever sequence it carries."""
    assert result_lags([_result(2.0, 3)], [_rebuild(1.0, 3), _rebuild(3.5, 3)]) == [1.5]


def test_a_result_never_counted_has_no_finite_lag() -> None:
    assert result_lags([_result(1.0, 9)], [_rebuild(2.0, 8)]) == [float("inf")]


def test_percentiles_are_values_of_the_sample() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) in (50.0, 51.0)
    assert percentile(values, 0.95) == 95.0
    assert percentile(values, 1.0) == 100.0
