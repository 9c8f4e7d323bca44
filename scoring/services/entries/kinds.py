"""A hand as entered: :data:`HandEntry`, a tagged union, one frozen dataclass per family
(:class:`TwoPlayerEntry`, :class:`DeadHand`, :class:`PartnershipEntry`, :class:`GemThreeEntry` with
its :class:`GemDefenderEntry`, :class:`RummyEntry`), read by :func:`entry_from_dict` from an API
body, a page form or a CSV row: a field that does not apply to the family cannot be given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Final, Literal, TypeVar

from django.utils.translation import gettext as _

from core.errors import ApplicationError
from engine.errors import gettext_noop
from engine.rules import RuleSet

# -- input ----------------------------------------------------------------------------------


def _absent(value: object) -> bool:
    """True for a value that gives nothing: ``None``, ``False`` or an empty list."""
    return value is None or value is False or (isinstance(value, tuple | list) and not value)


class _Entry:
    """What every kind of entry shares: its payload (what is stored) and the fields it gives."""

    __slots__ = ()

    label: ClassVar[str]

    def given(self) -> dict[str, Any]:
        """The fields given (not empty), nested entries as dicts: what a parse would read."""
        out: dict[str, Any] = {}
        for item in fields(self):  # type: ignore[arg-type]
            value = getattr(self, item.name)
            if _absent(value):
                continue
            if item.name in ("boards", "defenders"):
                value = [nested.given() for nested in value]
            out[item.name] = value
        return out

    def as_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for item in fields(self):  # type: ignore[arg-type]
            value = getattr(self, item.name)
            if value in (None, False, (), []):
                continue
            if item.name == "leftovers":
                value = {str(k): v for k, v in value.items()}
            if item.name in ("boards", "defenders"):
                value = [nested.as_payload() for nested in value]
            out[item.name] = value
        return out


_E = TypeVar("_E", bound=_Entry)


@dataclass(frozen=True, slots=True)
class TwoPlayerEntry(_Entry):
    """A two-player hand (also a board of a partnership hand, and in-the-box / dealer-out tables).

    ``knocker`` (seat position), ``outcome``, and either both hands by cards (``knocker_cards``,
    ``defender_cards``, optional ``knocker_melds``; counts, outcome, points and winner then are
    claims the engine checks) or both deadwood counts after lay-offs. By cards,
    ``taken_from_discard`` (optional) is the card the knocker took from the discard pile on the
    knocking turn: a knock that discarded it is refused (docs/rules.md §3). Oklahoma adds
    ``upcard``; Gem the dice (``knock_limit``, ``diamond_number``) and the gem bonus flags. A
    partnership board names its ``defender``; ``outcome`` ``dead`` is a dead hand.
    """

    label: ClassVar[str] = gettext_noop("a two-player hand")

    outcome: str | None = None
    knocker: int | None = None
    defender: int | None = None
    knocker_cards: str | None = None
    defender_cards: str | None = None
    knocker_melds: str | list[str] | None = None
    knocker_deadwood: int | None = None
    defender_deadwood: int | None = None
    defender_deadwood_before_layoffs: int | None = None
    points: int | None = None
    winner: int | None = None
    upcard: str | None = None
    taken_from_discard: str | None = None
    knock_limit: int | None = None
    diamond_number: int | None = None
    knocker_gem_bonus: bool = False
    defender_gem_bonus: bool = False


@dataclass(frozen=True, slots=True)
class DeadHand(_Entry):
    """A dead hand of any gin family (nobody knocked): no knocker, no counts, no score."""

    label: ClassVar[str] = gettext_noop("a dead hand")

    outcome: Literal["dead"] = "dead"
    upcard: str | None = None


@dataclass(frozen=True, slots=True)
class PartnershipEntry(_Entry):
    """A partnership hand: two ``boards``, each a two-player entry naming its defender."""

    label: ClassVar[str] = gettext_noop("a partnership hand")

    outcome: str | None = None
    boards: tuple[TwoPlayerEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class GemDefenderEntry(_Entry):
    """One non-knocker of a three-player Gem hand, scored against the knocker on its own.

    ``defender`` (default: the other seats in order), ``outcome`` against the knocker, and
    ``defender_deadwood`` or ``defender_cards``, ``defender_gem_bonus``, optional ``points``.
    """

    label: ClassVar[str] = gettext_noop("a defender of a three-player Gem hand")

    defender: int | None = None
    outcome: str | None = None
    defender_cards: str | None = None
    defender_deadwood: int | None = None
    defender_deadwood_before_layoffs: int | None = None
    points: int | None = None
    defender_gem_bonus: bool = False


@dataclass(frozen=True, slots=True)
class GemThreeEntry(_Entry):
    """A three-player Gem hand: the knocker's side here, each non-knocker in ``defenders``.

    ``knocker``, ``knocker_deadwood`` or ``knocker_cards`` (and ``knocker_melds``), the dice
    (``knock_limit``, ``diamond_number``), ``knocker_gem_bonus``; ``outcome`` is the default of
    each defender's (a knocker's gin is gin against both).
    """

    label: ClassVar[str] = gettext_noop("a three-player Gem hand")

    outcome: str | None = None
    knocker: int | None = None
    knocker_cards: str | None = None
    knocker_melds: str | list[str] | None = None
    knocker_deadwood: int | None = None
    knock_limit: int | None = None
    diamond_number: int | None = None
    knocker_gem_bonus: bool = False
    defenders: tuple[GemDefenderEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class RummyEntry(_Entry):
    """A Basic Rummy hand: who ``went_out``, whether they went ``rummy``, and the ``leftovers``
    (seat → cards left, or their count); ``points`` is an optional check."""

    label: ClassVar[str] = gettext_noop("a Basic Rummy hand")

    went_out: int | None = None
    rummy: bool = False
    leftovers: dict[int, str | int] | None = None
    points: int | None = None


HandEntry = TwoPlayerEntry | DeadHand | PartnershipEntry | GemThreeEntry | RummyEntry
"""One hand as entered: a tagged union, one kind per family (the type is the tag)."""

EntryFamily = Literal["two_player", "partnership", "gem_three", "rummy"]

ENTRY_KINDS: Final[
    dict[str, type[TwoPlayerEntry | PartnershipEntry | GemThreeEntry | RummyEntry]]
] = {
    "two_player": TwoPlayerEntry,
    "partnership": PartnershipEntry,
    "gem_three": GemThreeEntry,
    "rummy": RummyEntry,
}
_NESTED: Final[dict[str, type[TwoPlayerEntry | GemDefenderEntry]]] = {
    "boards": TwoPlayerEntry,
    "defenders": GemDefenderEntry,
}
# Every field some kind of entry has: a key outside them all is not an entry field (ignored).
_ENTRY_FIELDS: Final = frozenset(
    item.name
    for kind in (*ENTRY_KINDS.values(), DeadHand, GemDefenderEntry)
    for item in fields(kind)
)

_DOES_NOT_APPLY: Final = gettext_noop("%(field)s does not apply to %(kind)s.")
# Why a field does not apply, where there is more to say than that it does not.
_NOT_HERE: Final[dict[tuple[type[_Entry], str], str]] = {
    (GemThreeEntry, "taken_from_discard"): gettext_noop(
        "Three-player Gem Rummy takes cards from a staircase discard pile: the card taken"
        " from the discard pile is not entered for it."
    ),
}


def entry_family(*, rules: RuleSet, seats: int) -> EntryFamily:
    """The kind of entry a match of ``rules`` at ``seats`` seats takes (as :func:`hand_prepare`)."""
    if rules.family == "rummy":
        return "rummy"
    if rules.table == "partnership":
        return "partnership"
    if rules.family == "gem" and seats == 3:
        return "gem_three"
    return "two_player"


def _inferred(given: Mapping[str, Any]) -> EntryFamily:
    if any(name in given for name in ("went_out", "rummy", "leftovers")):
        return "rummy"
    if "boards" in given:
        return "partnership"
    if "defenders" in given:
        return "gem_three"
    return "two_player"


def build_entry(kind: type[_E], given: Mapping[str, Any], prefix: str) -> _E:
    """``kind`` from ``given``: a field of another kind of entry is refused, naming it."""
    own = {item.name for item in fields(kind)}  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for name, value in given.items():
        if _absent(value) or name not in _ENTRY_FIELDS:
            continue
        if name not in own:
            reason = _NOT_HERE.get((kind, name), _DOES_NOT_APPLY)
            raise ApplicationError(
                _(reason) % {"field": name, "kind": _(kind.label)}, field=f"{prefix}{name}"
            )
        if name in _NESTED:
            value = tuple(
                build_entry(_NESTED[name], dict(item), f"{prefix}{name}[{index}].")
                for index, item in enumerate(value)
            )
        elif name == "leftovers":
            value = {int(k): v for k, v in dict(value).items()}
        values[name] = value
    return kind(**values)


def entry_from_dict(
    data: Mapping[str, Any], *, family: EntryFamily | None = None, prefix: str = ""
) -> HandEntry:
    """Read an entry (an API body, a form, a CSV row) as the kind of entry ``family`` takes.

    A field of another family is refused with a 400 naming it (``prefix`` + its name); keys that
    are no entry field at all are left out. ``outcome`` ``dead`` alone (with an ``upcard``) is a
    :class:`DeadHand` in every gin family. Without ``family`` the kind follows from the fields
    (Rummy's, ``boards``, ``defenders``, else two players); :func:`hand_prepare` then reads it
    again as the match's family.
    """
    given = {name: value for name, value in data.items() if not _absent(value)}
    if family is None:
        family = _inferred(given)
    if family != "rummy" and given.get("outcome") == "dead" and set(given) <= {"outcome", "upcard"}:
        return DeadHand(upcard=given.get("upcard"))
    return build_entry(ENTRY_KINDS[family], given, prefix)


@dataclass(frozen=True, slots=True)
class Prepared:
    """A hand scored by the engine, ready to store."""

    entry: str
    payload: dict[str, Any]
    result: dict[str, Any]
