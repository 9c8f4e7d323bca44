"""Every known-answer vector re-derived by the brute-force oracle (tests/engine/oracle.py).

The oracle shares no code with ``engine``: it lists every meld in a hand and every choice of
disjoint melds, and every order of lay-offs. If a vector and the oracle disagree, the vector is
wrong; test_vectors.py then holds the engine to the same answers.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine import oracle

Vector = dict[str, Any]


def check_ten(vector: Vector) -> None:
    hand = oracle.cards(vector["hand"])
    assert len(hand) == 10
    name = vector.get("name", vector["hand"])
    assert oracle.least_deadwood(hand) == vector["deadwood"], name
    melds = [oracle.cards(meld) for meld in vector["melds"]]
    assert oracle.deadwood_of(hand, melds) == vector["deadwood"], name
    if "deadwood_cards" in vector:
        used = frozenset().union(*melds)
        assert hand - used == oracle.cards(vector["deadwood_cards"]), name


def check_eleven(vector: Vector) -> None:
    hand = oracle.cards(vector["hand"])
    assert len(hand) == 11
    name = vector.get("name", vector["hand"])
    whole = oracle.least_deadwood(hand)
    assert whole == vector["deadwood_no_discard"], name
    assert (whole == 0) is vector["big_gin"], name
    melds = [oracle.cards(meld) for meld in vector["melds_no_discard"]]
    assert oracle.deadwood_of(hand, melds) == whole, name
    after = {c: oracle.least_deadwood(hand - {c}) for c in hand}
    best = min(after.values())
    assert best == vector["deadwood_after_best_discard"], name
    assert {c for c, d in after.items() if d == best} == oracle.cards(vector["best_discards"])
    legal = {c for c, d in after.items() if d <= 10}
    assert legal == oracle.cards(vector["legal_knock_discards"]), name


def check_knock(vector: Vector) -> None:
    knocker = oracle.cards(vector["knocker_hand"])
    defender = oracle.cards(vector["defender_hand"])
    assert len(knocker) == len(defender) == 10
    assert not knocker & defender
    name = vector.get("name", vector["knocker_hand"])
    melds = [oracle.cards(meld) for meld in vector["knocker_melds"]]
    knocker_deadwood = oracle.deadwood_of(knocker, melds)
    assert knocker_deadwood == vector["knocker_deadwood"] <= 10, name
    assert knocker - frozenset().union(*melds) == oracle.cards(vector["knocker_deadwood_cards"])
    gin = knocker_deadwood == 0
    assert gin is vector["knocker_gin"], name
    alone = oracle.least_deadwood(defender)
    assert alone == vector["defender_deadwood_without_layoffs"], name
    after = oracle.defender_deadwood(melds, defender, gin=gin)
    assert after == vector["defender_deadwood"], name
    laid = oracle.cards(vector["layoff_cards"])
    if gin:
        assert not laid, name
    else:
        assert laid in oracle.layable_sets(melds, defender), name
    own = [oracle.cards(meld) for meld in vector["defender_melds"]]
    assert oracle.deadwood_of(defender - laid, own) == after, name


CHECKS = {"min_deadwood_10": check_ten, "min_deadwood_11": check_eleven, "knock": check_knock}
GROUPS = {
    "min_deadwood_10": check_ten,
    "min_deadwood_10_meldrich": check_ten,
    "min_deadwood_11": check_eleven,
    "knock_scenarios": check_knock,
}


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_oracle_agrees_with_every_vector(gin_vectors: dict[str, Any], group: str) -> None:
    vectors = gin_vectors[group]
    assert vectors
    for vector in vectors:
        GROUPS[group](vector)


def test_oracle_agrees_with_every_tricky_vector(gin_vectors: dict[str, Any]) -> None:
    kinds = set()
    for vector in gin_vectors["tricky"]:
        CHECKS[vector["kind"]](vector)
        kinds.add(vector["kind"])
    assert kinds == set(CHECKS)


@pytest.mark.parametrize(
    ("hand", "deadwood"),
    [
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS", 0),  # one long run is gin
        ("QS KS AS 2H 3H 4H 5D 6D 7D 9C", 30),  # Q-K-A is not a run
        ("KH AH 2H 7S 7D 7C 9S 9D TC JC", 51),  # K-A-2 does not wrap
        ("7S 7H 7D 7C 8C 9C 2D 3D 4D KS", 10),  # the 7C goes to the run or the set, not both
    ],
)
def test_oracle_on_hands_worked_by_hand(hand: str, deadwood: int) -> None:
    assert oracle.least_deadwood(oracle.cards(hand.split())) == deadwood


def test_oracle_chains_layoffs_and_lays_nothing_on_gin() -> None:
    run = [oracle.cards(["5H", "6H", "7H"])]
    defender = oracle.cards(["8H", "9H", "KS", "KD", "2C", "4C", "6C", "8C", "QD", "JS"])
    assert oracle.least_deadwood(defender) == 77
    # 8H then 9H chain onto 5-6-7H.
    assert oracle.cards(["8H", "9H"]) in oracle.layable_sets(run, defender)
    assert oracle.cards(["9H"]) not in oracle.layable_sets(run, defender)
    assert oracle.defender_deadwood(run, defender, gin=False) == 77 - 17
    assert oracle.defender_deadwood(run, defender, gin=True) == 77
    four = [oracle.cards(["9S", "9H", "9D", "9C"])]
    assert oracle.layable_sets(four, oracle.cards(["8H", "TS"])) == {frozenset()}
