"""An exact oracle for Swiss pairing that lives in the tests.

It knows nothing of the pairer's code. It ranks the field as ``docs/pairing.md`` says, and finds
the best complete legal pairing by the documented criteria in order:

1. bye tier: the pairing bye to a player of the best tier whose bye leaves a complete pairing
   (no bye or forfeit win first, then the fewest; then the lowest score); which player of the
   tier sits out is left to the criteria below;
2. the pairing score difference (PSD): score gaps largest first, bye = a game against a player
   one point below the lowest score; lexicographically smallest;
3. fewest soft-forbidden couples; 4. fewest floaters;
5. fewest repeated floats, in FIDE's order (C.12-C.15): downfloaters (the bye included) who
   floated down last round, upfloaters who floated up last round, then the same two rounds back;
   then the bye to the lowest-ranked player of its tier;
6. nearest to the Dutch order in each score group (twice the distance from the Dutch partner,
   plus one for two players of the same half; a floater twice its distance from the bottom of
   its group and the top of the next; places counted without the bye).

Up to ``BRUTE_FORCE_LIMIT`` players it enumerates every pairing and compares all criteria; up
to 40 it builds its own maximum-weight matching (networkx, unbounded integers) with weights
ordered as criteria 1-5, and compares those. ``tests/competition/test_swiss_oracle.py`` plays
generated events against it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import networkx as nx

from competition.swiss import ClubRule, Float, ForbiddenPair, SwissPlayer

BRUTE_FORCE_LIMIT = 12

Key = tuple[Any, ...]


@dataclass
class OracleRound:
    """The round to pair, as the oracle sees it."""

    ranked: list[SwissPlayer]
    hard: set[frozenset[int]]
    soft: set[frozenset[int]]

    @cached_property
    def index(self) -> dict[int, int]:
        return {p.id: k for k, p in enumerate(self.ranked)}

    @cached_property
    def by_id(self) -> dict[int, SwissPlayer]:
        return {p.id: p for p in self.ranked}

    @cached_property
    def score(self) -> dict[int, Fraction]:
        return {p.id: Fraction(p.score) for p in self.ranked}


def oracle_round(
    players: Sequence[SwissPlayer], forbidden: Sequence[ForbiddenPair], club: ClubRule
) -> OracleRound:
    """The round as the oracle sees it: the field ranked as docs/pairing.md says (requested
    byes left out), players who met (or are hard-forbidden) in ``hard``, the soft-forbidden in
    ``soft``."""
    ranked = sorted(
        (p for p in players if not p.requests_bye),
        key=lambda p: (-Fraction(p.score), -p.rating, p.seed, p.id),
    )
    ids = {p.id for p in ranked}
    hard = {frozenset((p.id, o)) for p in ranked for o in p.opponents if o in ids}
    soft: set[frozenset[int]] = set()
    for f in forbidden:
        if f.a != f.b and {f.a, f.b} <= ids:
            (hard if f.hard else soft).add(frozenset((f.a, f.b)))
    if club is not ClubRule.ALLOW:
        for p in ranked:
            for q in ranked:
                if p.id < q.id and p.club is not None and p.club == q.club:
                    (hard if club is ClubRule.HARD else soft).add(frozenset((p.id, q.id)))
    return OracleRound(ranked, hard, soft - hard)


def _bye_tier(rnd: OracleRound, pid: int) -> tuple[object, ...]:
    """Smaller is more deserving of the pairing bye (criterion 1): no bye or forfeit win, then
    the fewest, then the lowest score. Rank inside a tier comes after criterion 5."""
    p = rnd.ranked[rnd.index[pid]]
    had = p.byes + p.forfeit_wins
    return (had > 0, had, Fraction(p.score))


def _repeats(
    rnd: OracleRound, pairs: Sequence[tuple[int, int]], bye: int | None
) -> tuple[int, int, int, int]:
    """Repeated floats: (down last round, up last round, down two back, up two back)."""
    by_id, score = rnd.by_id, rnd.score
    down = [by_id[bye]] if bye is not None else []
    up = []
    for a, b in pairs:
        sa, sb = score[a], score[b]
        if sa != sb:
            hi, lo = (a, b) if sa > sb else (b, a)
            down.append(by_id[hi])
            up.append(by_id[lo])
    return (
        sum(p.last_float is Float.DOWN for p in down),
        sum(p.last_float is Float.UP for p in up),
        sum(p.prior_float is Float.DOWN for p in down),
        sum(p.prior_float is Float.UP for p in up),
    )


def pairing_key(rnd: OracleRound, pairs: Sequence[tuple[int, int]], bye: int | None) -> Key:
    """The criteria of a complete pairing, as a tuple compared lexicographically: (bye tier,
    PSD, soft pairs, floaters, the four repeated floats, the bye's rank, Dutch distance)."""
    index, score = rnd.index, rnd.score
    gaps = [abs(score[a] - score[b]) for a, b in pairs]
    if bye is not None:
        gaps.append(score[bye] - (min(score.values()) - 1))
    psd = tuple(sorted(gaps, reverse=True))
    soft = sum(frozenset(pair) in rnd.soft for pair in pairs)
    floaters = sum(score[a] != score[b] for a, b in pairs)
    groups: dict[Fraction, list[int]] = {}
    for p in rnd.ranked:
        if p.id != bye:
            groups.setdefault(score[p.id], []).append(p.id)
    place = {pid: k for members in groups.values() for k, pid in enumerate(members)}
    dutch = 0
    for a, b in pairs:
        a, b = (a, b) if index[a] < index[b] else (b, a)
        size = len(groups[score[a]])
        if score[a] == score[b]:
            half = size // 2
            dutch += 2 * abs(place[b] - place[a] - half) + (not place[a] < half <= place[b])
        else:
            dutch += 2 * (place[b] + size - 1 - place[a])
    tier = _bye_tier(rnd, bye) if bye is not None else ()
    bye_rank = -index[bye] if bye is not None else 0
    return (tier, psd, soft, floaters, *_repeats(rnd, pairs, bye), bye_rank, dutch)


def _pairings(ids: list[int], hard: set[frozenset[int]]) -> Iterator[list[tuple[int, int]]]:
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for other in rest:
        if frozenset((first, other)) in hard:
            continue
        for pairs in _pairings([i for i in rest if i != other], hard):
            yield [(first, other), *pairs]


def brute_force(rnd: OracleRound) -> tuple[Key, list[tuple[int, int]], int | None] | None:
    """Every complete legal pairing, the best by every criterion (None if there is none)."""
    ids = [p.id for p in rnd.ranked]
    best: tuple[Key, list[tuple[int, int]], int | None] | None = None
    for bye in ids if len(ids) % 2 else [None]:
        rest = [i for i in ids if i != bye]
        for pairs in _pairings(rest, rnd.hard):
            key = pairing_key(rnd, pairs, bye)
            if best is None or key < best[0]:
                best = (key, pairs, bye)
    return best


def matching_oracle(rnd: OracleRound) -> tuple[Key, list[tuple[int, int]], int | None] | None:
    """Criteria 1-5 by one maximum-weight matching with FIDE-ordered weights (None if none).

    Each criterion is a digit in base ``base`` (more than any digit can sum to): from the least
    significant, the bye's rank in its tier, repeated upfloats and downfloats two rounds back,
    the same last round, floaters, soft pairs, then one digit per distinct score gap for the
    PSD, the largest gap the most significant. The bye is a vertex whose edges add the tier, in
    units larger than every game's cost together. networkx works in unbounded integers.
    """
    players = rnd.ranked
    ids = [p.id for p in players]
    if not ids:
        return (), [], None
    score = {p.id: Fraction(p.score) for p in players}
    by_id = {p.id: p for p in players}
    base = len(ids) + 3
    gaps = sorted({abs(score[a] - score[b]) for a in ids for b in ids} - {Fraction(0)})
    low = base**7  # digits: rank, up 2, down 2, up 1, down 1, floaters, soft
    psd_digit = {g: low * base**k for k, g in enumerate(gaps)}
    top = low * base ** len(gaps)

    def down(p: SwissPlayer) -> int:
        return (p.last_float is Float.DOWN) * base**4 + (p.prior_float is Float.DOWN) * base**2

    def up(p: SwissPlayer) -> int:
        return (p.last_float is Float.UP) * base**3 + (p.prior_float is Float.UP) * base

    graph = nx.Graph()
    for k, a in enumerate(ids):
        for b in ids[k + 1 :]:
            if frozenset((a, b)) in rnd.hard:
                continue
            gap = abs(score[a] - score[b])
            hi, lo = (a, b) if score[a] >= score[b] else (b, a)
            repeat = down(by_id[hi]) + up(by_id[lo]) if gap else 0
            cost = (
                (psd_digit[gap] if gap else 0)
                + (frozenset((a, b)) in rnd.soft) * base**6
                + (gap != 0) * base**5
                + repeat
            )
            graph.add_edge(a, b, weight=top - cost)
    if len(ids) % 2:
        tiers = sorted({_bye_tier(rnd, pid) for pid in ids})
        for k, pid in enumerate(ids):
            tier = tiers.index(_bye_tier(rnd, pid))
            rank = len(ids) - 1 - k  # the lowest ranked costs nothing
            weight = top * base * (len(tiers) - tier) + top - down(by_id[pid]) - rank
            graph.add_edge(pid, "bye", weight=weight)
    found = nx.max_weight_matching(graph, maxcardinality=True)
    matched = {v for edge in found for v in edge}
    if len(matched) != len(ids) + len(ids) % 2:
        return None
    bye = next((a if b == "bye" else b for a, b in found if "bye" in (a, b)), None)
    pairs = [(a, b) for a, b in found if "bye" not in (a, b)]
    assert all(isinstance(a, int) and isinstance(b, int) for a, b in pairs)
    return pairing_key(rnd, pairs, bye), pairs, bye
