"""A brute-force gin oracle that shares no code with ``engine``.

It is deliberately simple and slow: it lists every meld inside a hand, tries every way of choosing
disjoint melds, and every order of lay-offs, so that the known-answer vectors in
``tests/engine/data/gin_vectors.json`` are checked by something other than the code they test.

Rules (docs/rules.md, two-player gin): A=1, 2-9 face value, T/J/Q/K=10; a set is 3 or 4 cards of
one rank; a run is 3 or more consecutive cards of one suit with the ace low only (no Q-K-A, no
K-A-2). The defender lays off single cards onto the knocker's melds: the 4th card of a 3-card set,
or a card extending a run at either end (chaining as far as it goes); nothing is laid off on gin.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import combinations

RANKS = "A23456789TJQK"
SUITS = "SHDC"

Card = tuple[int, int]  # (rank 0-12, suit 0-3)


def card(text: str) -> Card:
    """``"TD"`` -> ``(9, 2)``."""
    rank, suit = text[0].upper(), text[1].upper()
    return RANKS.index(rank), SUITS.index(suit)


def cards(texts: Iterable[str]) -> frozenset[Card]:
    """A set of cards from their two-letter names; duplicates are refused."""
    listed = [card(text) for text in texts]
    assert len(set(listed)) == len(listed), f"duplicate card in {listed}"
    return frozenset(listed)


def value(c: Card) -> int:
    """Deadwood value of one card."""
    return min(c[0] + 1, 10)


def total(hand: Iterable[Card]) -> int:
    """Deadwood value of some cards."""
    return sum(value(c) for c in hand)


def is_meld(group: Iterable[Card]) -> bool:
    """A legal set (3-4 of a rank) or run (3+ consecutive, one suit, ace low)."""
    group = sorted(group)
    if len(group) < 3:
        return False
    ranks = {rank for rank, _ in group}
    suits = {suit for _, suit in group}
    if len(ranks) == 1:
        return len(group) <= 4 and len(suits) == len(group)
    if len(suits) == 1:
        ordered = sorted(ranks)
        return len(ordered) == len(group) and ordered == list(range(ordered[0], ordered[-1] + 1))
    return False


def melds_in(hand: frozenset[Card]) -> list[frozenset[Card]]:
    """Every meld whose cards are all in ``hand`` (by checking every subset of 3 to 11 cards
    that is all one rank or all one suit)."""
    found: list[frozenset[Card]] = []
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[int, list[Card]] = {}
    for c in hand:
        by_rank.setdefault(c[0], []).append(c)
        by_suit.setdefault(c[1], []).append(c)
    for group in [*by_rank.values(), *by_suit.values()]:
        for size in range(3, len(group) + 1):
            found.extend(frozenset(combo) for combo in combinations(group, size) if is_meld(combo))
    return found


def _arrangements(hand: frozenset[Card]) -> Iterator[tuple[frozenset[Card], ...]]:
    """Every choice of pairwise disjoint melds inside ``hand`` (the empty choice included)."""
    melds = melds_in(hand)

    def extend(start: int, used: frozenset[Card], chosen: tuple[frozenset[Card], ...]) -> Iterator:
        yield chosen
        for index in range(start, len(melds)):
            meld = melds[index]
            if not meld & used:
                yield from extend(index + 1, used | meld, (*chosen, meld))

    yield from extend(0, frozenset(), ())


@cache
def least_deadwood(hand: frozenset[Card]) -> int:
    """The least deadwood over every arrangement of ``hand``."""
    return min(total(hand - frozenset().union(*chosen)) for chosen in _arrangements(hand))


def deadwood_of(hand: frozenset[Card], melds: Sequence[frozenset[Card]]) -> int:
    """The deadwood of ``hand`` with exactly ``melds`` laid down (each legal, disjoint, inside)."""
    used: frozenset[Card] = frozenset()
    for meld in melds:
        assert is_meld(meld), f"not a meld: {sorted(meld)}"
        assert meld <= hand, f"meld outside the hand: {sorted(meld)}"
        assert not meld & used, f"melds overlap: {sorted(meld)}"
        used |= meld
    return total(hand - used)


def _fits(meld: frozenset[Card], c: Card) -> bool:
    """May ``c`` be laid off on ``meld`` as it stands?"""
    ranks = {rank for rank, _ in meld}
    if len(ranks) == 1:  # a set takes its 4th card only
        return len(meld) == 3 and c[0] in ranks and c not in meld
    suit = next(iter(meld))[1]
    return c[1] == suit and c[0] in (min(ranks) - 1, max(ranks) + 1)


def layable_sets(
    knocker_melds: Sequence[frozenset[Card]], defender: frozenset[Card]
) -> set[frozenset[Card]]:
    """Every set of defender cards that can be laid off, one card at a time in some order."""
    reachable: set[frozenset[Card]] = set()
    seen: set[tuple[tuple[frozenset[Card], ...], frozenset[Card]]] = set()

    def grow(melds: tuple[frozenset[Card], ...], laid: frozenset[Card]) -> None:
        if (melds, laid) in seen:
            return
        seen.add((melds, laid))
        reachable.add(laid)
        for c in defender - laid:
            for index, meld in enumerate(melds):
                if _fits(meld, c):
                    grown = (*melds[:index], meld | {c}, *melds[index + 1 :])
                    grow(grown, laid | {c})

    # Which meld took a card matters (two runs of one suit may both reach it): try every one.
    grow(tuple(knocker_melds), frozenset())
    return reachable


def defender_deadwood(
    knocker_melds: Sequence[frozenset[Card]], defender: frozenset[Card], *, gin: bool
) -> int:
    """The defender's least deadwood after the best lay-offs (none on gin)."""
    if gin:
        return least_deadwood(defender)
    return min(least_deadwood(defender - laid) for laid in layable_sets(knocker_melds, defender))
