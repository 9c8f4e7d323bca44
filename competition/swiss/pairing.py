"""Pairing one Swiss round (:func:`pair_swiss`): rank the field, solve it, seat the tables.

Part of :mod:`competition.swiss`; the search itself is in :mod:`.solver`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from competition.swiss.solver import SwissField

from .model import (
    Float,
    ForbiddenPair,
    Seat,
    SwissBye,
    SwissConfig,
    SwissPairing,
    SwissPlayer,
    Table,
)

__all__ = ["pair_swiss", "pairing_score_difference"]


def pair_swiss(
    players: Sequence[SwissPlayer],
    *,
    forbidden: Iterable[ForbiddenPair] = (),
    config: SwissConfig = SwissConfig(),  # noqa: B008 - a frozen dataclass
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
    field = SwissField(active, forbidden, config.same_club)
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
