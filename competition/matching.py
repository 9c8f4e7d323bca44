"""Maximum-weight matching in a general graph, from libraries: rustworkx, networkx for huge weights.

This module owns one function, :func:`max_weight_matching`, the adapter through which the Swiss
pairer and the table assignment reach Edmonds' blossom algorithm. It keeps the house's plain
shape (edges as ``(i, j, weight)`` triples in, a ``mate`` list out) so that callers never see a
graph object, and it must stay free of anything tournament-specific.

rustworkx computes with 128-bit integers, so its weights are exact. The Swiss pairer builds
weights from digits in a large base, one digit per pairing criterion; when a weight (summed
over a whole matching, as the dual variables need) would not fit, networkx, whose pure-Python
integers are unbounded, solves the same problem exactly, only more slowly.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import networkx as nx
import rustworkx as rx

__all__ = ["RUSTWORKX_WEIGHT_LIMIT", "max_weight_matching"]

RUSTWORKX_WEIGHT_LIMIT = 2**120
"""Largest ``(number of vertices) * (largest |weight|)`` handed to rustworkx's 128-bit solver."""


def max_weight_matching(
    edges: Sequence[tuple[int, int, int]], *, max_cardinality: bool = False
) -> list[int]:
    """Return ``mate`` with ``mate[v]`` the vertex matched to ``v`` (``-1`` when single).

    Vertices are ``0 .. n-1``; each edge ``(i, j, weight)`` appears once, with ``i != j`` and an
    integer weight. With ``max_cardinality`` only matchings with the most edges are considered,
    which is how the pairer demands that everybody gets a table before it compares qualities.

    >>> max_weight_matching([(0, 1, 5), (1, 2, 11), (2, 3, 5)])
    [-1, 2, 1, -1]
    >>> max_weight_matching([(0, 1, 5), (1, 2, 11), (2, 3, 5)], max_cardinality=True)
    [1, 0, 3, 2]
    """
    if not edges:
        return []
    firsts = list(map(operator.itemgetter(0), edges))
    seconds = list(map(operator.itemgetter(1), edges))
    weights = list(map(operator.itemgetter(2), edges))
    if min(firsts) < 0 or min(seconds) < 0 or any(map(operator.eq, firsts, seconds)):
        raise ValueError("an edge joins a vertex to itself or names a negative vertex")
    nvertex = 1 + max(max(firsts), max(seconds))
    heaviest = max(max(weights), -min(weights))
    mate = [-1] * nvertex
    if heaviest * (nvertex + 1) < RUSTWORKX_WEIGHT_LIMIT:
        # A multigraph skips rustworkx's duplicate-edge search (each edge is given once).
        graph: rx.PyGraph[None, int] = rx.PyGraph(multigraph=True)
        graph.add_nodes_from([None] * nvertex)
        graph.extend_from_weighted_edge_list(list(edges))
        found = rx.max_weight_matching(
            graph, max_cardinality=max_cardinality, weight_fn=int, verify_optimum=False
        )
    else:
        big = nx.Graph()
        big.add_weighted_edges_from(edges)
        found = nx.max_weight_matching(big, maxcardinality=max_cardinality)
    for a, b in found:
        mate[a] = b
        mate[b] = a
    return mate
