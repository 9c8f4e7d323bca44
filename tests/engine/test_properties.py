"""Hypothesis properties of the engine core, with brute-force oracles on small hands."""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.arrange import (
    all_best_arrangements,
    best_arrangement,
    min_deadwood,
    min_deadwood_after_discard,
)
from engine.cards import DECK, card_value, cards_to_mask, hand_value, mask_to_cards
from engine.discard import best_discard
from engine.layoff import knocker_choice, lay_off
from engine.melds import ALL_MELDS, Meld, MeldKind
from tests.engine.test_vectors import check_arrangement, check_layoffs

PROPERTY_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

# Cards of five neighbouring ranks in every suit: many sets and runs cross each other here.
CROWDED = tuple(suit * 13 + rank for suit in range(4) for rank in range(3, 8))


@st.composite
def hands(draw: st.DrawFn, min_size: int = 0, max_size: int = 13) -> tuple[int, ...]:
    """Random hands, half of them from a crowded corner of the deck or built around melds."""
    size = draw(st.integers(min_size, max_size))
    style = draw(st.sampled_from(["random", "crowded", "melds"]))
    if style == "crowded":
        size = min(size, len(CROWDED))
        return tuple(draw(st.permutations(CROWDED))[:size])
    cards: list[int] = []
    if style == "melds":
        for meld in draw(st.lists(st.sampled_from(ALL_MELDS), max_size=4)):
            cards.extend(card for card in meld.cards if card not in cards)
    cards.extend(card for card in draw(st.permutations(DECK)) if card not in cards)
    return tuple(cards[:size])


def brute_min_deadwood(mask: int) -> int:
    """Least deadwood by trying every disjoint subset of the legal melds inside the hand."""
    melds = [(meld.mask, meld.value) for meld in ALL_MELDS if meld.mask & mask == meld.mask]
    total = hand_value(mask)
    best = total

    def search(start: int, used: int, melded: int) -> None:
        nonlocal best
        best = min(best, total - melded)
        for index in range(start, len(melds)):
            meld_mask, value = melds[index]
            if not meld_mask & used:
                search(index + 1, used | meld_mask, melded + value)

    search(0, 0, 0)
    return best


@cache
def _brute_cached(mask: int) -> int:
    return brute_min_deadwood(mask)


def brute_layoff_deadwood(knocker: list[Meld], defender: int) -> int:
    """Least defender deadwood by playing out every sequence of single lay-offs."""
    best = _brute_cached(defender)
    seen: set[tuple[tuple[int, ...], int]] = set()

    def fits(kind: MeldKind, cards: int, card: int) -> bool:
        held = mask_to_cards(cards)
        if kind is MeldKind.SET:
            return len(held) == 3 and card % 13 == held[0] % 13
        same_suit = card // 13 == held[0] // 13
        return same_suit and card % 13 in (held[0] % 13 - 1, held[-1] % 13 + 1)

    def play(melds: tuple[int, ...], rest: int) -> None:
        nonlocal best
        if (melds, rest) in seen:
            return
        seen.add((melds, rest))
        best = min(best, _brute_cached(rest))
        for index, meld in enumerate(knocker):
            for card in mask_to_cards(rest):
                if fits(meld.kind, melds[index], card):
                    grown = (*melds[:index], melds[index] | 1 << card, *melds[index + 1 :])
                    play(grown, rest ^ 1 << card)

    play(tuple(meld.mask for meld in knocker), defender)
    return best


@PROPERTY_SETTINGS
@given(hands())
def test_arrangement_is_valid_and_minimal(hand: tuple[int, ...]) -> None:
    arrangement = best_arrangement(hand)
    check_arrangement(hand, arrangement)
    melded = sum(meld.value for meld in arrangement.melds)
    assert melded + arrangement.deadwood == hand_value(hand)
    assert min_deadwood(cards_to_mask(hand)) == arrangement.deadwood


@PROPERTY_SETTINGS
@given(hands(max_size=9))
def test_arrangement_matches_brute_force(hand: tuple[int, ...]) -> None:
    assert best_arrangement(hand).deadwood == brute_min_deadwood(cards_to_mask(hand))


