"""Gem Rummy's extra data, melds and lay-offs (docs/rules.md §8, seed 003): the deck map, vaults,
Queen's Diamond, lay-offs for two and three players, gem bonus.

Which gem a card carries is printed on the commercial deck and is club data, so it comes in as a
:class:`DeckMap`. This module turns a deck map into the extra meld candidates that
:mod:`engine.arrange` searches over, checks Gem melds a player declares, lays off for Gem hands
(:func:`lay_off_in_turn`: vaults take further cards of their gem, and three players lay off in
turn one card at a time) and decides the gem parts bonus. It must not score hands (that is
:mod:`engine.scoring`).

Decisions where the seed is silent:

- The dice are six-sided: the knock-limit die and the diamond number are 1-6, and the diamond
  number names the diamond of that rank (1 = A♦ .. 6 = 6♦).
- A deck map gives every one of the 52 cards; a king carries exactly two gems, every other card
  one; there are exactly eight gems in all.
- A king in a vault stands for one of its gems; for the gem bonus a king counts as one of its two
  gems (whichever completes the eight), never both.
- A vault takes lay-offs of any card carrying a gem that all its cards carry; a Queen's Diamond
  takes none (the seed defines it as exactly two cards).
- Three players lay off in turn: see :func:`lay_off_in_turn` for the order and how ties are read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from engine.arrange import Arrangement, all_best_arrangements, best_arrangement, hand_mask
from engine.cards import format_card, format_cards, mask_to_cards, parse_card
from engine.errors import MeldError, Message, RuleError, gettext_noop
from engine.layoff import Layoff, LayoffResult
from engine.melds import Meld, MeldKind

__all__ = [
    "GEM_COUNT",
    "DeckMap",
    "check_gem_meld",
    "diamond_card",
    "gem_knocker_choice",
    "gem_melds",
    "has_all_gems",
    "lay_off_in_turn",
    "vault_gems",
]

GemsIn = str | Sequence[str]
GemTable = Mapping[int, GemsIn] | Mapping[str, GemsIn] | Mapping[int | str, GemsIn]
"""A deck map as club data: card (id or notation) -> gem, or two gems for a king."""

GEM_COUNT: Final = 8
"""Gems in the deck (docs/rules.md §8)."""

_KING: Final = 12
_QUEEN_OF_DIAMONDS: Final = 2 * 13 + 11
_VAULT_MIN: Final = 4


@dataclass(frozen=True, slots=True)
class DeckMap:
    """Which gem(s) each card carries: ``gems[card]`` is a tuple (two gems for a king).

    Build one with :meth:`from_mapping`; it is checked when built.
    """

    gems: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        if len(self.gems) != 52:
            raise RuleError(
                gettext_noop("a deck map gives the gems of all 52 cards, not {count}"),
                count=len(self.gems),
            )
        for card, gems in enumerate(self.gems):
            want = 2 if card % 13 == _KING else 1
            if len(gems) != want or len(set(gems)) != want or not all(gems):
                what = gettext_noop("two different gems") if want == 2 else gettext_noop("one gem")
                raise RuleError(
                    gettext_noop("{card} must carry {what} in the deck map, not {gems}"),
                    card=format_card(card),
                    what=Message(what),
                    gems=str(gems),
                )
        names = sorted({gem for gems in self.gems for gem in gems})
        if len(names) != GEM_COUNT:
            raise RuleError(
                gettext_noop("a deck map has exactly {count} gems, not {found}: {names}"),
                count=GEM_COUNT,
                found=len(names),
                names=", ".join(names),
            )

    @classmethod
    def from_mapping(cls, mapping: GemTable) -> DeckMap:
        """Build from ``{card: gem}`` (card as id or notation; a king maps to two gems).

        Cards missing from the mapping are named in the error.
        """
        table: dict[int, tuple[str, ...]] = {}
        for key, value in mapping.items():
            card = parse_card(key) if isinstance(key, str) else key
            format_card(card)  # checks the id
            if card in table:
                raise RuleError(
                    gettext_noop("{card} is given twice in the deck map"), card=format_card(card)
                )
            table[card] = (value,) if isinstance(value, str) else tuple(value)
        missing = [card for card in range(52) if card not in table]
        if missing:
            raise RuleError(
                gettext_noop("the deck map is missing {cards}"), cards=format_cards(missing)
            )
        return cls(tuple(table[card] for card in range(52)))

    @property
    def names(self) -> tuple[str, ...]:
        """The eight gem names, sorted."""
        return tuple(sorted({gem for gems in self.gems for gem in gems}))

    def of(self, card: int) -> tuple[str, ...]:
        """The gem(s) of ``card``."""
        return self.gems[card]


def diamond_card(diamond_number: int) -> int:
    """The diamond named by the diamond die (1 = A♦ .. 6 = 6♦).

    >>> format_card(diamond_card(6))
    '6D'
    """
    if (
        isinstance(diamond_number, bool)
        or not isinstance(diamond_number, int)
        or not (1 <= diamond_number <= 6)
    ):
        raise RuleError(
            gettext_noop("the diamond number is a die roll 1-6, not {number}"),
            number=repr(diamond_number),
        )
    return 2 * 13 + diamond_number - 1


def vault_gems(cards: Iterable[int], deck_map: DeckMap) -> frozenset[str]:
    """The gems that every one of ``cards`` carries (a vault needs at least one)."""
    shared: set[str] | None = None
    for card in cards:
        gems = set(deck_map.of(card))
        shared = gems if shared is None else shared & gems
    return frozenset(shared or ())


def gem_melds(
    cards: Iterable[int], deck_map: DeckMap, diamond_number: int | None = None
) -> tuple[Meld, ...]:
    """Every vault (4+ cards sharing a gem) and the Queen's Diamond that ``cards`` hold.

    These are the extra meld candidates for the arrangement and lay-off search.
    """
    hand = sorted(set(cards))
    found: dict[tuple[int, ...], Meld] = {}
    for gem in deck_map.names:
        holders = [card for card in hand if gem in deck_map.of(card)]
        for size in range(_VAULT_MIN, len(holders) + 1):
            for combo in combinations(holders, size):
                found.setdefault(combo, Meld(MeldKind.VAULT, combo))
    if diamond_number is not None:
        partner = diamond_card(diamond_number)
        if _QUEEN_OF_DIAMONDS in hand and partner in hand:
            pair = (partner, _QUEEN_OF_DIAMONDS)
            found[pair] = Meld(MeldKind.QUEENS_DIAMOND, pair)
    return tuple(found.values())


def check_gem_meld(meld: Meld, deck_map: DeckMap | None, diamond_number: int | None) -> None:
    """Raise :class:`MeldError` unless a declared vault or Queen's Diamond really is one."""
    if meld.kind is MeldKind.VAULT:
        if deck_map is None:
            raise MeldError(
                gettext_noop("vault {meld} cannot be checked without the club's deck map"),
                meld=str(meld),
            )
        if not vault_gems(meld.cards, deck_map):
            gems = "; ".join(f"{format_card(c)} {'/'.join(deck_map.of(c))}" for c in meld.cards)
            raise MeldError(
                gettext_noop("{meld} is not a vault: its cards share no gem ({gems})"),
                meld=str(meld),
                gems=gems,
            )
    elif meld.kind is MeldKind.QUEENS_DIAMOND:
        if diamond_number is None:
            raise MeldError(
                gettext_noop("Queen's Diamond {meld} needs the hand's diamond number"),
                meld=str(meld),
            )
        partner = diamond_card(diamond_number)
        if partner not in meld.cards:
            raise MeldError(
                gettext_noop(
                    "{meld} is not the Queen's Diamond: diamond number {number} names {card}"
                ),
                meld=str(meld),
                number=diamond_number,
                card=format_card(partner),
            )


def has_all_gems(cards: Iterable[int], deck_map: DeckMap) -> bool:
    """True when ``cards`` hold one card of each of the eight gems, a king counting once.

    Non-king cards cover their gem; the kings then have to fill the missing gems one each,
    which is a small bipartite matching.
    """
    hand = set(cards)
    kings = [card for card in hand if card % 13 == _KING]
    covered = {deck_map.of(card)[0] for card in hand if card % 13 != _KING}
    missing = [gem for gem in deck_map.names if gem not in covered]
    if len(missing) > len(kings):
        return False
    return _match(missing, [set(deck_map.of(k)) for k in kings])


def _match(gems: list[str], kings: list[set[str]]) -> bool:
    """Can each gem in ``gems`` get its own king carrying it?"""
    if not gems:
        return True
    gem, rest = gems[0], gems[1:]
    return any(
        gem in carried and _match(rest, kings[:i] + kings[i + 1 :])
        for i, carried in enumerate(kings)
    )


# -- lay-offs (two and three players) ---------------------------------------------------------

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
        if card == high + 1 and high % 13 != _KING:
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

    >>> from engine.cards import parse_cards
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
