"""Helpers the engine tests share with each other and with the scoring tests (no Django here:
``pytest tests/engine -p no:django`` imports this module)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from engine.cards import format_card

# The made-up deck map of the Gem Rummy tests (the commercial deck's gems are club data): a
# non-king card of rank r (ace = 0) carries ``GEMS[r % 8]``; the king of suit s carries
# ``GEMS[4 + s]`` and ``GEMS[s]``.
GEMS = ["ruby", "emerald", "sapphire", "diamond", "topaz", "amethyst", "pearl", "onyx"]


def made_up_gems(card: int) -> str | tuple[str, str]:
    """The gem (a king: the two gems) that ``card`` carries in the made-up deck map."""
    suit, rank = divmod(card, 13)
    return (GEMS[4 + suit], GEMS[suit]) if rank == 12 else GEMS[rank % 8]


def made_up_deck_mapping() -> dict[str, str | list[str]]:
    """The made-up deck map as a club stores it: card text to its gem, or a king's two gems."""
    out: dict[str, str | list[str]] = {}
    for card in range(52):
        gems = made_up_gems(card)
        out[format_card(card)] = list(gems) if isinstance(gems, tuple) else gems
    return out


def odd_card_lists() -> list[list[object]]:
    """Card lists the fast path must hand on (or refuse exactly as cards_to_mask does): every kind
    of number equal to a card, bools, ints out of range, repeats, and lists of no card or one."""
    odd: list[object] = [
        True,
        False,
        3.0,
        3 + 0j,
        Decimal(7),
        Fraction(9),
        -1,
        -53,
        52,
        103,
        2**70,
        "AS",
        None,
    ]
    try:
        import numpy
    except ImportError:  # pragma: no cover - numpy comes with the bench peers
        pass
    else:
        odd += [numpy.int64(5), numpy.float64(5.0)]
    lists: list[list[object]] = [[], [0], [51], [0, 0], [12, 25, 12]]
    for item in odd:
        lists += [[item], [item, 20], [20, 30, item], [9, 10, 11, 22, 23, item, 40, 41, 50, 51]]
    return lists