@PROPERTY_SETTINGS
@given(hands(), st.permutations(range(4)))
def test_permuting_suits_keeps_deadwood(hand: tuple[int, ...], order: list[int]) -> None:
    permuted = [order[card // 13] * 13 + card % 13 for card in hand]
    assert min_deadwood(cards_to_mask(permuted)) == min_deadwood(cards_to_mask(hand))


@PROPERTY_SETTINGS
@given(hands())
def test_all_best_arrangements_tie_and_include_the_best(hand: tuple[int, ...]) -> None:
    best = best_arrangement(hand)
    arrangements = all_best_arrangements(hand)
    assert best in arrangements
    assert len({frozenset(m.mask for m in a.melds) for a in arrangements}) == len(arrangements)
    for arrangement in arrangements:
        check_arrangement(hand, arrangement)
        assert arrangement.deadwood == best.deadwood


# Inside no hand without 2S: with it the general search runs, yet with no extra meld.
_OUTSIDE = Meld(MeldKind.VAULT, (1, 14, 27, 40))


@PROPERTY_SETTINGS
@given(hands())
def test_fast_paths_agree_with_the_general_search_ties_included(hand: tuple[int, ...]) -> None:
    """Hands without extra melds take table-driven paths; they must give the very arrangements,
    in the very order, of the general search (which lists every choice of sets)."""
    extra = [_OUTSIDE] if 1 not in hand else []
    if extra:
        assert best_arrangement(hand) == best_arrangement(hand, extra_melds=extra)
        assert all_best_arrangements(hand) == all_best_arrangements(hand, extra_melds=extra)


@PROPERTY_SETTINGS
@given(hands(min_size=1))
def test_best_discard_is_exact(hand: tuple[int, ...]) -> None:
    result = best_discard(hand)
    mask = cards_to_mask(hand)
    expected = {card: min_deadwood(mask ^ 1 << card) for card in hand}
    assert dict(result.after_discard) == expected
    assert result.deadwood_after_best_discard == min(expected.values())
    assert min_deadwood_after_discard(mask) == min(expected.values())
    assert result.deadwood_no_discard == min_deadwood(mask)
    assert set(result.best_discards) == {
        c for c, d in expected.items() if d == min(expected.values())
    }


@PROPERTY_SETTINGS
@given(hands(min_size=1, max_size=9))
def test_best_discard_matches_brute_force(hand: tuple[int, ...]) -> None:
    mask = cards_to_mask(hand)
    result = best_discard(hand)
    for card, deadwood in result.after_discard:
        assert deadwood == brute_min_deadwood(mask ^ 1 << card)


@st.composite
def knocks(draw: st.DrawFn) -> tuple[list[Meld], tuple[int, ...]]:
    """Disjoint knocker melds and a small defender hand near them, so lay-offs are common."""
    knocker: list[Meld] = []
    used = 0
    for meld in draw(st.lists(st.sampled_from(ALL_MELDS), min_size=1, max_size=3)):
        if not meld.mask & used and len(meld.cards) <= 5:
            knocker.append(meld)
            used |= meld.mask
    steps = (-2, -1, 1, 2, 13, 26, 39)  # run neighbours, and the same rank in other suits
    near = {(card + step) % 52 for meld in knocker for card in meld.cards for step in steps}
    pool = sorted(near - set(mask_to_cards(used)))
    size = draw(st.integers(0, 7))
    defender = tuple(draw(st.permutations(pool))[:size])
    return knocker, defender


@PROPERTY_SETTINGS
@given(knocks())
def test_layoffs_are_optimal_legal_and_never_raise_deadwood(
    knock: tuple[list[Meld], tuple[int, ...]],
) -> None:
    knocker, defender = knock
    result = lay_off(knocker, defender)
    check_layoffs(result, defender)
    assert result.deadwood <= result.deadwood_without_layoffs
    assert result.deadwood_without_layoffs == brute_min_deadwood(cards_to_mask(defender))
    assert result.deadwood == brute_layoff_deadwood(knocker, cards_to_mask(defender))
    blocked = lay_off(knocker, defender, allow_layoffs=False)
    assert blocked.layoffs == ()
    assert blocked.deadwood == result.deadwood_without_layoffs


@PROPERTY_SETTINGS
@given(hands(min_size=3, max_size=10), st.permutations(DECK))
def test_knocker_choice_is_the_defenders_worst_best_arrangement(
    knocker: tuple[int, ...], deck: list[int]
) -> None:
    defender = tuple(card for card in deck if card not in knocker)[:10]
    arrangement, result = knocker_choice(knocker, defender)
    assert arrangement.deadwood == min_deadwood(cards_to_mask(knocker))
    outcomes = [
        lay_off(a.melds, defender, allow_layoffs=not a.is_gin).deadwood
        for a in all_best_arrangements(knocker)
    ]
    assert result.deadwood == max(outcomes)
    assert sum(card_value(c) for c in result.deadwood_cards) == result.deadwood
