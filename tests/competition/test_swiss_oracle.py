"""Swiss pairing against the exact oracle of ``tests/competition/swiss_oracle.py``, over
generated events.

Events are generated with draws, requested byes, drops, late entries, forfeits and forbidden
pairs; a round a player did not play (a bye of any kind, a forfeit won or lost, an absence before a
late entry) is a downfloat, as FIDE counts it. Every round is compared with the oracle on every
criterion (brute force up to ``BRUTE_FORCE_LIMIT`` players, the oracle's own matching above).

``make test`` plays a few dozen events; ``SWISS_AUDIT_EVENTS=3000`` plays as many as asked (the
figures in the report come from that run, printed with ``-s``).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.swiss import (
    ClubRule,
    Float,
    ForbiddenPair,
    PairingError,
    SwissConfig,
    SwissPairing,
    SwissPlayer,
    pair_swiss,
    pairing_score_difference,
)
from tests.competition.swiss_oracle import (
    BRUTE_FORCE_LIMIT,
    brute_force,
    matching_oracle,
    oracle_round,
    pairing_key,
)

# --- generated events --------------------------------------------------------------------------


@dataclass
class _Entrant:
    id: int
    rating: int
    score: Fraction = Fraction(0)
    met: set[int] = field(default_factory=set)
    byes: int = 0
    forfeit_wins: int = 0
    last_float: Float | None = None
    prior_float: Float | None = None
    dropped: bool = False


@dataclass
class Audit:
    """What the generated events showed."""

    events: int = 0
    rounds: int = 0
    pairing_byes: int = 0
    bye_violations: int = 0
    psd_worse: int = 0
    psd_better: int = 0
    key_mismatch: int = 0
    exact_rounds: int = 0
    unpairable_agreed: int = 0
    problems: list[str] = field(default_factory=list)
    sizes: Counter[int] = field(default_factory=Counter)


def play_event(seed: int, audit: Audit) -> None:
    """Generate and pair one event round by round, checking every round against the oracle."""
    rng = random.Random(seed)
    n = rng.randint(4, 40)
    rounds = rng.randint(1, 9)
    late = rng.randint(0, 3) if rounds > 2 else 0
    field_ = [_Entrant(i, rng.randint(1200, 2200)) for i in range(1, n + 1)]
    next_id = n + 1
    forbidden = [
        ForbiddenPair(rng.randint(1, n), rng.randint(1, n), hard=rng.random() < 0.5)
        for _ in range(rng.randint(0, 3))
    ]
    club = rng.choice(list(ClubRule))
    config = SwissConfig(same_club=club, requested_bye_points=Fraction(1, 2))
    audit.events += 1
    for number in range(1, rounds + 1):
        if number in (2, 3):
            for _ in range(late if number == 2 else 0):
                # The rounds missed are rounds not played: downfloats.
                missed = _Entrant(next_id, rng.randint(1200, 2200), last_float=Float.DOWN)
                missed.prior_float = Float.DOWN if number > 2 else None
                field_.append(missed)
                next_id += 1
        for e in field_:
            if number > 1 and rng.random() < 0.03:
                e.dropped = True
        present = [e for e in field_ if not e.dropped]
        players = [
            SwissPlayer(
                id=e.id,
                score=e.score,
                rating=e.rating,
                seed=e.id,
                opponents=frozenset(e.met),
                byes=e.byes,
                requests_bye=rng.random() < 0.05,
                club=e.id % 4 if e.id % 3 == 0 else None,
                forfeit_wins=e.forfeit_wins,
                last_float=e.last_float,
                prior_float=e.prior_float,
            )
            for e in present
        ]
        rnd = oracle_round(players, forbidden, club)
        size = len(rnd.ranked)
        exact = size <= BRUTE_FORCE_LIMIT
        best = brute_force(rnd) if exact else matching_oracle(rnd)
        try:
            result = pair_swiss(players, forbidden=forbidden, config=config)
        except PairingError:
            if best is not None:
                audit.problems.append(f"seed {seed} round {number}: error, oracle pairs it")
            audit.unpairable_agreed += best is None
            return
        audit.rounds += 1
        audit.sizes[size] += 1
        if best is None:
            audit.problems.append(f"seed {seed} round {number}: paired, oracle says impossible")
            return
        _check_valid(result, players, rnd.hard)
        key = pairing_key(rnd, list(result.pairs), result.bye)
        if result.bye is not None:
            audit.pairing_byes += 1
        if key[0] != best[0][0]:
            audit.bye_violations += 1
            audit.problems.append(f"seed {seed} round {number}: bye {result.bye} not {best[2]}")
        elif key[1] > best[0][1]:
            audit.psd_worse += 1
            audit.problems.append(f"seed {seed} round {number}: PSD {key[1]} > {best[0][1]}")
        elif key[1] < best[0][1]:
            audit.psd_better += 1
            audit.problems.append(f"seed {seed} round {number}: oracle PSD worse (oracle bug)")
        width = len(key) if exact else len(key) - 1
        if key[:width] != best[0][:width]:
            audit.key_mismatch += 1
            audit.problems.append(f"seed {seed} round {number}: {key} != {best[0]}")
        audit.exact_rounds += exact
        assert pairing_score_difference(players, result) == key[1]
        _play(rng, result, {e.id: e for e in present})


def _check_valid(
    result: SwissPairing, players: Sequence[SwissPlayer], hard: set[frozenset[int]]
) -> None:
    requested = {p.id for p in players if p.requests_bye}
    seated = [x for pair in result.pairs for x in pair]
    assert len(seated) == len(set(seated))
    assert {b.player for b in result.byes if b.requested} == requested
    assert set(seated) | {b.player for b in result.byes} == {p.id for p in players}
    assert len(result.byes) - len(requested) <= 1
    assert not any(frozenset(pair) in hard for pair in result.pairs)


def _play(rng: random.Random, result: SwissPairing, by_id: dict[int, _Entrant]) -> None:
    """Results: wins, draws, and now and then a forfeit (a win without a meeting).

    The round's floats are the pairing's, and a downfloat for everyone who did not play: the
    byes, both sides of a forfeit (FIDE C.04.3 A.4.b: whatever the reason).
    """
    floats: dict[int, Float | None] = dict(result.floats)
    for bye in result.byes:
        floats[bye.player] = Float.DOWN
    for a, b in result.pairs:
        ea, eb = by_id[a], by_id[b]
        roll = rng.random()
        if roll < 0.04:
            winner = rng.choice((ea, eb))
            winner.score += 1
            winner.forfeit_wins += 1
            floats[a] = floats[b] = Float.DOWN
            continue
        ea.met.add(b)
        eb.met.add(a)
        if roll < 0.25:
            ea.score += Fraction(1, 2)
            eb.score += Fraction(1, 2)
        else:
            rng.choice((ea, eb)).score += 1
    for bye in result.byes:
        e = by_id[bye.player]
        e.score += Fraction(bye.points)
        if not bye.requested:
            e.byes += 1
    for e in by_id.values():
        e.prior_float, e.last_float = e.last_float, floats.get(e.id)


def run_audit(events: int, first_seed: int = 0) -> Audit:
    audit = Audit()
    for seed in range(first_seed, first_seed + events):
        play_event(seed, audit)
    return audit


def test_generated_events_agree_with_the_oracle() -> None:
    """Zero bye-rule violations and zero rounds with a worse PSD than the exact optimum."""
    events = int(os.environ.get("SWISS_AUDIT_EVENTS", "25"))
    audit = run_audit(events)
    print(
        f"\n{audit.events} events, {audit.rounds} rounds ({audit.exact_rounds} by brute force), "
        f"{audit.pairing_byes} pairing byes: {audit.bye_violations} bye violations, "
        f"{audit.psd_worse} rounds with a worse PSD, {audit.key_mismatch} differing on a "
        f"later criterion, {audit.unpairable_agreed} unpairable rounds confirmed"
    )
    assert audit.problems == []
    assert audit.rounds > events


@settings(max_examples=15, deadline=None)
@given(st.integers(10_000, 10**9))
def test_random_events_agree_with_the_oracle_on_every_criterion(seed: int) -> None:
    """Hypothesis draws events (field size, rounds, results, drops, late entries, forfeits,
    forbidden pairs, club rule): every round's criteria values are the oracle's (all of them by
    brute force up to 12 players, criteria 1-5 by the matching oracle above that)."""
    audit = Audit()
    play_event(seed, audit)
    assert audit.problems == []


# --- the oracle itself is checked on known answers --------------------------------------------


def test_oracles_agree_on_the_issue_example() -> None:
    """Issue 15's example: four players on 3/2/1/0, the two leaders have met. 3-1 and 2-0 (gaps
    2, 2) beats 3-0 and 2-1 (gaps 3, 1): the largest gap decides."""
    players = [
        SwissPlayer(id=1, score=3, opponents=frozenset({2})),
        SwissPlayer(id=2, score=2, opponents=frozenset({1})),
        SwissPlayer(id=3, score=1),
        SwissPlayer(id=4, score=0),
    ]
    rnd = oracle_round(players, [], ClubRule.ALLOW)
    for oracle in (brute_force, matching_oracle):
        best = oracle(rnd)
        assert best is not None
        assert best[0][1] == (2, 2)
        assert {frozenset(p) for p in best[1]} == {frozenset((1, 3)), frozenset((2, 4))}
    result = pair_swiss(players)
    assert {frozenset(p) for p in result.pairs} == {frozenset((1, 3)), frozenset((2, 4))}
    assert pairing_score_difference(players, result) == (2, 2)


@pytest.mark.parametrize("seed", range(30))
def test_matching_oracle_matches_brute_force(seed: int) -> None:
    """The ≤ 40 oracle is itself right where brute force can tell (criteria 1-5, the bye's rank
    included)."""
    rng = random.Random(seed)
    n = rng.randint(3, 10)
    players = [
        SwissPlayer(
            id=i,
            score=Fraction(rng.randint(0, 6), 2),
            rating=rng.randint(1000, 2000),
            opponents=frozenset(j for j in range(1, n + 1) if j != i and rng.random() < 0.2),
            byes=rng.randint(0, 1),
            last_float=rng.choice([None, Float.DOWN, Float.UP]),
            prior_float=rng.choice([None, Float.DOWN, Float.UP]),
        )
        for i in range(1, n + 1)
    ]
    # Opponents must be symmetric.
    met = {p.id: set(p.opponents) for p in players}
    for p in players:
        for o in p.opponents:
            met[o].add(p.id)
    players = [replace(p, opponents=frozenset(met[p.id])) for p in players]
    rnd = oracle_round(players, [ForbiddenPair(1, 2, hard=False)], ClubRule.ALLOW)
    exact, by_matching = brute_force(rnd), matching_oracle(rnd)
    assert (exact is None) == (by_matching is None)
    if exact is not None and by_matching is not None:
        assert exact[0][:-1] == by_matching[0][:-1]
