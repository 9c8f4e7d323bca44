"""Time Swiss pairing round by round over simulated events, and a Glicko-2 batch update.

Each event gives ``n`` players random ratings, pairs a round, plays every game at random (the
stronger player wins more often, as the Elo curve says), records seats, byes and the occasional
requested bye, and pairs the next round from the new standings. Nothing is cached between rounds:
every round is paired from fresh snapshots, as the selector would build them.

Usage: ``python bench/pairing_bench.py [--players 1024 4096] [--rounds 9] [--seed 1]``.
The targets (a slow 2-core machine, CPython) are 2 s a round at 1,024 players and 10 s at 4,096;
1,536 players, the largest field paired exactly (``FULL_MATCHING_LIMIT``), is held to the straight
line between them (3.3 s).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from competition import (
    FULL_MATCHING_LIMIT,
    Float,
    Seat,
    SwissConfig,
    SwissPlayer,
    pair_swiss,
)
from ratings.algorithms import Glicko2Rating, RatedGame, rate_period


@dataclass(slots=True)
class _Entrant:
    """The mutable state the simulation keeps for one player between rounds."""

    id: int
    rating: float
    score: int = 0
    opponents: set[int] = field(default_factory=set)
    byes: int = 0
    seats: list[Seat] = field(default_factory=list)
    last_float: Float | None = None
    prior_float: Float | None = None


def simulate(players: int, rounds: int, seed: int) -> list[tuple[int, float, int, bool]]:
    """Play an event; return ``(round, seconds, tables, used_matching)`` for each round."""
    rng = random.Random(seed)
    field_ = [_Entrant(i, rng.gauss(1500, 200)) for i in range(1, players + 1)]
    ranked = sorted(field_, key=lambda e: -e.rating)
    seeds = {e.id: k for k, e in enumerate(ranked, start=1)}
    by_id = {e.id: e for e in field_}
    timings: list[tuple[int, float, int, bool]] = []
    for rnd in range(1, rounds + 1):
        snapshot = [
            SwissPlayer(
                id=e.id,
                score=e.score,
                rating=e.rating,
                seed=seeds[e.id],
                opponents=frozenset(e.opponents),
                byes=e.byes,
                seats=tuple(e.seats),
                requests_bye=rng.random() < 0.005,
                last_float=e.last_float,
                prior_float=e.prior_float,
            )
            for e in field_
        ]
        start = time.perf_counter()
        pairing = pair_swiss(snapshot, config=SwissConfig())
        elapsed = time.perf_counter() - start
        timings.append((rnd, elapsed, len(pairing.tables), pairing.used_matching))
        # As the selector counts them: the pairing's floats, and every bye a downfloat.
        floats = dict(pairing.floats) | {b.player: Float.DOWN for b in pairing.byes}
        for e in field_:
            e.prior_float, e.last_float = e.last_float, floats.get(e.id)
        for table in pairing.tables:
            a, b = by_id[table.first], by_id[table.second]
            a.opponents.add(b.id)
            b.opponents.add(a.id)
            a.seats.append(Seat.FIRST)
            b.seats.append(Seat.SECOND)
            expected = 1 / (1 + 10 ** ((b.rating - a.rating) / 400))
            (a if rng.random() < expected else b).score += 2
        for bye in pairing.byes:
            if not bye.requested:
                by_id[bye.player].byes += 1
                by_id[bye.player].score += 2
    return timings


def glicko_batch(players: int, seed: int) -> float:
    """Seconds to rate one period in which every player played five games."""
    rng = random.Random(seed)
    ratings = {i: Glicko2Rating(rng.gauss(1500, 200), rng.uniform(50, 350)) for i in range(players)}
    games: list[RatedGame] = []
    for _ in range(5):
        order = list(range(players))
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=True):
            games.append(RatedGame(a, b, 1.0 if rng.random() < 0.5 else 0.0))
    start = time.perf_counter()
    rate_period(ratings, games)
    return time.perf_counter() - start


def _target(players: int) -> float | None:
    """Seconds a round may take: 2 s at 1,024 players, 10 s at 4,096, on a straight line between."""
    if not 1024 <= players <= 4096:
        return None
    return 2.0 + 8.0 * (players - 1024) / 3072


def main(argv: Sequence[str] | None = None) -> None:
    """Print one table per field size: the seconds each round's pairing took."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, nargs="+", default=[1024, 1536, 4096])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"FULL_MATCHING_LIMIT: fields of up to {FULL_MATCHING_LIMIT} players are paired exactly")
    for n in args.players:
        print(f"\nSwiss pairing, {n} players, {args.rounds} rounds (seed {args.seed})")
        print(f"{'round':>5} {'tables':>7} {'seconds':>9}  matcher")
        total = worst = 0.0
        for rnd, seconds, tables, fallback in simulate(n, args.rounds, args.seed):
            total += seconds
            worst = max(worst, seconds)
            print(f"{rnd:>5} {tables:>7} {seconds:>9.3f}  {'exact' if fallback else '-'}")
        print(f"{'all':>5} {'':>7} {total:>9.3f}")
        target = _target(n)
        if target is not None:
            verdict = "met" if worst <= target else "MISSED"
            print(f"slowest round {worst:.3f} s, target {target:.1f} s: {verdict}")
        print(f"Glicko-2 period for {n} players x 5 games: {glicko_batch(n, args.seed):.3f} s")


if __name__ == "__main__":
    main()
