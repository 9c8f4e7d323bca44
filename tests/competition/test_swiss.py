"""Swiss pairing: worked examples, and properties checked against brute force on small fields."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competition.swiss import (
    ClubRule,
    Float,
    ForbiddenPair,
    PairingError,
    Seat,
    SwissConfig,
    SwissPairing,
    SwissPlayer,
    pair_swiss,
    pairing_score_difference,
    solver,
)
from tests.competition.swiss_oracle import brute_force, matching_oracle, oracle_round
from tests.competition.swiss_oracle import pairing_key as oracle_key

# --- worked examples ---------------------------------------------------------------------------


def test_round_one_is_top_half_against_bottom_half_by_rating() -> None:
    players = [SwissPlayer(id=i, rating=2000 - 10 * i, seed=i) for i in range(1, 9)]
    result = pair_swiss(players)
    assert {frozenset(p) for p in result.pairs} == {
        frozenset(p) for p in [(1, 5), (2, 6), (3, 7), (4, 8)]
    }
    assert [t.number for t in result.tables] == [1, 2, 3, 4]
    assert result.byes == ()
    assert result.bye is None
    assert not result.used_matching


def test_round_one_by_seed_ignores_rating() -> None:
    players = [SwissPlayer(id=i, rating=i, seed=i) for i in range(1, 5)]
    result = pair_swiss(players, config=SwissConfig(order_by="seed"))
    assert {frozenset(p) for p in result.pairs} == {frozenset((1, 3)), frozenset((2, 4))}


def test_score_groups_pair_inside_and_tables_follow_the_groups() -> None:
    players = [
        SwissPlayer(id=1, score=1, seed=1, opponents=frozenset({5})),
        SwissPlayer(id=2, score=1, seed=2, opponents=frozenset({6})),
        SwissPlayer(id=3, score=0, seed=3, opponents=frozenset({7})),
        SwissPlayer(id=4, score=0, seed=4, opponents=frozenset({8})),
        SwissPlayer(id=5, score=0, seed=5, opponents=frozenset({1})),
        SwissPlayer(id=6, score=0, seed=6, opponents=frozenset({2})),
        SwissPlayer(id=7, score=1, seed=7, opponents=frozenset({3})),
        SwissPlayer(id=8, score=1, seed=8, opponents=frozenset({4})),
    ]
    result = pair_swiss(players, config=SwissConfig(order_by="seed"))
    assert [set(p) for p in result.pairs] == [{1, 7}, {2, 8}, {3, 5}, {4, 6}]


def test_rematch_is_avoided_by_transposition() -> None:
    players = [
        SwissPlayer(id=1, seed=1, opponents=frozenset({3})),
        SwissPlayer(id=2, seed=2),
        SwissPlayer(id=3, seed=3, opponents=frozenset({1})),
        SwissPlayer(id=4, seed=4),
    ]
    result = pair_swiss(players, config=SwissConfig(order_by="seed"))
    assert {frozenset(p) for p in result.pairs} == {frozenset((1, 4)), frozenset((2, 3))}


def test_requested_byes_are_honoured_first_and_pairing_bye_goes_low() -> None:
    players = [SwissPlayer(id=i, seed=i, requests_bye=i == 2) for i in range(1, 6)]
    config = SwissConfig(order_by="seed", pairing_bye_points=1, requested_bye_points=Fraction(1, 2))
    result = pair_swiss(players, config=config)
    assert result.bye is None
    assert [(b.player, b.points, b.requested) for b in result.byes] == [(2, Fraction(1, 2), True)]
    players = [SwissPlayer(id=i, seed=i, requests_bye=i == 2) for i in range(1, 7)]
    result = pair_swiss(players, config=config)
    assert result.bye == 6
    assert (6, 1, False) in [(b.player, b.points, b.requested) for b in result.byes]


def test_bye_skips_players_who_had_one() -> None:
    players = [SwissPlayer(id=i, seed=i, byes=1 if i >= 4 else 0) for i in range(1, 6)]
    assert pair_swiss(players, config=SwissConfig(order_by="seed")).bye == 3


def test_second_bye_only_when_nothing_else_works() -> None:
    # Everybody had a bye already; 3 has played everyone, so only 3 can sit out.
    players = [
        SwissPlayer(id=1, byes=1, opponents=frozenset({3})),
        SwissPlayer(id=2, byes=1, opponents=frozenset({3})),
        SwissPlayer(id=3, byes=2, opponents=frozenset({1, 2})),
    ]
    result = pair_swiss(players)
    assert result.bye == 3
    assert result.used_matching


def test_fraction_and_float_scores_group_together() -> None:
    players = [
        SwissPlayer(id=1, score=Fraction(3, 2)),
        SwissPlayer(id=2, score=1.5),
        SwissPlayer(id=3, score=0),
        SwissPlayer(id=4, score=0),
    ]
    assert {frozenset(p) for p in pair_swiss(players).pairs} == {
        frozenset((1, 2)),
        frozenset((3, 4)),
    }


def test_club_rules() -> None:
    players = [SwissPlayer(id=i, seed=i, club=1 if i in (1, 3) else None) for i in range(1, 5)]
    hard = pair_swiss(players, config=SwissConfig(order_by="seed", same_club=ClubRule.HARD))
    assert frozenset((1, 3)) not in {frozenset(p) for p in hard.pairs}
    soft = pair_swiss(players, config=SwissConfig(order_by="seed", same_club=ClubRule.SOFT))
    assert frozenset((1, 3)) not in {frozenset(p) for p in soft.pairs}
    allowed = pair_swiss(players, config=SwissConfig(order_by="seed"))
    assert frozenset((1, 3)) in {frozenset(p) for p in allowed.pairs}


def test_unavoidable_soft_pair_is_reported() -> None:
    players = [SwissPlayer(id=1), SwissPlayer(id=2)]
    result = pair_swiss(players, forbidden=[ForbiddenPair(1, 2, hard=False)])
    assert result.soft_conflicts == ((1, 2),)


def test_seats_balance_history_then_alternate() -> None:
    a = SwissPlayer(id=1, rating=2, seats=(Seat.FIRST, Seat.FIRST))
    b = SwissPlayer(id=2, rating=1, seats=(Seat.SECOND, Seat.FIRST))
    assert pair_swiss([a, b]).tables[0].first == 2
    a = SwissPlayer(id=1, rating=2, seats=(Seat.FIRST, Seat.SECOND))
    b = SwissPlayer(id=2, rating=1, seats=(Seat.SECOND, Seat.FIRST))
    assert pair_swiss([a, b]).tables[0].first == 1


def test_errors_say_why() -> None:
    with pytest.raises(ValueError, match="twice"):
        pair_swiss([SwissPlayer(id=1), SwissPlayer(id=1)])
    players = [SwissPlayer(id=1, opponents=frozenset({2})), SwissPlayer(id=2)]
    with pytest.raises(PairingError, match="player 1 has already played") as blocked:
        pair_swiss(players)
    assert (blocked.value.code, blocked.value.params) == ("player_blocked", {"player": 1})
    # Four players, every cross pair forbidden: nobody is blocked from everyone, yet no pairing.
    players = [SwissPlayer(id=i) for i in range(1, 5)]
    forbidden = [ForbiddenPair(1, 2), ForbiddenPair(1, 3), ForbiddenPair(2, 3)]
    with pytest.raises(PairingError, match="no pairing of the 4 players") as field:
        pair_swiss(players, forbidden=forbidden)
    assert (field.value.code, field.value.params) == ("no_pairing", {"players": 4})


def test_tiny_fields() -> None:
    assert pair_swiss([]) == SwissPairing((), ())
    assert pair_swiss([SwissPlayer(id=9)]).bye == 9
    forbidden = [ForbiddenPair(1, 1), ForbiddenPair(1, 99)]
    assert pair_swiss([SwissPlayer(id=1), SwissPlayer(id=2)], forbidden=forbidden).pairs


# --- brute force -------------------------------------------------------------------------------


def _constraints(
    players: Sequence[SwissPlayer], forbidden: Sequence[ForbiddenPair], club: ClubRule
) -> tuple[set[frozenset[int]], set[frozenset[int]]]:
    hard = {frozenset((p.id, o)) for p in players for o in p.opponents}
    soft: set[frozenset[int]] = set()
    for f in forbidden:
        (hard if f.hard else soft).add(frozenset((f.a, f.b)))
    if club is not ClubRule.ALLOW:
        for p in players:
            for q in players:
                if p.id < q.id and p.club is not None and p.club == q.club:
                    (hard if club is ClubRule.HARD else soft).add(frozenset((p.id, q.id)))
    return hard, soft - hard


def _pairings(ids: list[int]) -> Iterator[tuple[list[tuple[int, int]], int | None]]:
    if len(ids) % 2:
        for bye in ids:
            for pairs, _ in _pairings([i for i in ids if i != bye]):
                yield pairs, bye
        return
    if not ids:
        yield [], None
        return
    first, rest = ids[0], ids[1:]
    for other in rest:
        for pairs, _ in _pairings([i for i in rest if i != other]):
            yield [(first, other), *pairs], None


@st.composite
def small_rounds(
    draw: st.DrawFn, max_players: int = 8
) -> tuple[list[SwissPlayer], list[ForbiddenPair], ClubRule]:
    n = draw(st.integers(1, max_players))
    ids = list(range(1, n + 1))
    edges = {
        frozenset(e)
        for e in draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids))))
        if e[0] != e[1]
    }
    scores = draw(
        st.lists(
            st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1), Fraction(2)]),
            min_size=n,
            max_size=n,
        )
    )
    players = [
        SwissPlayer(
            id=i,
            score=scores[i - 1],
            rating=draw(st.integers(1000, 2000)),
            seed=i,
            opponents=frozenset(o for e in edges if i in e for o in e if o != i),
            byes=draw(st.integers(0, 2)),
            requests_bye=draw(st.booleans()) and draw(st.booleans()) and draw(st.booleans()),
            club=draw(st.sampled_from([None, 1, 2])),
        )
        for i in ids
    ]
    forbidden = [
        ForbiddenPair(a, b, hard)
        for a, b, hard in draw(
            st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids), st.booleans()))
        )
        if a != b
    ]
    club = draw(st.sampled_from(list(ClubRule)))
    return players, forbidden, club


def _check_valid(
    result: SwissPairing,
    players: Sequence[SwissPlayer],
    hard: set[frozenset[int]],
) -> None:
    requested = {p.id for p in players if p.requests_bye}
    seated = [x for pair in result.pairs for x in pair]
    assert len(seated) == len(set(seated))
    assert not set(seated) & requested
    assert {b.player for b in result.byes if b.requested} == requested
    everyone = set(seated) | {b.player for b in result.byes}
    assert everyone == {p.id for p in players}
    assert len(result.byes) - len(requested) <= 1
    assert not any(frozenset(pair) in hard for pair in result.pairs)


FLOATS = st.lists(st.sampled_from([None, Float.DOWN, Float.UP]), min_size=8)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_rounds(), FLOATS, FLOATS)
def test_complete_valid_and_optimal_against_brute_force(
    case: tuple[list[SwissPlayer], list[ForbiddenPair], ClubRule],
    floats: list[Float | None],
    prior: list[Float | None],
) -> None:
    """Every criterion of docs/pairing.md, in order, equals the best over every pairing: the
    bye's tier, the PSD, soft pairs, floaters, the four repeated floats (last round's and the
    round before's), the bye's rank, the Dutch order."""
    players, forbidden, club = case
    players = [
        replace(p, last_float=f, prior_float=g)
        for p, f, g in zip(players, floats, prior, strict=False)
    ]
    rnd = oracle_round(players, forbidden, club)
    best = brute_force(rnd)
    config = SwissConfig(same_club=club)
    if best is None:
        with pytest.raises(PairingError):
            pair_swiss(players, forbidden=forbidden, config=config)
        return
    result = pair_swiss(players, forbidden=forbidden, config=config)
    _check_valid(result, players, rnd.hard)
    assert oracle_key(rnd, list(result.pairs), result.bye) == best[0]
    assert len(result.soft_conflicts) == best[0][2]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_rounds())
def test_windowed_repair_is_still_complete(
    case: tuple[list[SwissPlayer], list[ForbiddenPair], ClubRule],
) -> None:
    """With the whole-field shortcut off, the growing windows must still find every pairing."""
    players, forbidden, club = case
    hard, _ = _constraints(players, forbidden, club)
    active = [p.id for p in players if not p.requests_bye]
    exists = any(
        not any(frozenset(pair) in hard for pair in pairs) for pairs, _ in _pairings(active)
    )
    limits = (solver.FULL_MATCHING_LIMIT, solver.QUALITY_WINDOW_LIMIT)
    solver.FULL_MATCHING_LIMIT, solver.QUALITY_WINDOW_LIMIT = 0, 2
    try:
        if exists:
            result = pair_swiss(players, forbidden=forbidden, config=SwissConfig(same_club=club))
            _check_valid(result, players, hard)
        else:
            with pytest.raises(PairingError):
                pair_swiss(players, forbidden=forbidden, config=SwissConfig(same_club=club))
    finally:
        solver.FULL_MATCHING_LIMIT, solver.QUALITY_WINDOW_LIMIT = limits


# --- simulated events --------------------------------------------------------------------------


def _simulate(
    n: int, rounds: int, seed: int, forbidden: Sequence[ForbiddenPair] = ()
) -> Iterator[tuple[SwissPairing, list[SwissPlayer]]]:
    rng = random.Random(seed)
    score = dict.fromkeys(range(1, n + 1), 0)
    met: dict[int, set[int]] = {i: set() for i in range(1, n + 1)}
    byes = dict.fromkeys(range(1, n + 1), 0)
    for _ in range(rounds):
        players = [
            SwissPlayer(
                id=i,
                score=score[i],
                rating=1500 + 7 * ((i * 37) % 101),
                seed=i,
                opponents=frozenset(met[i]),
                byes=byes[i],
                requests_bye=rng.random() < 0.03,
                club=i % 5 if i % 3 == 0 else None,
            )
            for i in range(1, n + 1)
        ]
        result = pair_swiss(
            players, forbidden=forbidden, config=SwissConfig(same_club=ClubRule.SOFT)
        )
        yield result, players
        for a, b in result.pairs:
            met[a].add(b)
            met[b].add(a)
            score[rng.choice((a, b))] += 1
        if result.bye is not None:
            byes[result.bye] += 1
            score[result.bye] += 1


@settings(max_examples=25, deadline=None)
@given(st.integers(6, 40), st.integers(0, 10_000))
def test_simulated_events_never_rematch(n: int, seed: int) -> None:
    forbidden = [ForbiddenPair(1, 2), ForbiddenPair(3, 4, hard=False)]
    rounds = min(n // 2 - 1, 7)
    seen: set[frozenset[int]] = set()
    bye_count: dict[int, int] = {}
    for result, players in _simulate(n, rounds, seed, forbidden):
        hard, _ = _constraints(players, forbidden, ClubRule.SOFT)
        _check_valid(result, players, hard)
        for pair in result.pairs:
            assert frozenset(pair) not in seen
            seen.add(frozenset(pair))
        if result.bye is not None:
            bye_count[result.bye] = bye_count.get(result.bye, 0) + 1
    # With fewer rounds than half the field there is always a fresh player for the bye.
    assert all(c == 1 for c in bye_count.values())


def test_large_event_uses_local_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 300-player event over many rounds stays valid with the windowed fallback (the exact
    whole-field pairing is switched off below 300 players to force the windows)."""
    monkeypatch.setattr(solver, "FULL_MATCHING_LIMIT", 64)
    seen: set[frozenset[int]] = set()
    used = False
    for result, _ in _simulate(300, 12, 3):
        used = used or result.used_matching
        for pair in result.pairs:
            assert frozenset(pair) not in seen
            seen.add(frozenset(pair))
    assert used


