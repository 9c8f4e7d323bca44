"""Swiss pairing of one round: who plays whom, who sits out, and at which table.

This module owns the pairing rules only. It takes frozen snapshots of the players (built by a
selector) and returns a frozen :class:`SwissPairing`; it never reads or writes the database and
never decides scores. ``docs/pairing.md`` sets the criteria beside FIDE's Dutch system (C.04.3).

Hard rules (never broken): nobody meets an opponent they have played (an unplayed, forfeited
game is not a meeting: the caller leaves it out of ``opponents``), no hard-forbidden pair, and
everybody not on a requested bye is paired, or sits out on the one pairing bye of an odd field.
Among the pairings that keep them, the best is chosen by these criteria, each one absolute over
the ones after it:

1. the pairing bye goes to the lowest-ranked player of the lowest score group who has had no
   pairing bye and no forfeit win (``byes``, ``forfeit_wins``); only when no complete pairing
   allows that does it go further up, and to a player with a bye or forfeit win only when nobody
   else can take it (then to whoever has had the fewest);
2. the smallest pairing score difference (FIDE's PSD): the score gaps of the games, largest
   first, compared lexicographically; the bye counts as a game against a player one point below
   the lowest score;
3. the fewest soft-forbidden couples (same club or family when the event only discourages it);
4. the fewest floaters (games between different scores);
5. the fewest players floating in the same direction as in the previous round;
6. the nearest to the Dutch order inside each score group: top half against bottom half
   (1 v n/2+1, ...), a floater against the top of the group below.

Requested byes are set aside first and never count as pairing byes.

How: a fast Dutch pass pairs each score group from the top (floaters from above meet the highest
compatible residents, then S1 meets S2 with the nearest transposition on a conflict). For fields
of at most ``FULL_MATCHING_LIMIT`` players the whole field is then paired exactly, unless the
fast pass is already perfect (nothing in criteria 2-6 to improve): a maximum-weight matching
(:mod:`.matching`) whose edge weights are digits in a large base, one digit (or one digit per
score gap, for the PSD) per criterion, so a higher criterion always outweighs everything below
it. Above that size the fast pass stands where it is clean, and the score groups where it went
wrong are re-paired by the same exact matching on growing windows until everybody is paired.
Because the last window is the whole field, a pairing is found whenever one exists; otherwise
:class:`PairingError` says why.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Literal, TypeAlias

from ..matching import max_weight_matching

__all__ = [
    "FULL_MATCHING_LIMIT",
    "ClubRule",
    "Float",
    "ForbiddenPair",
    "PairingError",
    "PairingErrorCode",
    "Score",
    "Seat",
    "SwissBye",
    "SwissConfig",
    "SwissPairing",
    "SwissPlayer",
    "Table",
    "pair_swiss",
    "pairing_score_difference",
]

Score: TypeAlias = float | Fraction
"""A score: an ``int``, ``float`` or exact :class:`~fractions.Fraction` (half points stay exact)."""

FULL_MATCHING_LIMIT = 1536
"""Fields up to this size are paired exactly, as a whole (unless the fast pass is already perfect).

Set from ``make bench`` (``bench/pairing_bench.py``) on a shared 2-core machine: the slowest round
took 1.1 s at 1,024 players (target 2 s) and 1.7 s at 1,536 (budget 3.3 s, on the straight line
between the 2 s and 10 s targets); 2,048 took 4.3 s against a 4.7 s budget, too close on a busy
machine.
"""

QUALITY_WINDOW_LIMIT = 512
"""A window stops growing for soft-forbidden pairs alone once it holds this many players."""


PairingErrorCode: TypeAlias = Literal["player_blocked", "no_pairing"]
"""Why a round cannot be paired, for a caller that words the reason itself (in another language):

- ``player_blocked``: one player has played, or may not play, everyone else present
  (``params["player"]`` is their id);
- ``no_pairing``: no player alone is the reason, the field as a whole cannot be paired
  (``params["players"]`` is the number of players to pair).
