"""Gem Rummy lay-offs: vaults take further cards of their gem, three players lay off in turn,
and the knocker's choice of arrangement against them.

Part of :mod:`engine.gem`; :func:`lay_off_in_turn` gives the order and how ties are read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.arrange import Arrangement, all_best_arrangements, best_arrangement, hand_mask
from engine.cards import mask_to_cards
from engine.errors import RuleError, gettext_noop
from engine.gem.deck import KING, DeckMap, gem_melds, vault_gems
from engine.layoff import Layoff, LayoffResult
from engine.melds import Meld, MeldKind

__all__ = ["gem_knocker_choice", "lay_off_in_turn"]


_MeldState = tuple[MeldKind, int, int, int, frozenset[str]]
"""A knocker's meld as it grows: (kind, card mask, lowest and highest card, shared gems)."""


@dataclass(frozen=True, slots=True)
class _Outcome:
    """The end of the lay-offs from one state: each defender's deadwood and moves."""

    deadwood: tuple[int, ...]
    moves: tuple[tuple[Layoff, ...], ...]


def _start(meld: Meld, deck_map: DeckMap) -> _MeldState:
    gems = vault_gems(meld.cards, deck_map) if meld.kind is MeldKind.VAULT else frozenset()
    return meld.kind, meld.mask, meld.cards[0], meld.cards[-1], gems


def _grown(state: _MeldState, card: int, deck_map: DeckMap) -> _MeldState | None:
    """``state`` with ``card`` laid off on it, or ``None`` when the card does not fit.

    A set takes the missing cards of its rank; a run a card at either end (ace low); a vault any
    card carrying a gem every card of the vault carries (a vault is four *or more* cards of one
    gem, seed 003); a Queen's Diamond nothing (seed 003 defines it as the queen of diamonds and
    one other card, the diamond the die names, so no further card belongs to it).
    """
    kind, mask, low, high, gems = state
    bit = 1 << card
    if kind is MeldKind.SET:
        if card % 13 == low % 13:
            return kind, mask | bit, low, high, gems
        return None
    if kind is MeldKind.RUN:
        if card // 13 != low // 13:
            return None
        if card == low - 1 and low % 13:
            return kind, mask | bit, card, high, gems
        if card == high + 1 and high % 13 != KING:
            return kind, mask | bit, low, card, gems
        return None
    if kind is MeldKind.VAULT:
        shared = gems & frozenset(deck_map.of(card))
        return (kind, mask | bit, low, high, shared) if shared else None
    return None


def _may_fit(state: _MeldState, card: int, deck_map: DeckMap) -> bool:
    """Whether ``card`` could ever be laid on the meld that starts as ``state``."""
    kind, _, low, _, gems = state
    if kind is MeldKind.SET:
        return card % 13 == low % 13
    if kind is MeldKind.RUN:
        return card // 13 == low // 13
    if kind is MeldKind.VAULT:
        return bool(gems & frozenset(deck_map.of(card)))
    return False