# --- worked examples from the FIDE Dutch rules (FIDE Handbook C.04.3, 2017 text) ---------------


def test_fide_round_one_s1_meets_s2() -> None:
    """C.04.3 B.2 (S1 is the top half of a bracket, S2 the rest) and B.3's first candidate: with
    eight players in one scoregroup, 1-5, 2-6, 3-7, 4-8; with nine, the ninth has the PAB
    (C.04.1.c) and the top four meet 5-8."""
    eight = pair_swiss([SwissPlayer(id=i, seed=i) for i in range(1, 9)], config=SEED)
    assert {frozenset(p) for p in eight.pairs} == _pairs((1, 5), (2, 6), (3, 7), (4, 8))
    nine = pair_swiss([SwissPlayer(id=i, seed=i) for i in range(1, 10)], config=SEED)
    assert {frozenset(p) for p in nine.pairs} == _pairs((1, 5), (2, 6), (3, 7), (4, 8))
    assert nine.bye == 9
    assert dict(nine.floats) == {9: Float.DOWN}


def test_fide_pab_skips_a_forfeit_winner_and_a_previous_bye() -> None:
    """C.04.3 C.2: a player who has had the pairing-allocated bye, or scored a forfeit win, shall
    not get the PAB. Five players after two rounds, 4 and 5 on the lowest score: 5 (ranked
    lowest) won by forfeit, 4 had the PAB, so the bye goes up to 3, the lowest of the next
    scoregroup; with everyone barred it returns to the lowest-ranked, lowest-scored player."""
    players = [
        SwissPlayer(id=1, seed=1, score=2),
        SwissPlayer(id=2, seed=2, score=1),
        SwissPlayer(id=3, seed=3, score=1),
        SwissPlayer(id=4, seed=4, score=1, byes=1),
        SwissPlayer(id=5, seed=5, score=1, forfeit_wins=1),
    ]
    assert pair_swiss(players, config=SEED).bye == 3
    barred = [replace(p, byes=1, forfeit_wins=0) for p in players]
    assert pair_swiss(barred, config=SEED).bye == 5
    # Among players who all had one, the fewest byes plus forfeit wins decides first.
    assert pair_swiss([*barred[:4], replace(players[4], byes=1)], config=SEED).bye == 4


