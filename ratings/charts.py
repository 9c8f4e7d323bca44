"""Small line charts drawn as SVG by the templates: the geometry only (pure, no Django).

:func:`line_chart` scales a series of values (a player's rating after each match) into a
``width`` × ``height`` box with a margin for the axis labels, and gives the polyline, a band
around it (the rating's deviation) and three labelled ticks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Chart", "ChartDot", "line_chart"]


@dataclass(frozen=True, slots=True)
class ChartDot:
    """One value's place on the chart."""

    x: float
    y: float
    value: float


@dataclass(frozen=True, slots=True)
class Chart:
    """A chart's drawing: the line's points, the band's polygon, dots and y-axis ticks."""

    width: float
    height: float
    line: str
    band: str
    dots: tuple[ChartDot, ...]
    ticks: tuple[tuple[float, float], ...]  # (y, value)
    left: float


def line_chart(
    values: Sequence[float],
    spread: Sequence[float] = (),
    *,
    width: float = 320,
    height: float = 140,
    left: float = 40,
    pad: float = 8,
) -> Chart | None:
    """The chart of ``values`` with a band of ± ``spread`` around them; None under two values.

    >>> c = line_chart([1500, 1600], width=140, height=60, left=40, pad=10)
    >>> c.line
    '40,50 130,10'
    >>> [round(v) for _, v in c.ticks]
    [1500, 1550, 1600]
    """
    if len(values) < 2:
        return None
    half = list(spread) if len(spread) == len(values) else [0.0] * len(values)
    low = min(v - s for v, s in zip(values, half, strict=True))
    high = max(v + s for v, s in zip(values, half, strict=True))
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    inner_w = width - left - pad
    inner_h = height - 2 * pad
    step = inner_w / (len(values) - 1)

    def y_of(v: float) -> float:
        return pad + (high - v) / (high - low) * inner_h

    xs = [left + i * step for i in range(len(values))]
    dots = tuple(ChartDot(x, y_of(v), v) for x, v in zip(xs, values, strict=True))
    line = " ".join(f"{d.x:g},{d.y:g}" for d in dots)
    upper = [f"{x:g},{y_of(v + s):g}" for x, v, s in zip(xs, values, half, strict=True)]
    lower = [f"{x:g},{y_of(v - s):g}" for x, v, s in zip(xs, values, half, strict=True)]
    band = " ".join(upper + lower[::-1]) if any(half) else ""
    ticks = tuple((y_of(v), v) for v in (low, (low + high) / 2, high))
    return Chart(width, height, line, band, dots, ticks, left)