"""


class PairingError(ValueError):
    """No pairing of the round avoids every rematch and hard-forbidden pair.

    ``str()`` is the English reason; ``code`` and ``params`` say the same as data, so that a
    caller can put it in its user's language.

    >>> err = PairingError("no pairing", code="no_pairing", params={"players": 4})
    >>> (str(err), err.code, err.params)
    ('no pairing', 'no_pairing', {'players': 4})
    """

    def __init__(self, message: str, *, code: PairingErrorCode, params: dict[str, int]) -> None:
        super().__init__(message)
        self.code: PairingErrorCode = code
        self.params = params


class Seat(Enum):
    """Which side of the table a player had: ``FIRST`` deals (or moves) first in game one."""

    FIRST = "first"
    SECOND = "second"


class Float(Enum):
    """The way a player floated in a round: ``DOWN`` met a lower score (or had the pairing bye),
    ``UP`` met a higher score."""

    DOWN = "down"
    UP = "up"


class ClubRule(Enum):
    """Whether players of the same club (or family group) may meet."""

    ALLOW = "allow"
    SOFT = "soft"
    HARD = "hard"


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """One checked-in player as the pairer needs them; ``seed`` 1 is the strongest.

    ``opponents`` are the players actually met (forfeited games left out), ``forfeit_wins`` the
    games won without playing, and ``last_float`` the way they floated in the previous round.
    """

    id: int
    score: Score = 0
    rating: float = 0.0
    seed: int = 0
    opponents: frozenset[int] = frozenset()
    byes: int = 0
    seats: tuple[Seat, ...] = ()
    requests_bye: bool = False
    club: int | None = None
    forfeit_wins: int = 0
    last_float: Float | None = None


@dataclass(frozen=True, slots=True)
class ForbiddenPair:
    """Two players who must not (``hard``) or should not (soft) be paired this round."""

    a: int
    b: int
    hard: bool = True


@dataclass(frozen=True, slots=True)
class SwissConfig:
    """Event-level pairing choices.

    ``order_by`` ranks players inside a score group (and the whole field in round 1): by rating
    (then seed) or by seed alone. Bye points are echoed in the result so the caller records them
    from one place.
    """

    order_by: Literal["rating", "seed"] = "rating"
    same_club: ClubRule = ClubRule.ALLOW
    pairing_bye_points: Score = 1
    requested_bye_points: Score = 0


@dataclass(frozen=True, slots=True)
class Table:
    """One game of the round: ``first`` takes the first seat."""

    number: int
    first: int
    second: int


@dataclass(frozen=True, slots=True)
class SwissBye:
    """A player who does not play this round, and the points the bye is worth."""

    player: int
    points: Score
    requested: bool


@dataclass(frozen=True, slots=True)
class SwissPairing:
    """The pairing of one round.

    ``soft_conflicts`` lists soft-forbidden couples that had to be paired anyway; ``used_matching``
    tells whether the exact matcher was needed (useful when explaining a surprising pairing);
    ``floats`` says who floated this round and which way, in table order, the bye last.
    """

    tables: tuple[Table, ...]
    byes: tuple[SwissBye, ...]
    soft_conflicts: tuple[tuple[int, int], ...] = ()
    used_matching: bool = False
    floats: tuple[tuple[int, Float], ...] = ()

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """The games as ``(first, second)`` id pairs, in table order."""
        return tuple((t.first, t.second) for t in self.tables)

    @property
    def bye(self) -> int | None:
        """The player given the pairing bye (not a requested one), if the field was odd."""
        return next((b.player for b in self.byes if not b.requested), None)


def pair_swiss(
    players: Sequence[SwissPlayer],
    *,
    forbidden: Iterable[ForbiddenPair] = (),
    config: SwissConfig = SwissConfig(),
) -> SwissPairing:
    """Pair one Swiss round, or raise :class:`PairingError` if no valid pairing exists.

    Round 1 is simply the case of a single score group: top half against bottom half.

    >>> ps = [SwissPlayer(id=i, seed=i) for i in (1, 2, 3, 4, 5)]
    >>> result = pair_swiss(ps, config=SwissConfig(order_by="seed"))
    >>> result.pairs, result.bye
    (((1, 3), (4, 2)), 5)
    """
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise ValueError("a player appears twice in the list to pair")
    requested = tuple(
        SwissBye(p.id, config.requested_bye_points, True) for p in players if p.requests_bye
    )
    active = [p for p in players if not p.requests_bye]
    if config.order_by == "rating":
        active.sort(key=lambda p: (-p.score, -p.rating, p.seed, p.id))
    else:
        active.sort(key=lambda p: (-p.score, p.seed, p.id))
    field = _Field(active, forbidden, config.same_club)
    pairs, bye, used_matching = field.pair()
    ordered = sorted(pairs, key=min)
    tables = tuple(
        _seat(active[i], active[j], number) for number, (i, j) in enumerate(ordered, start=1)
    )
    byes = requested
    floats: list[tuple[int, Float]] = []
    for i, j in ordered:
        if field.score[i] != field.score[j]:
            hi, lo = (i, j) if field.score[i] > field.score[j] else (j, i)
            floats += [(active[hi].id, Float.DOWN), (active[lo].id, Float.UP)]
    if bye is not None:
        byes += (SwissBye(active[bye].id, config.pairing_bye_points, False),)
        floats.append((active[bye].id, Float.DOWN))
    conflicts = tuple((active[i].id, active[j].id) for i, j in ordered if j in field.soft[i])
    return SwissPairing(tables, byes, conflicts, used_matching, tuple(floats))


def pairing_score_difference(
    players: Sequence[SwissPlayer], pairing: SwissPairing
) -> tuple[Fraction, ...]:
    """FIDE's pairing score difference: every game's score gap, largest first.

    The pairing bye counts as a game against a player one point below the lowest score of the
    players paired this round (requested byes are not part of the round's pairing).

    >>> ps = [SwissPlayer(id=1, score=3), SwissPlayer(id=2, score=2), SwissPlayer(id=3, score=0)]
    >>> pairing_score_difference(ps, SwissPairing((Table(1, 1, 2),), (SwissBye(3, 1, False),)))
    (Fraction(1, 1), Fraction(1, 1))
    """
    score = {p.id: Fraction(p.score) for p in players}
    paired = [score[p.id] for p in players if not p.requests_bye]
    gaps = [abs(score[t.first] - score[t.second]) for t in pairing.tables]
    if pairing.bye is not None and paired:
        gaps.append(score[pairing.bye] - (min(paired) - 1))
    return tuple(sorted(gaps, reverse=True))


def _seat(a: SwissPlayer, b: SwissPlayer, number: int) -> Table:
    """Give the first seat to whoever had it less often, then to whoever did not have it last.

    ``a`` is the higher-ranked player; when nothing separates them the first seat alternates from
    table to table, the way chess boards alternate colours.
    """

    def balance(p: SwissPlayer) -> int:
        return sum(1 if s is Seat.FIRST else -1 for s in p.seats)

    if balance(a) != balance(b):
        first_is_a = balance(a) < balance(b)
    elif a.seats and b.seats and a.seats[-1] != b.seats[-1]:
        first_is_a = a.seats[-1] is Seat.SECOND
    else:
        first_is_a = number % 2 == 1
    return Table(number, a.id, b.id) if first_is_a else Table(number, b.id, a.id)


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