def test_fide_pab_goes_up_only_when_no_complete_pairing_allows_it() -> None:
    """C.04.3 C.4 (completion) before the bye's place: 1, 2, 3 on 1 point, 4 and 5 on 0. When 3
    has met 1 and 2 only, 5 (lowest ranked, lowest score) takes the bye: 1-2 and 3-4. When 3 has
    also met 4, a bye for 5 would leave 3 nobody to play, so the bye moves up to 4, the next
    eligible player, and 3 meets 5."""
    met = {1: {3}, 2: {3}, 3: {1, 2}, 4: set(), 5: set()}
    players = [
        SwissPlayer(id=i, seed=i, score=1 if i < 4 else 0, opponents=frozenset(met[i]))
        for i in range(1, 6)
    ]
    first = pair_swiss(players, config=SEED)
    assert first.bye == 5
    assert {frozenset(p) for p in first.pairs} == _pairs((1, 2), (3, 4))
    met[3].add(4)
    met[4].add(3)
    players = [replace(p, opponents=frozenset(met[p.id])) for p in players]
    result = pair_swiss(players, config=SEED)
    assert result.bye == 4
    assert {frozenset(p) for p in result.pairs} == _pairs((1, 2), (3, 5))


def test_fide_psd_prefers_two_one_point_gaps_to_one_of_two() -> None:
    """C.04.3 A.8 (PSD: the score differences of the pairs, highest first, compared
    lexicographically) and C.6 (minimise the PSD). Scores 2, 1, 1, 0 where 1 has met 2: 1-3 and
    2-4 give the PSD (1, 1), 1-4 and 2-3 give (2, 0); (1, 1) is the smaller."""
    players = [
        SwissPlayer(id=1, seed=1, score=2, opponents=frozenset({2})),
        SwissPlayer(id=2, seed=2, score=1, opponents=frozenset({1})),
        SwissPlayer(id=3, seed=3, score=1),
        SwissPlayer(id=4, seed=4, score=0),
    ]
    result = pair_swiss(players, config=SEED)
    assert {frozenset(p) for p in result.pairs} == _pairs((1, 3), (2, 4))
    assert pairing_score_difference(players, result) == (1, 1)


