"""Swiss pairing of one round: who plays whom, who sits out, and at which table.

This module owns the pairing rules only. It takes frozen snapshots of the players (built by a
selector) and returns a frozen :class:`SwissPairing`; it never reads or writes the database and
never decides scores.

How a round is paired:

1. Players who asked for a bye are set aside first; they are not paired.
2. The others are ranked by score, then rating (or seed), and split into score groups.
3. If their number is odd, the pairing bye goes to the lowest-ranked player who has had the fewest
   byes (so nobody gets a second bye while someone else has had none, unless nothing else works).
4. A Dutch-like pass pairs each score group from the top: players floated down from above meet
   the highest compatible residents, then the top half meets the bottom half (1 v n/2+1, ...),
   with the nearest compatible transposition when a pair is a rematch or forbidden. Whoever cannot
   be paired inside the group floats down to the next one.
5. If that pass leaves somebody unpaired, pairs a soft-forbidden couple, or floats more players than
   the groups' parity requires, the problematic score groups (with everyone their players were
   paired with) are re-paired with a maximum-weight matching (:mod:`.matching`) whose weights
   encode, in strict order of importance: nobody is left out; no second bye; no soft-forbidden
   pairs; the fewest score-group boundaries crossed; closeness to the Dutch "top half v bottom
   half" ideal. The window widens around those groups until everybody is paired, and is the whole
   field for fields of at most ``FULL_MATCHING_LIMIT`` players, so small events get the optimum.
   Rematches and hard-forbidden pairs are never edges.

Because the last window is the whole field, a pairing is found whenever one exists; otherwise
:class:`PairingError` says why.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Literal, TypeAlias

from .matching import max_weight_matching

__all__ = [
    "FULL_MATCHING_LIMIT",
    "ClubRule",
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
]

Score: TypeAlias = float | Fraction
"""A score: an ``int``, ``float`` or exact :class:`~fractions.Fraction` (half points stay exact)."""

FULL_MATCHING_LIMIT = 128
"""Fields up to this size are re-paired as a whole when the fast pass is not clean."""

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


class ClubRule(Enum):
    """Whether players of the same club (or family group) may meet."""

    ALLOW = "allow"
    SOFT = "soft"
    HARD = "hard"


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """One checked-in player as the pairer needs them; ``seed`` 1 is the strongest."""

    id: int
    score: Score = 0
    rating: float = 0.0
    seed: int = 0
    opponents: frozenset[int] = frozenset()
    byes: int = 0
    seats: tuple[Seat, ...] = ()
    requests_bye: bool = False
    club: int | None = None


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
    tells whether the blossom fallback was needed (useful when explaining a surprising pairing).
    """

    tables: tuple[Table, ...]
    byes: tuple[SwissBye, ...]
    soft_conflicts: tuple[tuple[int, int], ...] = ()
    used_matching: bool = False

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
    tables = tuple(
        _seat(active[i], active[j], number)
        for number, (i, j) in enumerate(sorted(pairs, key=lambda ij: min(ij)), start=1)
    )
    byes = requested
    if bye is not None:
        byes += (SwissBye(active[bye].id, config.pairing_bye_points, False),)
    conflicts = tuple(
        (active[i].id, active[j].id) for i, j in sorted(pairs, key=min) if j in field.soft[i]
    )
    return SwissPairing(tables, byes, conflicts, used_matching)


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
        for i, p in enumerate(ranked):
            if not self.groups or ranked[self.groups[-1][0]].score != p.score:
                self.groups.append([])
            self.groups[-1].append(i)
            self.group.append(len(self.groups) - 1)
        self.position = [0] * n
        for members in self.groups:
            for pos, i in enumerate(members):
                self.position[i] = pos

    def pair(self) -> tuple[list[tuple[int, int]], int | None, bool]:
        """Pair the field: the fast pass if it is clean, else matching on growing windows."""
        n = self.n
        if n == 0:
            return [], None, False
        bye = None
        if n % 2:
            bye = min(range(n), key=lambda i: (self.players[i].byes, -i))
        pairs, leftovers, trouble = self._dutch(bye)
        if not leftovers and not trouble:
            return pairs, bye, False
        return (*self._repair(pairs, bye, leftovers, trouble), True)

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
        more players than its parity requires, or when it pairs a soft-forbidden couple.
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
        """Re-pair growing windows of score groups with the blossom matcher until all is well.

        A window is a set of score groups; everyone in it, everyone they were paired with, the
        unpaired and (when it may need to move) the bye are re-paired together, so the rest of the
        fast pass stays valid. The window starts at the groups that went wrong and widens around
        them until the matching pairs everybody; the whole field is the last resort.
        """
        groups = len(self.groups)
        marks = set(trouble) | {self.group[i] for i in leftovers}
        if leftovers:
            marks.add(groups - 1)
        if self.n <= FULL_MATCHING_LIMIT:
            marks = set(range(groups))
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
            result = self._match(free, movable_bye)
            if result is not None:
                new_pairs, new_bye, soft_left = result
                if whole or not soft_left or len(free) >= QUALITY_WINDOW_LIMIT:
                    kept = [(a, b) for a, b in pairs if a not in chosen]
                    return kept + new_pairs, (new_bye if movable_bye else bye)
            elif whole:
                raise self._explain(bye)
            radius = radius * 2 + 1

    def _match(
        self, free: list[int], with_bye: bool
    ) -> tuple[list[tuple[int, int]], int | None, bool] | None:
        """Maximum-weight perfect matching of ``free`` (plus a bye vertex); None if there is none.

        Weights are ``BIG - penalty`` with penalty tiers far enough apart that a lower tier can
        never outweigh one unit of a higher tier over the whole matching: second byes, then
        soft-forbidden pairs, then score-group boundaries crossed, then distance from the Dutch
        ideal partner.
        """
        n, groups = self.n, len(self.groups)
        float_w = n * n + 1
        soft_w = float_w * (n + 1) * (groups + 1)
        bye_w = soft_w * (n + 1)
        big = bye_w * (max(self.players[a].byes for a in free) + 2)
        local = {v: k for k, v in enumerate(free)}
        edges: list[tuple[int, int, int]] = []
        for a in free:
            ga, blocked, soft = self.group[a], self.blocked[a], self.soft[a]
            for b in free:
                if b <= a or b in blocked:
                    continue
                gb = self.group[b]
                if ga == gb:
                    half = len(self.groups[ga]) // 2
                    dev = abs(self.position[b] - self.position[a] - half)
                else:
                    dev = self.position[b] + len(self.groups[ga]) - 1 - self.position[a]
                penalty = (soft_w if b in soft else 0) + float_w * (gb - ga) + dev
                edges.append((local[a], local[b], big - penalty))
        bye_vertex = len(free)
        if with_bye:
            for a in free:
                p = self.players[a]
                penalty = bye_w * p.byes + float_w * (groups - 1 - self.group[a]) + n - 1 - a
                edges.append((local[a], bye_vertex, big - penalty))
        mate = max_weight_matching(edges, max_cardinality=True)
        size = len(free) + (1 if with_bye else 0)
        if len(mate) < size or any(m < 0 for m in mate[:size]):
            return None
        new_pairs: list[tuple[int, int]] = []
        new_bye = None
        for k, a in enumerate(free):
            m = mate[k]
            if m == bye_vertex and with_bye:
                new_bye = a
            elif m > k:
                new_pairs.append((a, free[m]))
        soft_left = any(b in self.soft[a] for a, b in new_pairs)
        return new_pairs, new_bye, soft_left

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