def lay_off_in_turn(
    knocker_melds: Sequence[Meld],
    defenders: Sequence[Sequence[int]],
    deck_map: DeckMap,
    diamond_number: int | None = None,
    *,
    allow_layoffs: bool = True,
) -> tuple[LayoffResult, ...]:
    """Gem Rummy lay-offs (seed 003) for one defender, or two laying off in turn.

    Two players: the defender lays deadwood on the knocker's sets, runs and vaults (a vault takes
    any further card of its gem) and forms their own melds, vaults and Queen's Diamond jointly, for
    the least deadwood; ties go to the fewest cards laid off, then to the first found.

    Three players: the two non-knockers lay off **in turn, one card at a time**, clockwise from
    the knocker: ``defenders[0]`` (the first to the knocker's left) first. A turn lays one card on
    any of the knocker's melds *as they stand*, cards the other defender laid off included, or
    passes; a defender who passed may lay off again after the other's lay-off, and the lay-offs
    end when both pass one after the other. Each defender plays for their own least deadwood
    (each is scored against the knocker separately), and the search looks ahead to the end
    (backward induction), so a defender keeps back nothing that would pay off only later.
    Ties are read like this: a defender with two plays that leave them the same deadwood takes the
    one that leaves the other defender less (defenders hold nothing back out of spite), then the
    one laying off fewer of their own cards, then the one in which the other lays off fewer, then
    the first found (pass before lay; the knocker's melds in order; low cards first). Since the
    next card of a run end or the fourth card of a set exists once, the two defenders never
    compete for a place, and whoever lays first, every card that fits, even one fitting only
    after the other defender's lay-off, can be laid off.

    ``LayoffResult.layoffs`` are in the order each defender made them and index
    ``knocker_melds``. With ``allow_layoffs`` false (gin, big gin) nothing is laid off.

    >>> from engine.cards import format_cards, parse_cards
    >>> gems = ["ruby", "emerald", "sapphire", "diamond", "topaz", "amethyst", "pearl", "onyx"]
    >>> deck = DeckMap.from_mapping({c: (gems[4 + c // 13], gems[c // 13]) if c % 13 == 12
    ...                              else gems[c % 13 % 8] for c in range(52)})
    >>> vault = Meld(MeldKind.VAULT, tuple(parse_cards("AS AH 9D 9C")))  # four rubies
    >>> run = Meld.parse("4C 5C 6C")
    >>> first, second = lay_off_in_turn([vault, run], [parse_cards("8C 9S 2H"),
    ...                                                parse_cards("7C 3D 4H")], deck)
    >>> format_cards(first.laid_off_cards), first.deadwood  # 9S is a ruby; 8C after 7C
    ('9S 8C', 2)
    >>> format_cards(second.laid_off_cards), second.deadwood
    ('7C', 7)
    """
    if not 1 <= len(defenders) <= 2:
        raise RuleError(
            gettext_noop("Gem Rummy lays off for one or two defenders, not {count}"),
            count=len(defenders),
        )
    hands = [hand_mask(cards) for cards in defenders]
    extras = [gem_melds(cards, deck_map, diamond_number) for cards in defenders]
    least_cache: list[dict[int, int]] = [{} for _ in hands]

    def least(index: int, mask: int) -> int:
        cache = least_cache[index]
        if mask not in cache:
            cache[mask] = best_arrangement(mask, extra_melds=extras[index]).deadwood
        return cache[mask]

    start = tuple(_start(meld, deck_map) for meld in knocker_melds)
    count = len(hands)
    # The cards that could ever be laid off: a set's rank, a run's suit, a vault's gem.
    fits = [
        tuple(
            card for card in mask_to_cards(mask) if any(_may_fit(s, card, deck_map) for s in start)
        )
        for mask in hands
    ]
    memo: dict[tuple[tuple[_MeldState, ...], tuple[int, ...], int, int], _Outcome] = {}

    def solve(
        melds: tuple[_MeldState, ...], held: tuple[int, ...], turn: int, passes: int
    ) -> _Outcome:
        if passes >= count or not allow_layoffs:
            return _Outcome(
                tuple(least(i, held[i]) for i in range(count)), tuple(() for _ in range(count))
            )
        key = (melds, held, turn, passes)
        found = memo.get(key)
        if found is not None:
            return found
        after = (turn + 1) % count
        best = solve(melds, held, after, passes + 1)
        best_key = _rank(best, turn)
        own = held[turn]
        cards = [card for card in fits[turn] if own >> card & 1]
        for index, state in enumerate(melds):
            for card in cards:
                grown = _grown(state, card, deck_map)
                if grown is None:
                    continue
                nxt = (*melds[:index], grown, *melds[index + 1 :])
                rest = tuple(h ^ (1 << card) if i == turn else h for i, h in enumerate(held))
                sub = solve(nxt, rest, after, 0)
                moves = tuple(
                    ((Layoff(card, index), *m) if i == turn else m) for i, m in enumerate(sub.moves)
                )
                option = _Outcome(sub.deadwood, moves)
                option_key = _rank(option, turn)
                if option_key < best_key:
                    best, best_key = option, option_key
        memo[key] = best
        return best

    outcome = solve(start, tuple(hands), 0, 0)
    results = []
    for index, mask in enumerate(hands):
        moves = outcome.moves[index]
        laid = 0
        for move in moves:
            laid |= 1 << move.card
        rest = best_arrangement(mask ^ laid, extra_melds=extras[index])
        results.append(
            LayoffResult(
                knocker_melds=tuple(knocker_melds),
                defender_melds=rest.melds,
                layoffs=moves,
                deadwood_cards=rest.deadwood_cards,
                deadwood=rest.deadwood,
                deadwood_without_layoffs=least(index, mask),
            )
        )
    return tuple(results)


def _rank(outcome: _Outcome, mover: int) -> tuple[int, int, int, int]:
    """How the defender ``mover`` ranks an outcome: own deadwood, the other's, own cards laid,
    the other's cards laid (so nobody waits for the other to lay a card just to keep the turns
    going)."""
    others = sum(d for i, d in enumerate(outcome.deadwood) if i != mover)
    laid = sum(len(m) for i, m in enumerate(outcome.moves) if i != mover)
    return outcome.deadwood[mover], others, len(outcome.moves[mover]), laid


def gem_knocker_choice(
    knocker_cards: Sequence[int],
    defenders: Sequence[Sequence[int]],
    deck_map: DeckMap,
    diamond_number: int | None = None,
) -> tuple[Arrangement, tuple[LayoffResult, ...]]:
    """The knocker's least-deadwood arrangement that leaves the defenders together the most
    deadwood after their lay-offs (:func:`lay_off_in_turn`); ties go to the first arrangement."""
    best: tuple[Arrangement, tuple[LayoffResult, ...]] | None = None
    most = -1
    for arrangement in all_best_arrangements(
        knocker_cards, extra_melds=gem_melds(knocker_cards, deck_map, diamond_number)
    ):
        results = lay_off_in_turn(
            arrangement.melds,
            defenders,
            deck_map,
            diamond_number,
            allow_layoffs=not arrangement.is_gin,
        )
        total = sum(result.deadwood for result in results)
        if total > most:
            best, most = (arrangement, results), total
    assert best is not None  # every hand has at least one best arrangement
    return best