def test_fide_floats_are_not_repeated() -> None:
    """C.04.3 A.4.b (after a game between different scores the higher-ranked player has a
    downfloat, the lower an upfloat), C.12 (minimise downfloaters who had a downfloat last round)
    and C.13 (the same for upfloats). Three players on 1 point must float one down to the three
    on 0: normally the last, 3, meets the first of the lower group, 4. If 3 floated down last
    round, 2 floats instead; if 4 also floated up last round, 5 takes the upfloat."""
    players = [
        SwissPlayer(id=i, seed=i, score=1 if i <= 3 else 0, opponents=frozenset({i + 10}))
        for i in range(1, 7)
    ]
    plain = pair_swiss(players, config=SEED)
    assert {frozenset(p) for p in plain.pairs} == _pairs((1, 2), (3, 4), (5, 6))
    assert dict(plain.floats) == {3: Float.DOWN, 4: Float.UP}
    players[2] = replace(players[2], last_float=Float.DOWN)
    again = pair_swiss(players, config=SEED)
    assert {frozenset(p) for p in again.pairs} == _pairs((1, 3), (2, 4), (5, 6))
    players[3] = replace(players[3], last_float=Float.UP)
    both = pair_swiss(players, config=SEED)
    assert {frozenset(p) for p in both.pairs} == _pairs((1, 3), (2, 5), (4, 6))
    assert dict(both.floats) == {2: Float.DOWN, 5: Float.UP}


