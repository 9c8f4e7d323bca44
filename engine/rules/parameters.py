"""The vocabulary of rule parameters: the allowed values of each choice, each field's kind, and
the small checks :class:`~engine.rules.RuleSet` validates itself with.

Part of :mod:`engine.rules`.
"""

from __future__ import annotations

from typing import Final

from engine.errors import RuleError, gettext_noop

__all__ = [
    "FAMILIES",
    "KNOCK_LIMIT_MODES",
    "NEXT_DEALER_RULES",
    "SHUTOUT_RULES",
    "TABLES",
]

FAMILIES: Final = ("gin", "gem", "rummy")
"""Rule families: gin rummy (§2-§6), Gem Rummy (§8), Basic Rummy (§7)."""

TABLES: Final = ("two", "three_box", "three_dealer_out", "partnership", "open")
"""Seating formats (§5). ``open`` is a variable number of players given per game: Basic Rummy
2-6, Gem Rummy 2-3 (each non-knocker scored against the knocker)."""

SHUTOUT_RULES: Final = ("add_game_bonus", "double_total", "none")
"""What a shutout adds (§4)."""

KNOCK_LIMIT_MODES: Final = ("upcard", "dice")
"""Knock limits that are not a fixed number: Oklahoma's upcard value, Gem's die roll."""

NEXT_DEALER_RULES: Final = ("loser", "winner", "rotate")
"""Who deals after a scored hand; ``rotate`` passes the deal to the next seat."""

MAX_KNOCK_LIMIT: Final = 100
DECK_SIZE: Final = 52

# Player count -> players at one table who hold cards (for the deck-size check).
HOLDERS: Final = {
    "two": 2,
    "three_box": 2,
    "three_dealer_out": 2,
    "partnership": 2,
    "open": 3,
}


def is_int(value: object) -> bool:
    """True for a real int (``bool`` is not a count)."""
    return isinstance(value, int) and not isinstance(value, bool)


FIELD_KINDS: Final[dict[str, str]] = {
    "name": "str",
    "family": "str",
    "table": "str",
    "hand_size": "int",
    "knock_limit": "limit",
    "ace_upcard_gin_only": "bool",
    "gin_bonus": "int",
    "big_gin_bonus": "int?",
    "undercut_bonus": "int",
    "undercut_on_tie": "bool",
    "undercut_scores_difference": "bool",
    "knocker_min_points": "int",
    "spade_doubles": "bool",
    "dead_hand_stock": "int",
    "target": "int?",
    "max_hands": "int?",
    "game_bonus": "int",
    "box_bonus": "int",
    "shutout": "str",
    "last_hand_tiebreak": "bool",
    "hollywood_games": "int",
    "next_dealer": "str",
    "gem_bonus_knocker": "int",
    "gem_bonus_other": "int",
    "rummy_doubles": "bool",
    "ace_high": "bool",
    "rummy_deal": "deal",
}
KIND_WORDS: Final = {
    "str": gettext_noop("a string"),
    "bool": gettext_noop("true or false"),
    "int": gettext_noop("a whole number"),
    "int?": gettext_noop("a whole number or None"),
    "limit": gettext_noop("a whole number, 'upcard', 'dice' or None"),
    "deal": gettext_noop("a list of 5 whole numbers"),
}


_ONE_OF: Final = gettext_noop("{name} must be one of {choices}, not {value}")


def check_one_of(name: str, value: str, allowed: tuple[str, ...], template: str = _ONE_OF) -> None:
    if value not in allowed:
        choices = ", ".join(repr(a) for a in allowed)
        raise RuleError(template, name=name, choices=choices, value=repr(value))
