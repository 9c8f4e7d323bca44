"""A hand as entered (:data:`HandEntry`) and its scoring by the engine (:func:`hand_prepare`).

:data:`HandEntry` is a tagged union, one frozen dataclass per family (:class:`TwoPlayerEntry`,
:class:`DeadHand`, :class:`PartnershipEntry`, :class:`GemThreeEntry` with its
:class:`GemDefenderEntry`, :class:`RummyEntry`), read by :func:`entry_from_dict` from an API body,
a page form or a CSV row: a field that does not apply to the family cannot be given.

Over 400 lines because the entry kinds and each family's scoring of them are read together; the
next split is a package (the kinds, then one module per family's ``_prepare_*``).

No writes: :func:`hand_prepare` checks an entry against the hand the match is at and returns it
scored (:class:`Prepared`, the verdict stored with the submission); engine errors become the one
application error, naming the field they are about.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Final, Literal, TypeVar

from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.i18n import engine_message
from engine.cards import format_card, format_cards, parse_card
from engine.errors import EngineError, Message, gettext_noop
from engine.game import ScoredHand
from engine.gem import DeckMap
from engine.rules import RuleSet
from engine.rummy import RummyHandResult, score_rummy_hand
from engine.scoring import (
    GemThreeHandResult,
    HandOutcome,
    HandResult,
    Role,
    check_claim,
    score_gem_three_counts,
    score_gem_three_hand,
    score_hand,
    score_hand_counts,
    score_partnership_hand,
)
from scoring.selectors import HandContext, MatchState

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

_KINDS: Final[dict[str, type[TwoPlayerEntry | PartnershipEntry | GemThreeEntry | RummyEntry]]] = {
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
    item.name for kind in (*_KINDS.values(), DeadHand, GemDefenderEntry) for item in fields(kind)
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


def _build(kind: type[_E], given: Mapping[str, Any], prefix: str) -> _E:
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
                _build(_NESTED[name], dict(item), f"{prefix}{name}[{index}].")
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
    return _build(_KINDS[family], given, prefix)


@dataclass(frozen=True, slots=True)
class Prepared:
    """A hand scored by the engine, ready to store."""

    entry: str
    payload: dict[str, Any]
    result: dict[str, Any]


# -- engine errors -----------------------------------------------------------------------------

_FIELD_HINTS: tuple[tuple[str, str], ...] = (
    ("discard pile", "taken_from_discard"),
    ("Knock over the limit", "knocker_deadwood"),
    ("knocker's melds", "knocker_melds"),
    ("knocker:", "knocker_cards"),
    ("defender:", "defender_cards"),
    ("upcard", "upcard"),
    ("die", "knock_limit"),
    ("diamond", "diamond_number"),
    ("deck map", "knocker_cards"),
    ("The knocker's deadwood", "knocker_deadwood"),
    ("the knocker's deadwood", "knocker_deadwood"),
    ("Defender lays off", "defender_deadwood"),
    ("The defender's deadwood", "defender_deadwood"),
    ("before lay-offs", "defender_deadwood_before_layoffs"),
    ("lay-offs", "defender_deadwood"),
    ("the defender's deadwood", "defender_deadwood"),
    ("both deadwood", "knocker_deadwood"),
    ("scores", "points"),
    ("wins", "winner"),
    ("gem", "knocker_gem_bonus"),
    ("big gin", "outcome"),
    ("not knock", "outcome"),
    ("not undercut", "outcome"),
    ("not gin", "outcome"),
    ("claimed", "outcome"),
    ("went out", "went_out"),
    ("player", "leftovers"),
    ("counts", "leftovers"),
    ("card", "knocker_cards"),
)


def _field_for(message: str) -> str | None:
    for needle, name in _FIELD_HINTS:
        if needle in message:
            return name
    return None


def _refused(exc: EngineError, prefix: str = "") -> ApplicationError:
    """An engine error as the one application error, naming the field it is about."""
    name = _field_for(str(exc))
    return ApplicationError(
        engine_message(exc), status=400, field=f"{prefix}{name}" if name else prefix or None
    )


# -- hands: scoring with the engine ------------------------------------------------------------


def _outcome(value: str | None, prefix: str) -> HandOutcome | None:
    if value is None:
        return None
    try:
        return HandOutcome(value)
    except ValueError:
        choices = ", ".join(o.value for o in HandOutcome)
        raise ApplicationError(
            _("Unknown outcome %(value)s: one of %(choices)s.")
            % {"value": value, "choices": choices},
            field=f"{prefix}outcome",
        ) from None


def _seat_check(state: MatchState, position: int | None, name: str, allowed: Sequence[int]) -> int:
    if position is None:
        raise ApplicationError(_("This field is required."), field=name)
    if state.seat(position) is None:
        raise ApplicationError(
            _("There is no player at seat %(seat)s.") % {"seat": position}, field=name
        )
    if position not in allowed:
        raise ApplicationError(
            _("The player at seat %(seat)s does not play this hand (playing: %(playing)s).")
            % {"seat": position, "playing": ", ".join(str(p) for p in allowed)},
            field=name,
        )
    return position


def _verdict(result: HandResult, knocker: int | None, defender: int | None) -> dict[str, Any]:
    seat = {"knocker": knocker, "defender": defender}
    return {
        "outcome": result.outcome.value,
        "winner_role": result.winner,
        "winner": seat[result.winner] if result.winner else None,
        "knocker": knocker,
        "defender": defender,
        "points": result.points,
        "base_points": result.base_points,
        "multiplier": result.multiplier,
        "knock_limit": result.knock_limit,
        "knocker_deadwood": result.knocker_deadwood,
        "defender_deadwood": result.defender_deadwood,
        "defender_deadwood_before_layoffs": result.defender_deadwood_without_layoffs,
        "knocker_melds": [str(m) for m in result.knocker_melds],
        "knocker_melds_given": result.knocker_melds_given,
        "knocker_deadwood_cards": format_cards(result.knocker_deadwood_cards),
        "defender_melds": [str(m) for m in result.defender_melds],
        "defender_deadwood_cards": format_cards(result.defender_deadwood_cards),
        "layoffs": [
            {"card": format_card(lo.card), "onto": str(result.knocker_melds[lo.meld_index])}
            for lo in result.layoffs
        ],
        "upcard": format_card(result.upcard) if result.upcard is not None else None,
        "taken_from_discard": (
            format_card(result.taken_from_discard)
            if result.taken_from_discard is not None
            else None
        ),
        "gem_bonus_knocker": result.gem_bonus_knocker,
        "gem_bonus_defender": result.gem_bonus_defender,
        "formula": result.formula(),
        "formula_message": result.formula_message().as_dict(),
        "explanation": result.explain(),
        "explanation_messages": [line.as_dict() for line in result.explain_messages()],
    }


def _scored(hand: ScoredHand) -> dict[str, Any]:
    return {
        "winner": hand.winner,
        "points": hand.points,
        "outcome": hand.outcome.value,
        "others": [list(o) for o in hand.others],
    }


def _board(
    state: MatchState,
    entry: TwoPlayerEntry,
    playing: Sequence[int],
    *,
    prefix: str = "",
    partnership: bool = False,
) -> tuple[str, HandResult, int | None, int | None]:
    """Score one two-player board with the engine: (entry kind, result, knocker, defender)."""
    rules = state.rules
    outcome = _outcome(entry.outcome, prefix)
    by_cards = entry.knocker_cards is not None or entry.defender_cards is not None
    try:
        upcard = parse_card(entry.upcard) if entry.upcard else None
    except EngineError as exc:
        raise ApplicationError(
            engine_message(Message(gettext_noop("upcard: {reason}"), reason=exc.message)),
            field=f"{prefix}upcard",
        ) from None
    if entry.taken_from_discard is not None and not by_cards:
        raise ApplicationError(
            _(
                "The card taken from the discard pile is checked against the knocker's cards:"
                " enter the hand by cards."
            ),
            field=f"{prefix}taken_from_discard",
        )
    if outcome is HandOutcome.DEAD:
        if by_cards:
            raise ApplicationError(
                _("A dead hand is entered without cards."), field=f"{prefix}knocker_cards"
            )
        try:
            dead = score_hand_counts(
                rules,
                outcome=HandOutcome.DEAD,
                knocker_deadwood=entry.knocker_deadwood,
                defender_deadwood=entry.defender_deadwood,
                upcard=upcard,
            )
        except EngineError as exc:
            raise _refused(exc, prefix) from None
        return "dead", dead, None, None
    knocker = _seat_check(state, entry.knocker, f"{prefix}knocker", playing)
    if partnership or entry.defender is not None:
        defender = _seat_check(state, entry.defender, f"{prefix}defender", playing)
    else:
        others = [p for p in playing if p != knocker]
        if len(others) != 1:
            raise ApplicationError(_("Name the defender."), field=f"{prefix}defender")
        defender = others[0]
    if defender == knocker or state.side_of(defender) == state.side_of(knocker):
        raise ApplicationError(
            _("The knocker and the defender must be opponents."), field=f"{prefix}defender"
        )
    claimed_winner: Role | None = None
    if entry.winner is not None:
        if entry.winner not in (knocker, defender):
            raise ApplicationError(
                _("The winner must be the knocker or the defender."), field=f"{prefix}winner"
            )
        claimed_winner = "knocker" if entry.winner == knocker else "defender"
    try:
        if by_cards:
            if entry.knocker_cards is None or entry.defender_cards is None:
                missing = "knocker_cards" if entry.knocker_cards is None else "defender_cards"
                raise ApplicationError(
                    _("Enter both hands by cards, or neither."), field=f"{prefix}{missing}"
                )
            result = score_hand(
                rules,
                knocker_cards=entry.knocker_cards,
                defender_cards=entry.defender_cards,
                knocker_melds=entry.knocker_melds,
                upcard=upcard,
                knock_limit=entry.knock_limit,
                diamond_number=entry.diamond_number,
                deck_map=_deck_map(state) if rules.family == "gem" else None,
                taken_from_discard=entry.taken_from_discard,
            )
            check_claim(
                result,
                claimed_outcome=outcome,
                claimed_knocker_deadwood=entry.knocker_deadwood,
                claimed_defender_deadwood=entry.defender_deadwood,
                claimed_points=entry.points,
                claimed_winner=claimed_winner,
            )
            kind = "cards"
        else:
            if outcome is None:
                raise ApplicationError(
                    _("Give the outcome, or enter the hand by cards."), field=f"{prefix}outcome"
                )
            result = score_hand_counts(
                rules,
                outcome=outcome,
                knocker_deadwood=entry.knocker_deadwood,
                defender_deadwood=entry.defender_deadwood,
                defender_deadwood_without_layoffs=entry.defender_deadwood_before_layoffs,
                winner=claimed_winner,
                upcard=upcard,
                knock_limit=entry.knock_limit,
                knocker_gem_bonus=entry.knocker_gem_bonus,
                defender_gem_bonus=entry.defender_gem_bonus,
            )
            check_claim(result, claimed_points=entry.points)
            kind = "counts"
    except EngineError as exc:
        raise _refused(exc, prefix) from None
    return kind, result, knocker, defender


def _deck_map(state: MatchState) -> DeckMap | None:
    """The club's Gem deck map (which gem each card carries: club data, RULES.md §8), or None
    when the club has not given one, in which case Gem hands are entered by counts."""
    raw = state.match.event.club.gem_deck_map
    return DeckMap.from_mapping(raw) if raw else None


def _prepare_two(state: MatchState, ctx: HandContext, entry: TwoPlayerEntry) -> Prepared:
    kind, result, knocker, defender = _board(state, entry, ctx.playing)
    if knocker is None or defender is None:
        hand = ScoredHand.dead()
    else:
        hand = ScoredHand.from_hand(result, knocker=knocker, defender=defender)
    verdict = _verdict(result, knocker, defender)
    verdict["scored"] = _scored(hand)
    return Prepared(kind, entry.as_payload(), verdict)


def _prepare_partnership(
    state: MatchState, ctx: HandContext, entry: PartnershipEntry | DeadHand
) -> Prepared:
    rules = state.rules
    if isinstance(entry, DeadHand) or (
        entry.outcome == HandOutcome.DEAD.value and not entry.boards
    ):
        verdict: dict[str, Any] = {
            "outcome": "dead",
            "winner": None,
            "points": 0,
            "team_points": [0, 0],
            "boards": [],
            "winner_team": None,
            "scored": _scored(ScoredHand.dead()),
        }
        return Prepared("dead", entry.as_payload(), verdict)
    if len(entry.boards) != 2:
        raise ApplicationError(_("A partnership hand has two boards: enter both."), field="boards")
    results: list[HandResult] = []
    verdicts: list[dict[str, Any]] = []
    teams: list[int] = []
    seats_used: list[int] = []
    kinds: set[str] = set()
    for index, board in enumerate(entry.boards):
        prefix = f"boards[{index}]."
        kind, result, knocker, defender = _board(
            state, board, ctx.playing, prefix=prefix, partnership=board.outcome != "dead"
        )
        kinds.add(kind)
        results.append(result)
        verdicts.append(_verdict(result, knocker, defender))
        if knocker is not None and defender is not None:
            seats_used += [knocker, defender]
            teams.append(state.side_of(knocker))
        else:
            teams.append(0)
    if len(set(seats_used)) != len(seats_used):
        raise ApplicationError(_("Each player plays on one board only."), field="boards[1].knocker")
    try:
        combined = score_partnership_hand(
            rules, results[0], results[1], knocker_team_a=teams[0], knocker_team_b=teams[1]
        )
    except EngineError as exc:
        raise _refused(exc, "boards.") from None
    hand = ScoredHand.from_partnership(combined)
    verdict = {
        "outcome": "dead" if hand.winner is None else combined.outcome.value,
        "winner": combined.winner,
        "winner_team": combined.winner,
        "points": combined.points,
        "team_points": list(combined.team_points),
        "boards": verdicts,
        "scored": _scored(hand),
    }
    kind = "cards" if "cards" in kinds else ("dead" if kinds == {"dead"} else "counts")
    return Prepared(kind, entry.as_payload(), verdict)


# -- three-player Gem: the knocker against each non-knocker separately (RULES.md §8) ---------------

# The fields of an engine message that belong to one defender's pairing.
_DEFENDER_FIELDS = frozenset(
    {
        "defender_cards",
        "defender_deadwood",
        "defender_deadwood_before_layoffs",
        "outcome",
        "points",
        "winner",
    }
)


def _refused_pairing(exc: EngineError, index: int | None) -> ApplicationError:
    """An engine error about a three-player Gem hand, at the defender's field it is about.

    The engine says which pairing an error is about ("against defender N: …"); ``index`` is
    given for an error raised while checking one pairing's claims.
    """
    reason = exc.message
    number = exc.params.get("number")
    inner = exc.params.get("reason")
    if index is None and isinstance(number, int) and isinstance(inner, Message):
        index, reason = number - 1, inner
    name = _field_for(str(reason))
    if index is not None and name in _DEFENDER_FIELDS:
        name = f"defenders[{index}].{name}"
    return ApplicationError(engine_message(exc), status=400, field=name)


def _gem_three_verdict(
    three: GemThreeHandResult, knocker: int, defenders: Sequence[int], hand: ScoredHand
) -> dict[str, Any]:
    seats = (knocker, *defenders)
    first = three.pairings[0]
    return {
        "outcome": three.outcome.value,
        "winner": seats[three.winner],
        "knocker": knocker,
        "defenders": list(defenders),
        "points": three.scores[three.winner],
        "scores": {str(seat): score for seat, score in zip(seats, three.scores, strict=True)},
        "knock_limit": three.knock_limit,
        "knocker_deadwood": three.knocker_deadwood,
        "knocker_melds": [str(m) for m in first.knocker_melds],
        "knocker_melds_given": first.knocker_melds_given,
        "knocker_deadwood_cards": format_cards(first.knocker_deadwood_cards),
        "gem_bonus_knocker": three.gem_bonus_knocker,
        "pairings": [
            _verdict(pairing, knocker, defender)
            for pairing, defender in zip(three.pairings, defenders, strict=True)
        ],
        "explanation": three.explain(),
        "explanation_messages": [line.as_dict() for line in three.explain_messages()],
        "scored": _scored(hand),
    }


def _prepare_gem_three(state: MatchState, ctx: HandContext, entry: GemThreeEntry) -> Prepared:
    """A three-player Gem hand: one knock, scored against each defender separately.

    Entered by counts (the knocker's deadwood, and each defender's deadwood after lay-offs and
    outcome against the knocker) or by cards (all three hands, with the club's deck map). The
    hand's winner, who deals next, is the player credited with the most this hand.
    """
    rules = state.rules
    if entry.outcome == HandOutcome.DEAD.value and not entry.defenders:
        return _prepare_two(state, ctx, _build(TwoPlayerEntry, entry.given(), ""))
    knocker = _seat_check(state, entry.knocker, "knocker", ctx.playing)
    others = [p for p in ctx.playing if p != knocker]
    if len(entry.defenders) != 2:
        raise ApplicationError(
            _("Three players: enter the hand of each of the two defenders."), field="defenders"
        )
    seats: list[int] = []
    for index, given in enumerate(entry.defenders):
        seat = given.defender if given.defender is not None else others[index]
        seats.append(_seat_check(state, seat, f"defenders[{index}].defender", others))
    if seats[0] == seats[1]:
        raise ApplicationError(
            _("The two defenders must be different players."), field="defenders[1].defender"
        )
    by_cards = entry.knocker_cards is not None or any(
        d.defender_cards is not None for d in entry.defenders
    )
    outcomes = [
        _outcome(d.outcome or entry.outcome, f"defenders[{i}].")
        for i, d in enumerate(entry.defenders)
    ]
    try:
        if by_cards:
            if entry.knocker_cards is None:
                raise ApplicationError(
                    _("Enter all three hands by cards, or none."), field="knocker_cards"
                )
            cards: list[str] = []
            for index, given in enumerate(entry.defenders):
                if given.defender_cards is None:
                    raise ApplicationError(
                        _("Enter all three hands by cards, or none."),
                        field=f"defenders[{index}].defender_cards",
                    )
                cards.append(given.defender_cards)
            three = score_gem_three_hand(
                rules,
                knocker_cards=entry.knocker_cards,
                defender_cards=cards,
                knocker_melds=entry.knocker_melds,
                knock_limit=entry.knock_limit,
                diamond_number=entry.diamond_number,
                deck_map=_deck_map(state),
            )
            kind = "cards"
        else:
            missing = [i for i, o in enumerate(outcomes) if o is None]
            if missing:
                raise ApplicationError(
                    _("Give the outcome against each defender, or enter the hand by cards."),
                    field=f"defenders[{missing[0]}].outcome",
                )
            three = score_gem_three_counts(
                rules,
                outcomes=[o for o in outcomes if o is not None],
                knocker_deadwood=entry.knocker_deadwood,
                defender_deadwoods=[d.defender_deadwood for d in entry.defenders],
                defender_deadwoods_without_layoffs=[
                    d.defender_deadwood_before_layoffs for d in entry.defenders
                ],
                knock_limit=entry.knock_limit,
                knocker_gem_bonus=entry.knocker_gem_bonus,
                defender_gem_bonuses=[d.defender_gem_bonus for d in entry.defenders],
            )
            kind = "counts"
    except EngineError as exc:
        raise _refused_pairing(exc, None) from None
    for index, (pairing, given) in enumerate(zip(three.pairings, entry.defenders, strict=True)):
        try:
            check_claim(
                pairing,
                claimed_outcome=outcomes[index] if by_cards else None,
                claimed_knocker_deadwood=entry.knocker_deadwood if by_cards else None,
                claimed_defender_deadwood=given.defender_deadwood if by_cards else None,
                claimed_points=given.points,
            )
        except EngineError as exc:
            raise _refused_pairing(exc, index) from None
    hand = ScoredHand.from_gem_three(three, knocker=knocker, defenders=(seats[0], seats[1]))
    verdict = _gem_three_verdict(three, knocker, seats, hand)
    return Prepared(kind, entry.as_payload(), verdict)


def _prepare_rummy(state: MatchState, ctx: HandContext, entry: RummyEntry) -> Prepared:
    went_out = _seat_check(state, entry.went_out, "went_out", ctx.playing)
    leftovers = entry.leftovers or {}
    try:
        result: RummyHandResult = score_rummy_hand(
            state.rules,
            players=len(state.seats),
            went_out=went_out,
            rummy=entry.rummy,
            leftovers=leftovers,
        )
    except EngineError as exc:
        raise ApplicationError(
            engine_message(exc), field="leftovers" if "went out" not in str(exc) else "went_out"
        ) from None
    if entry.points is not None and entry.points != result.points:
        raise ApplicationError(
            _("The hand scores %(points)s, not %(claimed)s.")
            % {"points": result.points, "claimed": entry.points},
            field="points",
        )
    hand = result.to_scored_hand()
    verdict = {
        "outcome": "rummy" if result.rummy else "out",
        "winner": went_out,
        "went_out": went_out,
        "rummy": result.rummy,
        "multiplier": result.multiplier,
        "counts": list(result.counts),
        "cards_left": [format_cards(c) if c is not None else None for c in result.cards_left],
        "points": result.points,
        "scored": _scored(hand),
    }
    return Prepared("rummy", entry.as_payload(), verdict)


def hand_prepare(*, state: MatchState, context: HandContext, entry: HandEntry) -> Prepared:
    """Score ``entry`` with the engine for the hand described by ``context`` (no writes).

    ``entry`` is read again as the kind of entry the match's family takes: an entry of another
    kind whose fields all fit is taken, and a field that does not apply is refused, named.
    """
    family = entry_family(rules=state.rules, seats=len(state.seats))
    if isinstance(entry, DeadHand) and family != "rummy":
        if family == "partnership":
            return _prepare_partnership(state, context, entry)
        return _prepare_two(state, context, TwoPlayerEntry(outcome="dead", upcard=entry.upcard))
    kind = _KINDS[family]
    read = entry if isinstance(entry, kind) else _build(kind, entry.given(), "")
    if isinstance(read, RummyEntry):
        return _prepare_rummy(state, context, read)
    if isinstance(read, PartnershipEntry):
        return _prepare_partnership(state, context, read)
    if isinstance(read, GemThreeEntry):
        return _prepare_gem_three(state, context, read)
    assert isinstance(read, TwoPlayerEntry)
    return _prepare_two(state, context, read)