SEED = SwissConfig(order_by="seed")


def _pairs(*pairs: tuple[int, int]) -> set[frozenset[int]]:
    return {frozenset(p) for p in pairs}


# --- issue 28: the bye with the last score group, floats two rounds back, rounds not played -----


@pytest.mark.parametrize("limit", [solver.FULL_MATCHING_LIMIT, 0])
def test_issue_28_bye_chosen_with_the_last_score_group(
    limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28's first example (15 players, round 6 of 8; the top of the field simplified to
    score groups that pair inside themselves). The 1½-point group is 10, 11 and 14; 14 has had
    a bye and 10 has met 14. Settling the bye first on the lowest ranked, 11, leaves 10 and 14
    to float up: bye 11, 15-10, 12-14, 13-5, PSD (1, ½, ½, ½) and four downfloaters. The bye
    decided with the group's pairing goes to 10: 11-14 and 12-15 inside their groups, 13-5, PSD
    (1, ½) and two downfloaters (FIDE C.04.3: the PAB is whoever the last bracket's pairing
    leaves over). Both ways: the whole field paired exactly, and by the windows of big fields."""
    monkeypatch.setattr(solver, "FULL_MATCHING_LIMIT", limit)
    half = Fraction(1, 2)
    score = dict.fromkeys((1, 2, 3, 4), 3 + half) | {6: 3, 8: 3}
    score |= dict.fromkeys((7, 9, 13), 2 + half) | dict.fromkeys((5, 12, 15), 2)
    score |= dict.fromkeys((10, 11, 14), 1 + half)
    met = {10: frozenset({14}), 14: frozenset({10})}
    players = [
        SwissPlayer(id=i, score=score[i], seed=i, opponents=met.get(i, frozenset()), byes=i == 14)
        for i in range(1, 16)
    ]
    result = pair_swiss(players, config=SEED)
    assert result.bye == 10
    assert _pairs((11, 14), (12, 15), (5, 13)) <= {frozenset(p) for p in result.pairs}
    assert pairing_score_difference(players, result) == (1, half) + (0,) * 6
    assert sorted(p for p, way in result.floats if way is Float.DOWN) == [10, 13]
    # The oracle's matching (criteria 1-5; the field is too big for its brute force) agrees.
    best = matching_oracle(oracle_round(players, [], ClubRule.ALLOW))
    assert best is not None
    rnd = oracle_round(players, [], ClubRule.ALLOW)
    assert oracle_key(rnd, list(result.pairs), result.bye)[:-1] == best[0][:-1]


def test_issue_28_club_rule_strict_the_other_three_point_player_sits_out() -> None:
    """Issue 28's second kind of example: seven players, same club forbidden (hard). 2 and 7
    have had a bye, 6 cannot take it (four players of club 1 would be left for two outsiders),
    so the bye falls to 4 or 5, both on 3 points. The lowest ranked, 5, forces 1-4 and 2-3
    across the clubs: PSD (4, 1, 1, 1). 4 sitting out lets 1-2 and 3-5 meet on equal scores:
    PSD (4, 1, 0, 0), and that is the bye chosen with the pairing."""
    spec = [(1, 4, None, 0), (2, 4, 1, 1), (3, 3, 2, 0), (4, 3, 1, 0), (5, 3, 1, 0)]
    spec += [(6, 1, 2, 0), (7, 0, 1, 1)]
    met = {3: frozenset({4}), 4: frozenset({3})}
    players = [
        SwissPlayer(id=i, score=s, seed=i, club=club, byes=byes, opponents=met.get(i, frozenset()))
        for i, s, club, byes in spec
    ]
    config = SwissConfig(order_by="seed", same_club=ClubRule.HARD)
    result = pair_swiss(players, config=config)
    assert result.bye == 4
    assert {frozenset(p) for p in result.pairs} == _pairs((1, 2), (3, 5), (6, 7))
    assert pairing_score_difference(players, result) == (4, 1, 0, 0)
    best = brute_force(oracle_round(players, [], ClubRule.HARD))
    assert best is not None
    assert best[2] == 4


def test_the_bye_avoids_who_sat_out_last_round() -> None:
    """FIDE C.04.3 A.4.b and C.12: a round not played (here a requested half-point bye) is a
    downfloat, and the pairing bye is one too. Five players on nought: 5, the lowest ranked,
    would take the bye, but sat out last round; 4 takes it instead, or 3 when 4 sat out too.
    When everyone floated down last round, the round before decides (C.14): 5 sat out two
    rounds ago, so 4 takes the bye."""
    players = [SwissPlayer(id=i, seed=i) for i in range(1, 6)]
    assert pair_swiss(players, config=SEED).bye == 5
    players[4] = replace(players[4], last_float=Float.DOWN)
    assert pair_swiss(players, config=SEED).bye == 4
    players[3] = replace(players[3], last_float=Float.DOWN)
    assert pair_swiss(players, config=SEED).bye == 3
    players = [replace(p, last_float=Float.DOWN) for p in players]
    assert pair_swiss(players, config=SEED).bye == 5
    players[4] = replace(players[4], prior_float=Float.DOWN)
    assert pair_swiss(players, config=SEED).bye == 4


def test_fide_floats_two_rounds_back_after_last_round() -> None:
    """C.04.3 C.12-C.15 in order: downfloats of last round, upfloats of last round, then the
    same two rounds back. Three players on 1 point float one down to three on nought; plainly 3
    meets 4. 3 floated down two rounds ago, so 2 floats instead (C.14). If 1 also floated down
    two rounds ago and 2 last round, a repeat of last round (C.12) weighs more than one from two
    rounds back: 3 floats again. The same on the upfloat side with 4, 5 and 6 (C.13, C.15)."""
    players = [
        SwissPlayer(id=i, seed=i, score=1 if i <= 3 else 0, opponents=frozenset({i + 10}))
        for i in range(1, 7)
    ]
    players[2] = replace(players[2], prior_float=Float.DOWN)
    assert dict(pair_swiss(players, config=SEED).floats) == {2: Float.DOWN, 4: Float.UP}
    players[0] = replace(players[0], prior_float=Float.DOWN)
    players[1] = replace(players[1], last_float=Float.DOWN)
    assert dict(pair_swiss(players, config=SEED).floats) == {3: Float.DOWN, 4: Float.UP}
    players[3] = replace(players[3], prior_float=Float.UP)
    assert dict(pair_swiss(players, config=SEED).floats) == {3: Float.DOWN, 5: Float.UP}
    players[4] = replace(players[4], last_float=Float.UP)
    players[5] = replace(players[5], prior_float=Float.UP)
    assert dict(pair_swiss(players, config=SEED).floats) == {3: Float.DOWN, 4: Float.UP}
