"""core.drawn: a list's row drawn once per content and language, and drawn again when any
part of its key changes."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from core import drawn

TEMPLATE = "tournaments/_standing_row.html"


class _Player:
    def __init__(self, pk: int, name: str) -> None:
        self.pk = pk
        self.name = name


def _row(rank: int, name: str, points: int) -> dict[str, Any]:
    player = _Player(7, name)
    record = {"won": points // 2, "drawn": 0, "lost": 0}
    return {
        "rank": rank,
        "player": player,
        "match_points": points,
        "record": record,
        "tiebreaks": [1.5],
        "dropped": False,
        "group": None,
        "key": (rank, player.pk, name, points, record["won"], 0, 0, (1.5,), False, None),
    }


def test_a_row_is_drawn_once_per_key_and_language(drawn_renders: list[str]) -> None:
    with translation.override("en"):
        first = drawn.drawn(TEMPLATE, _row(1, "Ann", 6))
        again = drawn.drawn(TEMPLATE, _row(1, "Ann", 6))
    assert first == again
    assert ">Ann</a>" in first
    assert "<strong>6</strong>" in first
    assert drawn_renders == [TEMPLATE]
    with translation.override("ko"):
        drawn.drawn(TEMPLATE, _row(1, "Ann", 6))
    assert len(drawn_renders) == 2  # another language is another drawing


def test_a_row_whose_content_changed_is_drawn_again(drawn_renders: list[str]) -> None:
    with translation.override("en"):
        drawn.drawn(TEMPLATE, _row(1, "Ann", 6))
        renamed = drawn.drawn(TEMPLATE, _row(1, "Anne", 6))
        moved = drawn.drawn(TEMPLATE, _row(2, "Anne", 6))
    assert ">Anne</a>" in renamed
    assert '<td class="num">2</td>' in moved
    assert len(drawn_renders) == 3


def test_the_oldest_rows_are_dropped_past_the_bound(
    drawn_renders: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(drawn, "KEPT", 2)
    with translation.override("en"):
        for points in (1, 2, 3):
            drawn.drawn(TEMPLATE, _row(1, "Ann", points))
        drawn.drawn(TEMPLATE, _row(1, "Ann", 3))  # kept: the newest
        drawn.drawn(TEMPLATE, _row(1, "Ann", 1))  # dropped: drawn again
    assert len(drawn_renders) == 4
