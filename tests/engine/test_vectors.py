"""Every known-answer case of tests/engine/data/gin_vectors.json, through the engine.

Arrangements are not unique, so an arrangement is checked for validity and deadwood, never for
equality with the one written in the vector.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.arrange import (
    Arrangement,
    best_arrangement,
    min_deadwood,
    min_deadwood_after_discard,
)
from engine.cards import card_value, cards_to_mask, format_cards, parse_cards
from engine.discard import best_discard
from engine.layoff import LayoffResult, knocker_choice, lay_off, validate_knocker_melds
from engine.melds import Meld, MeldKind

Vector = dict[str, Any]


def check_arrangement(hand: Sequence[int], arrangement: Arrangement) -> None:
    """The melds are legal, disjoint and inside the hand; the rest is the deadwood."""
    used = 0
    for meld in arrangement.melds:
        assert Meld.from_cards(meld.cards).kind is meld.kind  # a legal set or run
        assert not used & meld.mask, f"{meld} overlaps another meld"
        used |= meld.mask
    hand_mask = cards_to_mask(hand)
    assert used & hand_mask == used, "a meld uses a card outside the hand"
    rest = hand_mask ^ used
    assert cards_to_mask(arrangement.deadwood_cards) == rest
    assert arrangement.deadwood == sum(card_value(card) for card in arrangement.deadwood_cards)


def check_layoffs(result: LayoffResult, defender: Sequence[int]) -> None:
    """Replay the lay-offs in order on the knocker's melds: each must be legal when made."""
    melds = [(meld.kind, set(meld.cards)) for meld in result.knocker_melds]
    for layoff in result.layoffs:
        kind, cards = melds[layoff.meld_index]
        card = layoff.card
        assert card in defender
        if kind is MeldKind.SET:
            assert len(cards) == 3
            assert all(other % 13 == card % 13 for other in cards)
        else:
            assert kind is MeldKind.RUN
            assert card // 13 == next(iter(cards)) // 13
            assert card % 13 in (min(cards) % 13 - 1, max(cards) % 13 + 1)
        cards.add(card)
    laid = cards_to_mask(result.laid_off_cards)
    kept = cards_to_mask(defender) ^ laid
    check_arrangement([c for c in defender if kept >> c & 1], _defender_arrangement(result))


def _defender_arrangement(result: LayoffResult) -> Arrangement:
    return Arrangement(result.defender_melds, result.deadwood_cards, result.deadwood)


def check_ten(vector: Vector) -> None:
    hand = parse_cards(vector["hand"], count=10)
    arrangement = best_arrangement(hand)
    check_arrangement(hand, arrangement)
    assert arrangement.deadwood == vector["deadwood"], vector
    assert min_deadwood(cards_to_mask(hand)) == vector["deadwood"], vector
    given = [Meld.parse(meld) for meld in vector["melds"]]
    assert validate_knocker_melds(hand, given).deadwood == vector["deadwood"]


def check_eleven(vector: Vector) -> None:
    hand = parse_cards(vector["hand"], count=11)
    result = best_discard(hand)
    name = vector.get("name", format_cards(hand))
    assert result.deadwood_no_discard == vector["deadwood_no_discard"], name
    assert result.big_gin is vector["big_gin"], name
    assert result.deadwood_after_best_discard == vector["deadwood_after_best_discard"], name
    assert set(result.best_discards) == set(parse_cards(vector["best_discards"])), name
    assert set(result.legal_knock_discards(10)) == set(parse_cards(vector["legal_knock_discards"]))
    assert result.can_knock(10) is bool(vector["legal_knock_discards"])
    assert min_deadwood_after_discard(cards_to_mask(hand)) == vector["deadwood_after_best_discard"]
    whole = best_arrangement(hand)
    check_arrangement(hand, whole)
    assert whole.deadwood == vector["deadwood_no_discard"]
    given = [Meld.parse(meld) for meld in vector["melds_no_discard"]]
    assert validate_knocker_melds(hand, given).deadwood == vector["deadwood_no_discard"]
    for card in parse_cards(vector["best_discards"]):
        after = best_arrangement([c for c in hand if c != card])
        assert after.deadwood == vector["deadwood_after_best_discard"]


def check_knock(vector: Vector) -> None:
    knocker = parse_cards(vector["knocker_hand"], count=10)
    defender = parse_cards(vector["defender_hand"], count=10)
    melds = [Meld.parse(meld) for meld in vector["knocker_melds"]]
    shown = validate_knocker_melds(knocker, melds)
    assert shown.deadwood == vector["knocker_deadwood"]
    assert set(shown.deadwood_cards) == set(parse_cards(vector["knocker_deadwood_cards"]))
    assert shown.is_gin is vector["knocker_gin"]
    result = lay_off(shown.melds, defender, allow_layoffs=not shown.is_gin)
    name = vector.get("name", format_cards(knocker))
    assert result.deadwood == vector["defender_deadwood"], name
    assert result.deadwood_without_layoffs == vector["defender_deadwood_without_layoffs"], name
    check_layoffs(result, defender)
    if shown.is_gin:
        assert result.layoffs == ()
    # The knocker's own choice is never better for the defender than the melds in the vector.
    if shown.deadwood == min_deadwood(cards_to_mask(knocker)):
        arrangement, chosen = knocker_choice(knocker, defender)
        assert arrangement.deadwood == shown.deadwood
        assert chosen.deadwood >= result.deadwood, name
        check_layoffs(chosen, defender)


def test_min_deadwood_10(gin_vectors: dict[str, Any]) -> None:
    assert len(gin_vectors["min_deadwood_10"]) == 400
    for vector in gin_vectors["min_deadwood_10"]:
        check_ten(vector)


def test_min_deadwood_10_meldrich(gin_vectors: dict[str, Any]) -> None:
    assert len(gin_vectors["min_deadwood_10_meldrich"]) == 300
    for vector in gin_vectors["min_deadwood_10_meldrich"]:
        check_ten(vector)


def test_min_deadwood_11(gin_vectors: dict[str, Any]) -> None:
    assert len(gin_vectors["min_deadwood_11"]) == 150
    for vector in gin_vectors["min_deadwood_11"]:
        check_eleven(vector)


def test_knock_scenarios(gin_vectors: dict[str, Any]) -> None:
    assert len(gin_vectors["knock_scenarios"]) == 500
    for vector in gin_vectors["knock_scenarios"]:
        check_knock(vector)


def test_tricky(gin_vectors: dict[str, Any]) -> None:
    checks = {"min_deadwood_10": check_ten, "min_deadwood_11": check_eleven, "knock": check_knock}
    kinds = set()
    for vector in gin_vectors["tricky"]:
        checks[vector["kind"]](vector)
        kinds.add(vector["kind"])
    assert kinds == set(checks)
