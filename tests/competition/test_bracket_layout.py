"""The bracket drawing's geometry and round names (pure, no database)."""

from __future__ import annotations

from itertools import pairwise

import pytest

from competition.bracket_layout import (
    BOX_HEIGHT,
    LayoutInput,
    bracket_layout,
    round_name,
)
from competition.elimination import Section, single_elimination


def _inputs(size: int) -> list[LayoutInput]:
    bracket = single_elimination(list(range(1, size + 1)))
    return [
        LayoutInput(m.id, m.round, tuple(s.ref for s in (m.home, m.away) if s.kind != "seed"))
        for m in bracket.matches
        if m.section == Section.WINNERS
    ]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32])
def test_each_match_sits_midway_between_its_feeders(size):
    inputs = _inputs(size)
    layout = bracket_layout(inputs)
    where = {m.id: m for m in layout.matches}
    assert layout.columns == size.bit_length() - 1
    for m in inputs:
        if m.feeders:
            a, b = (where[f].y for f in m.feeders)
            assert where[m.id].y == pytest.approx((a + b) / 2)
            assert where[m.id].column == where[m.feeders[0]].column + 1
    # One connector per feeder; none of the boxes of a column overlap.
    assert len(layout.connectors) == sum(len(m.feeders) for m in inputs)
    for column in range(layout.columns):
        ys = sorted(m.y for m in layout.matches if m.column == column)
        assert all(b - a >= BOX_HEIGHT for a, b in pairwise(ys))
    assert layout.height >= max(m.y for m in layout.matches) + BOX_HEIGHT


def test_connectors_join_the_feeders_right_edge_to_the_match_left_edge():
    layout = bracket_layout(_inputs(4))
    final = max(layout.matches, key=lambda m: m.column)
    for c in layout.connectors:
        assert c.x2 == final.x
        assert c.y2 == final.y + BOX_HEIGHT / 2
        assert c.path.startswith(f"M{c.x1:g} {c.y1:g}H")


def test_an_empty_section_has_no_size():
    layout = bracket_layout([])
    assert (layout.columns, layout.width, layout.height) == (0, 0.0, 0.0)


def test_a_match_fed_from_another_section_stacks_in_its_column():
    layout = bracket_layout([LayoutInput(5, 1, (1, 2)), LayoutInput(6, 1, (3,))])
    ys = [m.y for m in layout.matches]
    assert ys[1] - ys[0] >= BOX_HEIGHT


@pytest.mark.parametrize(
    ("index", "count", "expected"),
    [
        (1, 1, ("final", 0)),
        (1, 2, ("semi_final", 0)),
        (1, 3, ("quarter_final", 0)),
        (1, 4, ("round_of", 16)),
        (1, 5, ("round_of", 32)),
        (2, 5, ("round_of", 16)),
        (3, 5, ("quarter_final", 0)),
    ],
)
def test_round_names(index, count, expected):
    assert round_name(index=index, count=count, players=2**count) == expected
