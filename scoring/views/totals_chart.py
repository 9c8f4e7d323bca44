"""The small chart of a finished match's game totals hand by hand (``scoring/_totals_chart.html``):
one line per side, rising with the points each hand brought. Geometry only; the score sheet
table under it holds the same numbers for screen readers."""

from __future__ import annotations

from typing import Any

WIDTH, HEIGHT, LEFT, PAD = 320.0, 120.0, 34.0, 8.0


def totals_charts(games: list[dict[str, Any]], sides: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One chart per game with at least one hand and running totals for every side (a Hollywood
    game's three columns are not drawn)."""
    charts = []
    for game in games:
        rows = [r for r in game.get("rows", []) if r.get("running_totals")]
        if not rows or any(len(r["running_totals"]) != len(sides) for r in rows):
            continue
        series = [[0, *(int(r["running_totals"][k] or 0) for r in rows)] for k in range(len(sides))]
        top = max(max(s) for s in series) or 1
        step = (WIDTH - LEFT - PAD) / max(1, len(rows))

        def y(v: int, top: int = top) -> float:
            return round(PAD + (top - v) / top * (HEIGHT - 2 * PAD), 1)

        lines = [
            {
                "name": side.get("name", ""),
                "index": k,
                "points": " ".join(f"{LEFT + i * step:g},{y(v):g}" for i, v in enumerate(s)),
                "last": s[-1],
                "last_y": y(s[-1]),
            }
            for k, (side, s) in enumerate(zip(sides, series, strict=True))
        ]
        charts.append(
            {
                "number": game.get("number"),
                "width": WIDTH,
                "height": HEIGHT,
                "left": LEFT,
                "right": WIDTH - PAD,
                "top": top,
                "top_y": y(top),
                "zero_y": y(0),
                "hands": len(rows),
                "lines": lines,
            }
        )
    return charts
