"""The rating chart's geometry (pure)."""

from __future__ import annotations

import doctest

import pytest

from ratings import charts
from ratings.charts import line_chart


def test_doctests():
    assert doctest.testmod(charts).failed == 0


def test_a_chart_needs_two_values():
    assert line_chart([]) is None
    assert line_chart([1500]) is None


def test_higher_ratings_sit_higher_and_the_band_wraps_the_line():
    chart = line_chart([1500, 1560, 1530], [100, 80, 60], width=200, height=100, left=20, pad=10)
    assert chart is not None
    ys = [d.y for d in chart.dots]
    assert ys[1] < ys[2] < ys[0]  # SVG y grows downwards
    band = [tuple(map(float, p.split(","))) for p in chart.band.split()]
    assert len(band) == 6
    assert min(y for _, y in band) == pytest.approx(10)  # the band touches the top and bottom
    assert max(y for _, y in band) == pytest.approx(90)
    assert chart.dots[0].x == 20
    assert chart.dots[-1].x == 190


def test_a_flat_line_still_draws():
    chart = line_chart([1500, 1500])
    assert chart is not None
    assert chart.dots[0].y == chart.dots[1].y
    assert chart.band == ""
