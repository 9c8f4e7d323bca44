"""One rule set (:class:`RuleSet`: every parameter, validated when built) and the presets.

Part of :mod:`engine.rules`, whose docstring gives the decisions where the rule texts are silent.
Longer than 400 lines on purpose: :class:`RuleSet` is one value whose validation and conversion
(about 330 lines) belong to it, and the presets stay beside it because they are built from it
while :meth:`RuleSet.from_dict` falls back on them, so splitting them apart would make a cycle.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, Final

from engine.errors import Message, RuleError, gettext_noop
from engine.rules.parameters import (
    DECK_SIZE,
    FAMILIES,
    FIELD_KINDS,
    HOLDERS,
    KIND_WORDS,
    KNOCK_LIMIT_MODES,
    MAX_KNOCK_LIMIT,
    NEXT_DEALER_RULES,
    SHUTOUT_RULES,
    TABLES,
    check_one_of,
    is_int,
)

__all__ = ["RULE_PRESETS", "RuleSet", "find_rules"]


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every rule parameter of one game; defaults are the ``standard`` preset (seed 000).

    >>> RuleSet().knock_limit, RuleSet().gin_bonus, RuleSet().shutout
    (10, 25, 'add_game_bonus')
    >>> RuleSet(target=0)
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: Target must be a positive number of points or None (single hand), not 0
    """

    name: str = "custom"
    family: str = "gin"
    table: str = "two"
    hand_size: int = 10
    knock_limit: int | str | None = 10
    ace_upcard_gin_only: bool = False
    gin_bonus: int = 25
    big_gin_bonus: int | None = None
    undercut_bonus: int = 25
    undercut_on_tie: bool = False
    undercut_scores_difference: bool = True
    knocker_min_points: int = 0
    spade_doubles: bool = False
    dead_hand_stock: int = 2
    target: int | None = 100
    max_hands: int | None = None
    game_bonus: int = 100
    box_bonus: int = 25
    shutout: str = "add_game_bonus"
    last_hand_tiebreak: bool = True
    hollywood_games: int = 0
    next_dealer: str = "loser"
    gem_bonus_knocker: int = 0
    gem_bonus_other: int = 0
    rummy_doubles: bool = False
    ace_high: bool = False
    rummy_deal: tuple[int, ...] = field(default=(10, 7, 7, 6, 6))

    def __post_init__(self) -> None:
        self._check_types()
        self._check_values()

    # -- validation -------------------------------------------------------------------------

    def _check_types(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            kind = FIELD_KINDS[f.name]
            ok = (
                (kind == "str" and isinstance(value, str))
                or (kind == "bool" and isinstance(value, bool))
                or (kind == "int" and is_int(value))
                or (kind == "int?" and (value is None or is_int(value)))
                or (kind == "limit" and (value is None or is_int(value) or isinstance(value, str)))
                or (kind == "deal" and isinstance(value, tuple) and all(is_int(v) for v in value))
            )
            if not ok:
                raise RuleError(
                    gettext_noop("{name} must be {kind}, not {value}"),
                    name=f.name,
                    kind=Message(KIND_WORDS[kind]),
                    value=repr(value),
                )

    def _check_values(self) -> None:
        check_one_of("family", self.family, FAMILIES)
        check_one_of("table", self.table, TABLES)
        check_one_of("shutout", self.shutout, SHUTOUT_RULES)
        check_one_of("next_dealer", self.next_dealer, NEXT_DEALER_RULES)
        for name in (
            "gin_bonus",
            "undercut_bonus",
            "knocker_min_points",
            "dead_hand_stock",
            "game_bonus",
            "box_bonus",
            "gem_bonus_knocker",
            "gem_bonus_other",
            "hollywood_games",
        ):
            if getattr(self, name) < 0:
                raise RuleError(
                    gettext_noop("{name} must not be negative, not {value}"),
                    name=name,
                    value=getattr(self, name),
                )
        if self.big_gin_bonus is not None and self.big_gin_bonus < 0:
            raise RuleError(
                gettext_noop("big_gin_bonus must not be negative, not {value}"),
                value=self.big_gin_bonus,
            )
        if self.target is not None and self.target <= 0:
            raise RuleError(
                gettext_noop(
                    "Target must be a positive number of points or None (single hand), not {value}"
                ),
                value=self.target,
            )
        if self.max_hands is not None and self.max_hands <= 0:
            raise RuleError(
                gettext_noop("max_hands must be a positive number of hands or None, not {value}"),
                value=self.max_hands,
            )
        self._check_knock_limit()
        self._check_family()
        self._check_sizes()
        if self.hollywood_games:
            if self.hollywood_games == 1:
                raise RuleError(
                    gettext_noop(
                        "hollywood_games must be 0 (no Hollywood) or at least 2 games, not 1"
                    )
                )
            if self.target is None or self.table != "two":
                raise RuleError(gettext_noop("Hollywood needs a target and a two-player table"))

    def _check_knock_limit(self) -> None:
        limit = self.knock_limit
        if limit is None:
            if self.family != "rummy":
                raise RuleError(
                    gettext_noop("knock_limit is required for the {family} family"),
                    family=self.family,
                )
            return
        if isinstance(limit, str):
            check_one_of(
                "knock_limit",
                limit,
                KNOCK_LIMIT_MODES,
                gettext_noop("{name} must be one of {choices} or a number 0-100, not {value}"),
            )
            if limit == "dice" and self.family != "gem":
                raise RuleError(
                    gettext_noop("knock_limit 'dice' is Gem Rummy's rule (family 'gem')")
                )
            if limit == "upcard" and self.family != "gin":
                raise RuleError(
                    gettext_noop("knock_limit 'upcard' is Oklahoma's rule (family 'gin')")
                )
        elif not 0 <= limit <= MAX_KNOCK_LIMIT:
            raise RuleError(
                gettext_noop("knock_limit must be between 0 and {most}, not {value}"),
                most=MAX_KNOCK_LIMIT,
                value=limit,
            )
        if self.family == "rummy":
            raise RuleError(gettext_noop("Basic Rummy has no knock: knock_limit must be None"))
        if self.spade_doubles and limit != "upcard":
            raise RuleError(
                gettext_noop("spade_doubles needs knock_limit 'upcard' (the spade is the upcard)")
            )
        if self.ace_upcard_gin_only and limit != "upcard":
            raise RuleError(gettext_noop("ace_upcard_gin_only needs knock_limit 'upcard'"))

    def _check_family(self) -> None:
        if self.family == "rummy":
            if self.table != "open":
                raise RuleError(
                    gettext_noop("Basic Rummy is played at an 'open' table (2-6 players)")
                )
            if self.big_gin_bonus is not None:
                raise RuleError(
                    gettext_noop("Basic Rummy has no big gin: big_gin_bonus must be None")
                )
        else:
            if self.ace_high:
                raise RuleError(
                    gettext_noop(
                        "ace_high is Basic Rummy's variant; in the gin family aces are low"
                    )
                )
            if self.rummy_doubles:
                raise RuleError(
                    gettext_noop("rummy_doubles is Basic Rummy's rule (family 'rummy')")
                )
        if self.next_dealer == "loser" and self.table == "open":
            raise RuleError(
                gettext_noop("next_dealer 'loser' needs two sides; use 'winner' or 'rotate'")
            )
        if self.family != "gem" and (self.gem_bonus_knocker or self.gem_bonus_other):
            raise RuleError(gettext_noop("Gem bonuses are Gem Rummy's rule (family 'gem')"))
        if self.family == "gin" and self.table == "open":
            raise RuleError(
                gettext_noop(
                    "Gin rummy with three or four players uses table 'three_box',"
                    " 'three_dealer_out' or 'partnership'"
                )
            )
        if self.family == "gem" and self.table not in ("two", "open"):
            raise RuleError(
                gettext_noop("Gem Rummy is played by two ('two') or three ('open') players")
            )

    def _check_sizes(self) -> None:
        holders = HOLDERS[self.table]
        big = 1 if self.big_gin_bonus is not None else 0
        if self.family != "rummy":
            lowest = 3
            if self.hand_size < lowest or (
                holders * self.hand_size + big + 1 + self.dead_hand_stock > DECK_SIZE
            ):
                raise RuleError(
                    gettext_noop(
                        "hand_size {size} does not fit: {holders} hands of it, the upcard"
                        " and a stock of {stock} must fit in {deck} cards,"
                        " with at least {lowest} cards a hand"
                    ),
                    size=self.hand_size,
                    holders=holders,
                    stock=self.dead_hand_stock,
                    deck=DECK_SIZE,
                    lowest=lowest,
                )
        if len(self.rummy_deal) != 5:
            raise RuleError(
                gettext_noop(
                    "rummy_deal must give the cards dealt for 2, 3, 4, 5 and 6 players"
                    " (5 numbers), not {deal}"
                ),
                deal=str(list(self.rummy_deal)),
            )
        for players, size in enumerate(self.rummy_deal, start=2):
            if size < 1 or players * size + 1 > DECK_SIZE:
                raise RuleError(
                    gettext_noop(
                        "rummy_deal gives {size} cards to each of {players} players:"
                        " it must be at least 1 and leave a card for the stock"
                    ),
                    size=size,
                    players=players,
                )

    # -- derived values ---------------------------------------------------------------------

    @property
    def big_gin(self) -> bool:
        """True when big gin (all cards melded after the draw) is scored.

        >>> find_rules("modern").big_gin, find_rules("standard").big_gin
        (True, False)
        """
        return self.big_gin_bonus is not None

    def stock_draws(self, players: int = 2) -> int:
        """Cards that can be drawn from the stock before the hand is dead (gin and Gem families).

        The stock after the deal and the upcard, less the ``dead_hand_stock`` cards that are never
        drawn: whoever draws the card that leaves ``dead_hand_stock`` makes the last knock, and if
        they discard without knocking the hand is dead (seeds 000, 001, 003, 004 agree on this
        moment; see :func:`engine.scoring.dead_hand`). Only the players who hold cards count:
        two at an in-the-box or dealer-out table.

        >>> find_rules("standard").stock_draws(), find_rules("gem").stock_draws()  # 52-20-1-2
        (29, 27)
        """
        if self.family == "rummy":
            raise RuleError(
                gettext_noop("Basic Rummy reshuffles the discard pile: its stock never runs out")
            )
        holders = players if self.table == "open" else HOLDERS[self.table]
        return DECK_SIZE - holders * self.hand_size - 1 - self.dead_hand_stock

    def deal_size(self, players: int) -> int:
        """Cards dealt to each of ``players`` players.

        >>> find_rules("rummy").deal_size(4), find_rules("gem").deal_size(2)
        (7, 11)
        """
        if self.family != "rummy":
            return self.hand_size
        if not 2 <= players <= 6:
            raise RuleError(
                gettext_noop("Basic Rummy is for 2 to 6 players, not {players}"), players=players
            )
        return self.rummy_deal[players - 2]

    # -- conversion -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Every parameter as JSON-safe values (tuples become lists).

        >>> RuleSet.from_dict(find_rules("gem").to_dict()) == find_rules("gem")
        True
        """
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build a rule set from :meth:`to_dict` output.

        Missing keys take the value of the preset named by ``data["name"]`` when there is one
        (so an older stored rule set keeps meaning the same), else the ``standard`` values.
        Unknown keys are rejected by name.

        >>> RuleSet.from_dict({"name": "oklahoma", "target": 200}).knock_limit
        'upcard'
        >>> RuleSet.from_dict({"knock_limt": 5})
        Traceback (most recent call last):
        ...
        engine.errors.RuleError: Unknown rule parameter(s): knock_limt
        """
        if not isinstance(data, Mapping):
            raise RuleError(
                gettext_noop("A rule set must be a mapping of parameters, not {kind}"),
                kind=type(data).__name__,
            )
        values = _known_values(data)
        base_name = values.get("name")
        base = RULE_PRESETS.get(base_name) if isinstance(base_name, str) else None
        if base is None:
            return cls(**values)
        return dataclasses.replace(base, **values)

    def with_overrides(self, **overrides: Any) -> RuleSet:
        """A copy with some parameters changed (and validated again).

        >>> find_rules("standard").with_overrides(gin_bonus=20).gin_bonus
        20
        >>> find_rules("standard").with_overrides(gin=20)
        Traceback (most recent call last):
        ...
        engine.errors.RuleError: Unknown rule parameter(s): gin
        """
        return dataclasses.replace(self, **_known_values(overrides))


def _known_values(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` as rule parameters: unknown names are refused, a list ``rummy_deal`` is a tuple."""
    known = {f.name for f in fields(RuleSet)}
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise RuleError(
            gettext_noop("Unknown rule parameter(s): {names}"), names=", ".join(unknown)
        )
    values = dict(data)
    if isinstance(values.get("rummy_deal"), list):
        values["rummy_deal"] = tuple(values["rummy_deal"])
    return values


_STANDARD: Final = RuleSet(name="standard")

RULE_PRESETS: Final[Mapping[str, RuleSet]] = MappingProxyType(
    {
        "standard": _STANDARD,
        "classic": dataclasses.replace(
            _STANDARD,
            name="classic",
            gin_bonus=20,
            undercut_bonus=10,
            undercut_on_tie=True,
            box_bonus=20,
            next_dealer="rotate",
        ),
        "modern": dataclasses.replace(
            _STANDARD,
            name="modern",
            big_gin_bonus=31,
            undercut_on_tie=True,
            shutout="double_total",
        ),
        "online-table": dataclasses.replace(
            _STANDARD,
            name="online-table",
            undercut_on_tie=True,
            target=None,
            game_bonus=0,
            box_bonus=0,
            shutout="none",
            next_dealer="rotate",
        ),
        "oklahoma": dataclasses.replace(
            _STANDARD,
            name="oklahoma",
            knock_limit="upcard",
            ace_upcard_gin_only=True,
            undercut_on_tie=True,
            spade_doubles=True,
            target=150,
        ),
        "hollywood": dataclasses.replace(_STANDARD, name="hollywood", hollywood_games=3),
        "three-box": dataclasses.replace(
            _STANDARD,
            name="three-box",
            table="three_box",
            undercut_bonus=10,
            undercut_on_tie=True,
            game_bonus=0,
            box_bonus=0,
            shutout="none",
            next_dealer="winner",
        ),
        "partnership": dataclasses.replace(_STANDARD, name="partnership", table="partnership"),
        "gem": dataclasses.replace(
            _STANDARD,
            name="gem",
            family="gem",
            hand_size=11,
            knock_limit="dice",
            big_gin_bonus=35,
            undercut_scores_difference=False,
            knocker_min_points=11,
            target=110,
            game_bonus=0,
            box_bonus=0,
            shutout="none",
            next_dealer="winner",
            gem_bonus_knocker=16,
            gem_bonus_other=8,
        ),
        "rummy": dataclasses.replace(
            _STANDARD,
            name="rummy",
            family="rummy",
            table="open",
            knock_limit=None,
            gin_bonus=0,
            undercut_bonus=0,
            dead_hand_stock=0,
            target=150,
            game_bonus=0,
            box_bonus=0,
            shutout="none",
            next_dealer="rotate",
            rummy_doubles=True,
        ),
    }
)
"""The presets of docs/rules.md §6, by name."""


def _normalise(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def find_rules(name: str, /, **overrides: Any) -> RuleSet:
    """The preset called ``name`` (case-insensitive; ``_``, ``-`` and spaces alike), with overrides.

    >>> find_rules("Online_Table").name
    'online-table'
    >>> find_rules("oklahoma", target=100).target
    100
    >>> find_rules("canasta")
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: Unknown rule set 'canasta'; known: standard, classic, modern, online-table, oklahoma, hollywood, three-box, partnership, gem, rummy
    """  # noqa: E501
    if not isinstance(name, str):
        raise RuleError(
            gettext_noop("A rule set name must be a string, not {name}"), name=repr(name)
        )
    preset = RULE_PRESETS.get(_normalise(name))
    if preset is None:
        raise RuleError(
            gettext_noop("Unknown rule set {name}; known: {known}"),
            name=repr(name),
            known=", ".join(RULE_PRESETS),
        )
    return preset.with_overrides(**overrides) if overrides else preset
