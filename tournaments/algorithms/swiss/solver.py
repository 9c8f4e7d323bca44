"""The Swiss pairing search: the fast Dutch pass, its repair, and the exact matching.

Part of :mod:`tournaments.algorithms.swiss`, whose docstring sets the criteria and how they are
met. :class:`_Field` is one algorithm over shared state (the ranked field, its constraints and
score groups): the Dutch pass, the windowed repair, the bye choice and the weighted matching all
read and rank the same indices, so it is kept whole here. The size limits below are read from this
module at call time (a test lowers them here to force the windows).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction

from ..matching import max_weight_matching
from .model import ClubRule, Float, ForbiddenPair, PairingError, SwissPlayer

__all__ = ["FULL_MATCHING_LIMIT", "QUALITY_WINDOW_LIMIT"]

FULL_MATCHING_LIMIT = 1536
"""Fields up to this size are paired exactly, as a whole (unless the fast pass is already perfect).

Set from ``make bench`` (``bench/pairing_bench.py``) on a shared 2-core machine: the slowest round
took 1.1 s at 1,024 players (target 2 s) and 1.7 s at 1,536 (budget 3.3 s, on the straight line
between the 2 s and 10 s targets); 2,048 took 4.3 s against a 4.7 s budget, too close on a busy
machine.
"""

QUALITY_WINDOW_LIMIT = 512
"""A window stops growing for soft-forbidden pairs alone once it holds this many players."""


class _Field:
    """The ranked field as indices (0 = top), with the constraints as adjacency sets."""

    def __init__(
        self, ranked: Sequence[SwissPlayer], forbidden: Iterable[ForbiddenPair], club: ClubRule
    ) -> None:
        self.players = ranked
        n = len(ranked)
        self.n = n
        self.score = [Fraction(p.score) for p in ranked]
        index = {p.id: i for i, p in enumerate(ranked)}
        self.blocked: list[set[int]] = [
            {index[o] for o in p.opponents if o in index} for p in ranked
        ]
        self.soft: list[set[int]] = [set() for _ in range(n)]
        for f in forbidden:
            if f.a in index and f.b in index and f.a != f.b:
                i, j = index[f.a], index[f.b]
                target = self.blocked if f.hard else self.soft
                target[i].add(j)
                target[j].add(i)
        if club is not ClubRule.ALLOW:
            by_club: dict[int, list[int]] = {}
            for i, p in enumerate(ranked):
                if p.club is not None:
                    by_club.setdefault(p.club, []).append(i)
            target = self.blocked if club is ClubRule.HARD else self.soft
            for members in by_club.values():
                for i in members:
                    target[i].update(m for m in members if m != i)
        for i in range(n):
            self.soft[i] -= self.blocked[i]
        self.group: list[int] = []
        self.groups: list[list[int]] = []
        for i in range(n):
            if not self.groups or self.score[self.groups[-1][0]] != self.score[i]:
                self.groups.append([])
            self.groups[-1].append(i)
            self.group.append(len(self.groups) - 1)
        # Criterion 1's order: who should take the pairing bye, most deserving first.
        self.bye_order = sorted(
            range(n),
            key=lambda i: (
                ranked[i].byes + ranked[i].forfeit_wins > 0,
                ranked[i].byes + ranked[i].forfeit_wins,
                self.score[i],
                -i,
            ),
        )
        self.bye_rank = [0] * n
        for rank, i in enumerate(self.bye_order):
            self.bye_rank[i] = rank

    def pair(self) -> tuple[list[tuple[int, int]], int | None, bool]:
        """Pair the field: exactly up to ``FULL_MATCHING_LIMIT``, else the fast pass repaired."""
        n = self.n
        if n == 0:
            return [], None, False
        bye = self.bye_order[0] if n % 2 else None
        pairs, leftovers, trouble = self._dutch(bye)
        if n <= FULL_MATCHING_LIMIT:
            if not leftovers and self._perfect(pairs, bye):
                return pairs, bye, False
            bound = None if leftovers else max(self._gap(a, b) for a, b in pairs)
            solved = self._solve(list(range(n)), bye=bye if not leftovers else None, bound=bound)
            if solved is None:
                raise self._explain(bye)
            return solved[0], solved[1], True
        if not leftovers and not trouble:
            return pairs, bye, False
        return (*self._repair(pairs, bye, leftovers, trouble), True)

    def _gap(self, a: int, b: int) -> Fraction:
        return abs(self.score[a] - self.score[b])

    def _positions(self, bye: int | None) -> tuple[list[int], list[int]]:
        """Each player's place in their score group and the group's size, the bye left out."""
        position = [0] * self.n
        size = [0] * len(self.groups)
        for g, members in enumerate(self.groups):
            for i in members:
                if i != bye:
                    position[i] = size[g]
                    size[g] += 1
        return position, size

    def _deviation(self, a: int, b: int, position: list[int], size: list[int]) -> int:
        """How far ``a`` v ``b`` (``a`` ranked higher) is from the Dutch order (criterion 6); the
        same measure as the weights in :meth:`_solve`, which inline it for speed.

        Inside a group, twice the distance from the Dutch partner (``n/2`` places further down),
        plus one when both players are in the same half (an exchange rather than a
        transposition). A floater costs twice its distance from the bottom of its own group and
        from the top of the group below.
        """
        ga, gb = self.group[a], self.group[b]
        if ga == gb:
            half = size[ga] // 2
            pa, pb = position[a], position[b]
            return 2 * abs(pb - pa - half) + (not pa < half <= pb)
        return 2 * (position[b] + size[ga] - 1 - position[a])

    def _perfect(self, pairs: list[tuple[int, int]], bye: int | None) -> bool:
        """Whether criteria 2-6 have nothing to improve: no floats, no soft pairs, Dutch order."""
        position, size = self._positions(bye)
        return all(
            self.score[a] == self.score[b]
            and b not in self.soft[a]
            and self._deviation(a, b, position, size) == 0
            for a, b in pairs
        )

    def _choose(self, p: int, candidates: Iterable[int], taken: list[bool]) -> int:
        """The first compatible candidate, preferring one that is not soft-forbidden; -1 if none."""
        fallback = -1
        blocked, soft = self.blocked[p], self.soft[p]
        for c in candidates:
            if taken[c] or c in blocked:
                continue
            if c not in soft:
                return c
            if fallback < 0:
                fallback = c
        return fallback

    def _dutch(self, bye: int | None) -> tuple[list[tuple[int, int]], list[int], set[int]]:
        """The fast pass; returns pairs, players left unpaired, and score groups that went wrong.

        A group "goes wrong" when a floater from above cannot be paired in it, when it floats
        more players than its parity requires, or when it pairs a soft-forbidden couple. (A
        repeated float alone does not: on fields too big to pair exactly, repairing every such
        group would re-pair most of the field.)
        """
        taken = [False] * self.n
        if bye is not None:
            taken[bye] = True
        pairs: list[tuple[int, int]] = []
        trouble: set[int] = set()
        floaters: list[int] = []

        def pair(a: int, b: int, g: int) -> None:
            taken[a] = taken[b] = True
            pairs.append((a, b) if a < b else (b, a))
            if b in self.soft[a]:
                trouble.add(g)

        for g, members in enumerate(self.groups):
            residents = [i for i in members if not taken[i]]
            incoming, floaters = floaters, []
            for f in incoming:
                c = self._choose(f, residents, taken)
                if c < 0:
                    floaters.append(f)
                    trouble.add(g)
                else:
                    pair(f, c, g)
            rest = [i for i in residents if not taken[i]]
            half = len(rest) // 2
            s1, s2 = rest[:half], rest[half:]
            for k, p in enumerate(s1):
                if not taken[p]:
                    c = self._choose(p, _dutch_candidates(s1, s2, k), taken)
                    if c >= 0:
                        pair(p, c, g)
            own = 0
            for k, p in enumerate(rest):
                if not taken[p]:
                    c = self._choose(p, rest[k + 1 :], taken)
                    if c >= 0:
                        pair(p, c, g)
                    else:
                        taken[p] = True
                        floaters.append(p)
                        own += 1
            if own > len(rest) % 2:
                trouble.add(g)
        return pairs, floaters, trouble

    def _repair(
        self,
        pairs: list[tuple[int, int]],
        bye: int | None,
        leftovers: list[int],
        trouble: set[int],
    ) -> tuple[list[tuple[int, int]], int | None]:
        """Re-pair growing windows of score groups with the exact matcher until all is well.

        A window is a set of score groups; everyone in it, everyone they were paired with, the
        unpaired and (when it may need to move) the bye are re-paired together, so the rest of the
        fast pass stays valid. The window starts at the groups that went wrong and widens around
        them until the matching pairs everybody; the whole field is the last resort.
        """
        groups = len(self.groups)
        marks = set(trouble) | {self.group[i] for i in leftovers}
        if leftovers:
            marks.add(groups - 1)
        partner = dict(pairs) | {b: a for a, b in pairs}
        radius = 0
        while True:
            window = {g for m in marks for g in range(m - radius, m + radius + 1)}
            whole = all(g in window for g in range(groups))
            chosen = {i for i in range(self.n) if self.group[i] in window}
            chosen |= {partner[i] for i in chosen if i in partner}
            chosen.update(leftovers)
            movable_bye = bye is not None and (bye in chosen or bool(leftovers))
            if bye is not None:
                chosen.discard(bye)
            free = sorted(chosen | ({bye} if bye is not None and movable_bye else set()))
            # The fast pass's own games in the window bound its optimum's largest gap.
            inside = [(a, b) for a, b in pairs if a in chosen]
            bound = None if leftovers else max((self._gap(a, b) for a, b in inside), default=None)
            result = self._solve(free, bye=None if movable_bye else bye, bound=bound)
            if result is not None:
                new_pairs, new_bye = result
                soft_left = any(b in self.soft[a] for a, b in new_pairs)
                # A window that could only seat the pairing bye on a less deserving player
                # widens: a wider one may find the pairing that lets the right player sit out.
                bye_kept = not movable_bye or new_bye == self.bye_order[0]
                if whole or (bye_kept and (not soft_left or len(free) >= QUALITY_WINDOW_LIMIT)):
                    kept = [(a, b) for a, b in pairs if a not in chosen]
                    return kept + new_pairs, (new_bye if movable_bye else bye)
            elif whole:
                raise self._explain(bye)
            radius = radius * 2 + 1

    def _best_bye(self, free: list[int]) -> int | None:
        """Criterion 1 alone: the most deserving player of ``free`` whose bye leaves a complete
        pairing of the others (one matching: the bye edges are worth more the more deserving);
        None if ``free`` cannot be paired with any bye."""
        local = {v: k for k, v in enumerate(free)}
        edges = [
            (local[a], local[b], 1)
            for a in free
            for b in free
            if a < b and b not in self.blocked[a]
        ]
        bye_vertex = len(free)
        worst = max(self.bye_rank[a] for a in free)
        edges += [(local[a], bye_vertex, 2 + worst - self.bye_rank[a]) for a in free]
        mate = max_weight_matching(edges, max_cardinality=True)
        if len(mate) <= bye_vertex or mate[bye_vertex] < 0:
            return None
        return free[mate[bye_vertex]]

    def _solve(
        self,
        free: list[int],
        *,
        bye: int | None,
        bound: Fraction | None,
    ) -> tuple[list[tuple[int, int]], int | None] | None:
        """The best complete pairing of ``free`` by criteria 1-6, or None if there is none.

        An odd ``free`` needs a bye: ``bye`` when the caller knows criterion 1's choice, else
        :meth:`_best_bye` finds it. With the bye settled, one maximum-weight perfect matching
        decides criteria 2-6: an edge's weight is ``top - cost``, the cost written in mixed
        radix with a digit per criterion (and a digit per score gap for the PSD), each radix
        larger than the most that digit can sum to over the whole matching, so that no amount
        of a lower criterion buys one unit of a higher one. ``bound`` (a largest gap known to be
        reachable) drops edges that cannot be in an optimum. An even window keeps ``bye`` (the
        bye outside it) only to leave it out of the score-group positions.
        """
        if len(free) % 2:
            if bye is None or bye not in free:
                bye = self._best_bye(free)
                if bye is None:
                    return None
            rest = [a for a in free if a != bye]
        else:
            rest = list(free)
        if not rest:
            return [], bye
        position, size = self._positions(bye)
        members: dict[int, list[int]] = {}
        for a in rest:
            members.setdefault(self.group[a], []).append(a)
        present = sorted(members)
        score = [self.score[self.groups[g][0]] for g in present]
        # The games each pair of score groups could hold, nearest groups first; a gap over the
        # bound cannot be in an optimum, and gaps only grow further down the list.
        blocks: list[tuple[int, int, Fraction]] = []
        for x, ga in enumerate(present):
            for y in range(x, len(present)):
                gap = score[x] - score[y]
                if bound is not None and gap > bound:
                    break
                blocks.append((ga, present[y], gap))
        games = len(rest) // 2
        levels = sorted({gap for _, _, gap in blocks if gap})
        most_dev = 4 * max(size, default=0) + 2
        r_dev = games * most_dev + 1
        r_rep = 2 * games + 1
        r_float = games + 1
        r_soft = games + 1
        r_psd = games + 1
        low = r_dev * r_rep * r_float * r_soft
        unit = {gap: low * r_psd**k for k, gap in enumerate(levels)} | {Fraction(0): 0}
        top = low * r_psd ** len(levels)
        soft_w, float_w = r_dev * r_rep * r_float, r_dev * r_rep
        down = [p.last_float is Float.DOWN for p in self.players]
        up = [p.last_float is Float.UP for p in self.players]
        local = {v: k for k, v in enumerate(rest)}
        # Per group: (player, vertex, place, had an upfloat last round), in rank order.
        rows = {
            g: [(b, local[b], position[b], r_dev * up[b]) for b in mem]
            for g, mem in members.items()
        }
        edges: list[tuple[int, int, int]] = []
        for ga, gb, gap in blocks:
            same = ga == gb
            base = top - unit[gap] - (0 if same else float_w)
            half, sa = size[ga] // 2, size[ga]
            lower = rows[gb]
            for k, (a, la, pa, _) in enumerate(rows[ga]):
                blocked, soft = self.blocked[a], self.soft[a]
                if same:
                    # Twice the distance from the Dutch partner, plus one for an exchange (both
                    # players in S1, or both in S2).
                    exchange = pa >= half
                    edges += [
                        (
                            la,
                            lb,
                            base
                            - 2 * abs(pb - pa - half)
                            - (exchange or pb < half)
                            - (soft_w if b in soft else 0),
                        )
                        for b, lb, pb, _ in lower[k + 1 :]
                        if b not in blocked
                    ]
                else:
                    start = base - 2 * (sa - 1 - pa) - r_dev * down[a]
                    edges += [
                        (la, lb, start - 2 * pb - up_b - (soft_w if b in soft else 0))
                        for b, lb, pb, up_b in lower
                        if b not in blocked
                    ]
        mate = max_weight_matching(edges, max_cardinality=True)
        if len(mate) < len(rest) or any(m < 0 for m in mate):
            return None
        return [(a, rest[mate[k]]) for k, a in enumerate(rest) if mate[k] > k], bye

    def _explain(self, bye: int | None) -> PairingError:
        """Say why no pairing exists, naming a player when one player is the reason."""
        for i, p in enumerate(self.players):
            if len(self.blocked[i]) >= self.n - 1 and bye is None:
                return PairingError(
                    f"player {p.id} has already played, or may not play, every other player "
                    "present this round",
                    code="player_blocked",
                    params={"player": p.id},
                )
        return PairingError(
            f"no pairing of the {self.n} players avoids every rematch and hard-forbidden pair; "
            "allow a rematch, lift a forbidden pair or give a bye",
            code="no_pairing",
            params={"players": self.n},
        )


def _dutch_candidates(s1: list[int], s2: list[int], k: int) -> Iterator[int]:
    """Partners for ``s1[k]``: its Dutch partner ``s2[k]``, then the rest of S2 outward, then S1.

    Trying S2 below the natural partner first keeps the top half meeting the bottom half; only
    when S2 is exhausted does a player meet someone from their own half.
    """
    yield from s2[k:]
    yield from reversed(s2[:k])
    yield from s1[k + 1 :]
