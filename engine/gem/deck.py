"""Gem Rummy's deck map and melds: which gem each card carries, vaults, the Queen's Diamond,
checking declared Gem melds and the gem parts bonus.

Part of :mod:`engine.gem`, whose docstring gives the decisions where the seed is silent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from engine.cards import format_card, format_cards, parse_card
from engine.errors import MeldError, Message, RuleError, gettext_noop
from engine.melds import Meld, MeldKind

__all__ = [
    "GEM_COUNT",
    "DeckMap",
    "check_gem_meld",
    "diamond_card",
    "gem_melds",
    "has_all_gems",
    "vault_gems",
]

GemsIn = str | Sequence[str]
GemTable = Mapping[int, GemsIn] | Mapping[str, GemsIn] | Mapping[int | str, GemsIn]
"""A deck map as club data: card (id or notation) -> gem, or two gems for a king."""

GEM_COUNT: Final = 8
"""Gems in the deck (docs/rules.md §8)."""

KING: Final = 12
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
                gettext_noop("A deck map gives the gems of all 52 cards, not {count}"),
                count=len(self.gems),
            )
        for card, gems in enumerate(self.gems):
            want = 2 if card % 13 == KING else 1
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
                gettext_noop("A deck map has exactly {count} gems, not {found}: {names}"),
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
                gettext_noop("The deck map is missing {cards}"), cards=format_cards(missing)
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
            gettext_noop("The diamond number is a die roll 1-6, not {number}"),
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
                gettext_noop("Vault {meld} cannot be checked without the club's deck map"),
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
    kings = [card for card in hand if card % 13 == KING]
    covered = {deck_map.of(card)[0] for card in hand if card % 13 != KING}
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
