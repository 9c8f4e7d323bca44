"""Where a bracket's matches sit on screen, and what each round is called.

Pure geometry for the bracket drawing (the SVG is written by a template): every match of a
section gets a column (its round) and a vertical centre. A first-column match takes the next
free row; a later match sits midway between the matches of its own section that feed it, as in
any printed bracket, and is pushed down only when it would overlap the one above. Connector
lines go from each feeder's right edge to the fed match's left edge.

Round names follow the usual convention: the last round of a single elimination is the final,
the one before the semi-finals, then the quarter-finals, earlier ones "round of N" (N players).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "BOX_HEIGHT",
    "BOX_WIDTH",
    "COLUMN_GAP",
    "Connector",
    "LaidOutMatch",
    "LayoutInput",
    "SectionLayout",
    "bracket_layout",
    "round_name",
]

BOX_WIDTH = 200.0
BOX_HEIGHT = 56.0
ROW_GAP = 16.0
COLUMN_GAP = 40.0
PAD = 8.0


@dataclass(frozen=True, slots=True)
class LayoutInput:
    """A match to place: its id, its round (1 = first column) and the ids of the matches of the
    same section whose winners (or losers) play in it."""

    id: int
    round: int
    feeders: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class LaidOutMatch:
    """A placed match: column index, top-left corner of its box."""

    id: int
    column: int
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Connector:
    """A three-segment line (right, down or up, right) from ``(x1, y1)`` to ``(x2, y2)``."""

    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def path(self) -> str:
        """The SVG path data.

        >>> Connector(0, 10, 40, 30).path
        'M0 10H20V30H40'
        """
        mid = (self.x1 + self.x2) / 2
        return f"M{self.x1:g} {self.y1:g}H{mid:g}V{self.y2:g}H{self.x2:g}"


@dataclass(frozen=True, slots=True)
class SectionLayout:
    """A section's placed matches, its connectors, its column count and its size."""

    matches: tuple[LaidOutMatch, ...]
    connectors: tuple[Connector, ...]
    columns: int
    width: float
    height: float


def bracket_layout(matches: Sequence[LayoutInput]) -> SectionLayout:
    """Place one section's matches.

    >>> lay = bracket_layout([LayoutInput(1, 1), LayoutInput(2, 1), LayoutInput(3, 2, (1, 2))])
    >>> [(m.id, m.column, m.y) for m in lay.matches]
    [(1, 0, 8.0), (2, 0, 80.0), (3, 1, 44.0)]
    >>> len(lay.connectors)
    2
    """
    if not matches:
        return SectionLayout((), (), 0, 0.0, 0.0)
    rounds = sorted({m.round for m in matches})
    column_of = {r: i for i, r in enumerate(rounds)}
    by_column: dict[int, list[LayoutInput]] = defaultdict(list)
    for m in matches:
        by_column[column_of[m.round]].append(m)
    known = {m.id for m in matches}
    centre: dict[int, float] = {}
    placed: list[LaidOutMatch] = []
    pitch = BOX_HEIGHT + ROW_GAP
    for column in range(len(rounds)):
        lowest = -1e9
        for row, m in enumerate(by_column[column]):
            own = [centre[f] for f in m.feeders if f in known and f in centre]
            want = sum(own) / len(own) if own else PAD + BOX_HEIGHT / 2 + row * pitch
            y = max(want, lowest + pitch)
            centre[m.id] = y
            lowest = y
            placed.append(
                LaidOutMatch(
                    id=m.id,
                    column=column,
                    x=PAD + column * (BOX_WIDTH + COLUMN_GAP),
                    y=y - BOX_HEIGHT / 2,
                )
            )
    where = {p.id: p for p in placed}
    connectors = []
    for m in matches:
        target = where[m.id]
        for f in m.feeders:
            source = where.get(f)
            if source is None or source.column >= target.column:
                continue
            connectors.append(
                Connector(
                    source.x + BOX_WIDTH,
                    source.y + BOX_HEIGHT / 2,
                    target.x,
                    target.y + BOX_HEIGHT / 2,
                )
            )
    width = PAD * 2 + len(rounds) * BOX_WIDTH + (len(rounds) - 1) * COLUMN_GAP
    height = max(p.y for p in placed) + BOX_HEIGHT + PAD
    return SectionLayout(tuple(placed), tuple(connectors), len(rounds), width, height)


def round_name(*, index: int, count: int, players: int) -> tuple[str, int]:
    """What round ``index`` (1-based) of ``count`` rounds of a knockout is called, as a code and a
    number: ``("final", 0)``, ``("semi_final", 0)``, ``("quarter_final", 0)`` or
    ``("round_of", n)`` where ``n`` players are left (``players`` in the first round).

    >>> [round_name(index=i, count=4, players=16) for i in (1, 2, 3, 4)]
    [('round_of', 16), ('quarter_final', 0), ('semi_final', 0), ('final', 0)]
    """
    left = count - index
    if left == 0:
        return ("final", 0)
    if left == 1:
        return ("semi_final", 0)
    if left == 2:
        return ("quarter_final", 0)
    return ("round_of", max(2, players >> (index - 1)))
