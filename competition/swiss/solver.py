"""The Swiss pairing search: the fast Dutch pass, its repair, and the exact matching.

Part of :mod:`competition.swiss`, whose docstring sets the criteria and how they are
met. :class:`SwissField` is one algorithm over shared state (the ranked field, its constraints and
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


class SwissField:
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

        # Criterion 1: who may take the pairing bye. A tier is (has had a bye or forfeit win,
        # how many, score); the bye goes to the best tier that leaves a complete pairing, and
        # inside it to whoever criteria 2-5 prefer, the lowest ranked among equals.
        def tier_key(i: int) -> tuple[bool, int, Fraction]:
            had = ranked[i].byes + ranked[i].forfeit_wins
            return (had > 0, had, self.score[i])

        self.bye_order = sorted(range(n), key=lambda i: (*tier_key(i), -i))
        self.bye_rank = [0] * n
        for rank, i in enumerate(self.bye_order):
            self.bye_rank[i] = rank
        tiers = {key: k for k, key in enumerate(sorted({tier_key(i) for i in range(n)}))}
        self.tier = [tiers[tier_key(i)] for i in range(n)]
        # Criterion 5's float history: last round (1) and the round before (2).
        self.down1 = [p.last_float is Float.DOWN for p in ranked]
        self.up1 = [p.last_float is Float.UP for p in ranked]
        self.down2 = [p.prior_float is Float.DOWN for p in ranked]
        self.up2 = [p.prior_float is Float.UP for p in ranked]

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
            # The fast pass's pairing (its bye in the best tier) bounds the optimum's largest gap.
            bound = None if leftovers else max((self._gap(a, b) for a, b in pairs), default=None)
            tier = None if leftovers or bye is None else self.tier[bye]
            solved = self._solve(list(range(n)), bye=None, bound=bound, tier=tier)
            if solved is None:
                raise self._explain(bye)
            return solved[0], solved[1], True
        if bye is not None and not leftovers and self._bye_may_move(pairs, bye):
            trouble.add(self.group[bye])
        if not leftovers and not trouble:
            return pairs, bye, False
        return (*self._repair(pairs, bye, leftovers, trouble), True)

    def _bye_may_move(self, pairs: list[tuple[int, int]], bye: int) -> bool:
        """Whether another player of the bye's tier might sit out at a smaller cost: the bye
        floated down in one of the last two rounds, or a float touches the bye's score group."""
        if self.down1[bye] or self.down2[bye]:
            return True
        g = self.group[bye]
        return any(
            self.score[a] != self.score[b] and g in (self.group[a], self.group[b]) for a, b in pairs
        )

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
        """Whether criteria 2-6 have nothing to improve: no floats, no soft pairs, Dutch order,
        and a bye (the lowest ranked of the best tier) who floated down in neither of the last
        two rounds."""
        if bye is not None and (self.down1[bye] or self.down2[bye]):
            return False
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
            tier = self.tier[bye] if bye is not None and movable_bye and not leftovers else None
            result = self._solve(free, bye=None if movable_bye else bye, bound=bound, tier=tier)
            if result is not None:
                new_pairs, new_bye = result
                soft_left = any(b in self.soft[a] for a, b in new_pairs)
                # A window that could only seat the pairing bye on a player of a worse tier
                # widens: a wider one may find the pairing that lets the right tier sit out.
                bye_kept = not movable_bye or (
                    new_bye is not None and self.tier[new_bye] == self.tier[self.bye_order[0]]
                )
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
        tier: int | None = None,
    ) -> tuple[list[tuple[int, int]], int | None] | None:
        """The best complete pairing of ``free`` (sorted) by criteria 1-6, or None if there is none.

        An odd ``free`` needs a bye. A ``bye`` inside ``free`` is settled (only criteria 2-6 are
        left); otherwise the bye goes to the players of ``tier`` (criterion 1's best tier with a
        complete pairing; :meth:`_best_bye` finds it when not given), and which of them sits out
        is decided with the pairing itself: a bye vertex joins the matching, its edges costing
        the candidate's repeated downfloats and its rank from the bottom of the tier.

        One maximum-weight perfect matching decides criteria 2-6: an edge's weight is
        ``top - cost``, the cost written in mixed radix with a digit per criterion (and a digit
        per score gap for the PSD), each radix larger than the most that digit can sum to over
        the whole matching, so that no amount of a lower criterion buys one unit of a higher one.
        Criterion 6 places players in their score group without the bye; while the bye is open
        that is the tier's lowest-ranked player, so when another candidate wins, a second
        matching with that bye settled puts criterion 6 right (the bye is already optimal by
        criteria 1-5, which do not depend on places). ``bound`` (a largest game gap known to be
        reachable with a bye of the same tier) drops edges that cannot be in an optimum. An even
        window keeps ``bye`` (the bye outside it) only to leave it out of the places.
        """
        candidates: list[int] = []
        if len(free) % 2:
            if bye is None or bye not in free:
                if tier is None:
                    found = self._best_bye(free)
                    if found is None:
                        return None
                    tier = self.tier[found]
                candidates = [a for a in free if self.tier[a] == tier]
                if not candidates:
                    return None
                bye = candidates[-1]
                if len(candidates) == 1:
                    candidates = []
            rest = list(free) if candidates else [a for a in free if a != bye]
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
        down1, up1, down2, up2 = self.down1, self.up1, self.down2, self.up2
        # Digits from the least significant: Dutch order, the bye's rank, repeated upfloats and
        # downfloats two rounds back, the same for last round, floaters, soft pairs, PSD.
        most_dev = 4 * max(size, default=0) + 2
        r_dev = games * most_dev + 1
        r_rank = len(candidates) + 1
        r_u2 = 1 + sum(up2[a] for a in rest)
        r_d2 = 1 + sum(down2[a] for a in rest)
        r_u1 = 1 + sum(up1[a] for a in rest)
        r_d1 = 1 + sum(down1[a] for a in rest)
        r_float = games + 1
        r_soft = games + 1
        r_psd = games + 1
        w_u2 = r_dev * r_rank
        w_d2 = w_u2 * r_u2
        w_u1 = w_d2 * r_d2
        w_d1 = w_u1 * r_u1
        float_w = w_d1 * r_d1
        soft_w = float_w * r_float
        low = soft_w * r_soft
        unit = {gap: low * r_psd**k for k, gap in enumerate(levels)} | {Fraction(0): 0}
        top = low * r_psd ** len(levels)
        local = {v: k for k, v in enumerate(rest)}
        # Per group: (player, vertex, place, cost of its upfloat), in rank order.
        rows = {
            g: [(b, local[b], position[b], w_u1 * up1[b] + w_u2 * up2[b]) for b in mem]
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
                    start = base - 2 * max(sa - 1 - pa, 0) - w_d1 * down1[a] - w_d2 * down2[a]
                    edges += [
                        (la, lb, start - 2 * pb - up_b - (soft_w if b in soft else 0))
                        for b, lb, pb, up_b in lower
                        if b not in blocked
                    ]
        vertices = len(rest)
        if candidates:
            # The bye vertex: sitting out costs the candidate's repeated downfloats, then its
            # rank from the bottom of the tier (the lowest ranked costs nothing).
            last = len(candidates) - 1
            edges += [
                (local[c], vertices, top - w_d1 * down1[c] - w_d2 * down2[c] - r_dev * (last - k))
                for k, c in enumerate(candidates)
            ]
            vertices += 1
        mate = max_weight_matching(edges, max_cardinality=True)
        if len(mate) < vertices or any(m < 0 for m in mate):
            return None
        pairs = [(a, rest[mate[k]]) for k, a in enumerate(rest) if k < mate[k] < len(rest)]
        if candidates:
            chosen = rest[mate[len(rest)]]
            if chosen != bye:
                widest = max((self._gap(a, b) for a, b in pairs), default=None)
                settled = self._solve(free, bye=chosen, bound=widest)
                return settled if settled is not None else (pairs, chosen)
        return pairs, bye

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
