"""The blossom matcher against published vectors and against brute force."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.matching import max_weight_matching

# Cases from the unit tests that ship with van Rantwijk's mwmatching.py (vertex 0 unused there);
# each one exercises a blossom path: S-blossoms, T-blossoms, nesting, expansion and relabelling.
VECTORS = [
    ([(1, 2, 10), (2, 3, 11)], False, [-1, -1, 3, 2]),
    ([(1, 2, 5), (2, 3, 11), (3, 4, 5)], True, [-1, 2, 1, 4, 3]),
    ([(1, 2, 2), (1, 3, -2), (2, 3, 1), (2, 4, -1), (3, 4, -6)], True, [-1, 3, 4, 1, 2]),
    ([(1, 2, 8), (1, 3, 9), (2, 3, 10), (3, 4, 7), (1, 6, 5), (4, 5, 6)], False,
     [-1, 6, 3, 2, 5, 4, 1]),
    ([(1, 2, 9), (1, 3, 8), (2, 3, 10), (1, 4, 5), (4, 5, 3), (3, 6, 4)], False,
     [-1, 2, 1, 6, 5, 4, 3]),
    ([(1, 2, 23), (1, 5, 22), (1, 6, 15), (2, 3, 25), (3, 4, 22), (4, 5, 25), (4, 8, 14),
      (5, 7, 13)], False, [-1, 6, 3, 2, 8, 7, 1, 5, 4]),
    ([(1, 2, 19), (1, 3, 20), (1, 8, 8), (2, 3, 25), (2, 4, 18), (3, 5, 18), (4, 5, 13),
      (4, 7, 7), (5, 6, 7)], False, [-1, 8, 3, 2, 7, 6, 5, 4, 1]),
    ([(1, 2, 45), (1, 5, 45), (2, 3, 50), (3, 4, 45), (4, 5, 50), (1, 6, 30), (3, 9, 35),
      (4, 8, 28), (5, 7, 26), (9, 10, 5)], False, [-1, 6, 3, 2, 8, 7, 1, 5, 4, 10, 9]),
    ([(1, 2, 45), (1, 7, 45), (2, 3, 50), (3, 4, 45), (4, 5, 95), (4, 6, 94), (5, 6, 94),
      (6, 7, 50), (1, 8, 30), (3, 11, 35), (5, 9, 36), (7, 10, 26), (11, 12, 5)], False,
     [-1, 8, 3, 2, 6, 9, 4, 10, 1, 5, 7, 12, 11]),
    ([(1, 2, 40), (1, 3, 40), (2, 3, 60), (2, 4, 55), (3, 5, 55), (4, 5, 50), (1, 8, 15),
      (5, 7, 30), (7, 6, 10), (8, 10, 10), (4, 9, 30)], False,
     [-1, 2, 1, 5, 9, 3, 7, 6, 10, 4, 8]),
]  # fmt: skip


@pytest.mark.parametrize(("edges", "max_cardinality", "expected"), VECTORS)
def test_published_vectors(
    edges: list[tuple[int, int, int]], max_cardinality: bool, expected: list[int]
) -> None:
    assert max_weight_matching(edges, max_cardinality=max_cardinality) == expected


def test_empty_graph_and_bad_edges() -> None:
    assert max_weight_matching([]) == []
    with pytest.raises(ValueError):
        max_weight_matching([(1, 1, 3)])


def _best(n: int, weights: dict[tuple[int, int], int], cardinality: bool) -> tuple[int, ...]:
    best: tuple[int, ...] | None = None

    def walk(free: list[int], total: int, size: int) -> None:
        nonlocal best
        if not free:
            key = (size, total) if cardinality else (total,)
            best = key if best is None or key > best else best
            return
        v, rest = free[0], free[1:]
        walk(rest, total, size)
        for u in rest:
            if (v, u) in weights:
                walk([x for x in rest if x != u], total + weights[v, u], size + 1)

    walk(list(range(n)), 0, 0)
    assert best is not None
    return best


@settings(max_examples=300, deadline=None)
@given(
    st.integers(2, 8).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.dictionaries(
                st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(
                    lambda e: e[0] < e[1]
                ),
                st.integers(-5, 30),
                min_size=1,
            ),
        )
    ),
    st.booleans(),
)
def test_matches_brute_force(graph: tuple[int, dict[tuple[int, int], int]], card: bool) -> None:
    n, weights = graph
    mate = max_weight_matching([(a, b, w) for (a, b), w in weights.items()], max_cardinality=card)
    assert all(mate[mate[v]] == v for v in range(len(mate)) if mate[v] >= 0)
    pairs = [(v, mate[v]) for v in range(len(mate)) if mate[v] > v]
    total = sum(weights[p] for p in pairs)
    assert ((len(pairs), total) if card else (total,)) == _best(n, weights, card)
