"""What every family's hand scoring shares: the outcome, the roles and the verdict.

:class:`HandOutcome` (knock, gin, big gin, undercut, dead), :data:`Role`, and
:class:`HandResult`, the scored two-player hand that every family builds on (a partnership hand
has two, a three-player Gem hand one per defender), with the formula and the explanation a player
reads. :func:`dead_hand` is the verdict when nobody knocked. This module decides nothing: the
rules that score a hand live in :mod:`engine.scoring.two_player` and the modules beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final, Literal, cast

from engine.cards import format_cards
from engine.errors import Message, Param, gettext_noop, joined
from engine.layoff import Layoff
from engine.melds import Meld

__all__ = ["FORMULA_TEMPLATES", "HandOutcome", "HandResult", "Role", "dead_hand"]

Role = Literal["knocker", "defender"]


class HandOutcome(Enum):
    """How a hand ended (docs/rules.md §3.6)."""

    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"
    UNDERCUT = "undercut"
    DEAD = "dead"

    @property
    def label(self) -> str:
        """The outcome as a player says it.

        >>> HandOutcome.BIG_GIN.label
        'big gin'
        """
        return self.value.replace("_", " ")

    @property
    def label_message(self) -> Message:
        """:attr:`label` as a message to translate.

        >>> str(HandOutcome.BIG_GIN.label_message)
        'big gin'
        """
        return Message(_LABELS[self])

    @property
    def capital_message(self) -> Message:
        """:attr:`label` capitalized, as a message to translate.

        >>> str(HandOutcome.BIG_GIN.capital_message)
        'Big gin'
        """
        return Message(_CAPITALS[self])


_LABELS: Final = {
    HandOutcome.KNOCK: gettext_noop("knock"),
    HandOutcome.GIN: gettext_noop("gin"),
    HandOutcome.BIG_GIN: gettext_noop("big gin"),
    HandOutcome.UNDERCUT: gettext_noop("undercut"),
    HandOutcome.DEAD: gettext_noop("dead"),
}
_CAPITALS: Final = {
    HandOutcome.KNOCK: gettext_noop("Knock"),
    HandOutcome.GIN: gettext_noop("Gin"),
    HandOutcome.BIG_GIN: gettext_noop("Big gin"),
    HandOutcome.UNDERCUT: gettext_noop("Undercut"),
    HandOutcome.DEAD: gettext_noop("Dead"),
}
_ROLES: Final[dict[str | None, str]] = {
    "knocker": gettext_noop("knocker"),
    "defender": gettext_noop("defender"),
    None: gettext_noop("nobody"),
}


def role_text(role: Role | None) -> Message:
    """A role (``None``: nobody) as a message to translate."""
    return Message(_ROLES[role])


@dataclass(frozen=True, slots=True)
class HandResult:
    """A scored two-player hand, with everything a score sheet and an explanation need.

    ``points`` go to ``winner`` (``None`` for a dead hand); ``base_points`` are before the
    knocker's minimum and the multiplier, and include ``bonus`` (gin, big gin or undercut bonus).
    Deadwood counts are ``None`` for a dead hand; melds, cards and lay-offs are empty for an entry
    by counts. ``layoffs`` index ``knocker_melds``.
    ``knocker_melds_given`` tells whether the knocker's melds came with the entry or the engine
    chose them (the knocker's best choice, docs/rules.md §3.2).
    """

    outcome: HandOutcome
    winner: Role | None
    points: int
    base_points: int = 0
    bonus: int = 0
    multiplier: int = 1
    knock_limit: int | None = None
    knocker_deadwood: int | None = None
    defender_deadwood: int | None = None
    defender_deadwood_without_layoffs: int | None = None
    knocker_cards: tuple[int, ...] = ()
    defender_cards: tuple[int, ...] = ()
    knocker_melds: tuple[Meld, ...] = ()
    knocker_deadwood_cards: tuple[int, ...] = ()
    knocker_melds_given: bool = False
    defender_melds: tuple[Meld, ...] = ()
    defender_deadwood_cards: tuple[int, ...] = ()
    layoffs: tuple[Layoff, ...] = ()
    upcard: int | None = None
    gem_bonus_knocker: int = 0
    gem_bonus_defender: int = 0
    minimum_applied: bool = False
    by_cards: bool = False
    taken_from_discard: int | None = None

    def score_for(self, role: Role) -> int:
        """Everything ``role`` is credited with this hand: hand points if they won, plus gems.

        >>> r = dead_hand()
        >>> r.score_for("knocker"), r.score_for("defender")
        (0, 0)
        """
        own = self.points if self.winner == role else 0
        return own + (self.gem_bonus_knocker if role == "knocker" else self.gem_bonus_defender)

    @property
    def is_dead(self) -> bool:
        """True for a dead hand."""
        return self.outcome is HandOutcome.DEAD

    def formula(self) -> str:
        """How ``points`` were worked out, e.g. ``'defender 15 − knocker 7 = 8'``.

        >>> dead_hand().formula()
        'dead hand: no score'
        """
        return str(formula_text(self))

    def formula_message(self) -> Message:
        """:meth:`formula` as a :class:`Message`, to store as data and word in any language.

        >>> dead_hand().formula_message().as_dict()
        {'template': 'dead hand: no score', 'params': {}}
        """
        return formula_text(self)

    def explain(self) -> str:
        """A few lines a player can read: melds, lay-offs, deadwood, outcome and points."""
        return "\n".join(str(line) for line in self.explain_messages())

    def explain_messages(self) -> list[Message]:
        """:meth:`explain`'s lines as messages, to store as data and word in any language."""
        if self.is_dead:
            return [Message(gettext_noop("Dead hand: no score; the same dealer deals again."))]
        lines = []
        if self.by_cards:
            chosen = (
                gettext_noop("as entered")
                if self.knocker_melds_given
                else gettext_noop("chosen by the engine")
            )
            lines.append(
                Message(
                    gettext_noop("Knocker ({chosen}): {shown}"),
                    chosen=Message(chosen),
                    shown=shown_text(self.knocker_melds, self.knocker_deadwood_cards),
                )
            )
            lines.append(
                Message(
                    gettext_noop("Defender: {shown}"),
                    shown=shown_text(self.defender_melds, self.defender_deadwood_cards),
                )
            )
            if self.layoffs:
                lines.append(
                    Message(gettext_noop("Lay-offs: {layoffs}"), layoffs=layoff_text(self))
                )
        deadwood = Message(
            gettext_noop("Deadwood: knocker {knocker}, defender {defender}"),
            knocker=self.knocker_deadwood,
            defender=self.defender_deadwood,
        )
        if self.layoffs:
            deadwood = Message(
                gettext_noop("{deadwood} ({before} before lay-offs)"),
                deadwood=deadwood,
                before=self.defender_deadwood_without_layoffs,
            )
        if self.knock_limit is not None:
            deadwood = Message(
                gettext_noop("{deadwood}; knock limit {limit}"),
                deadwood=deadwood,
                limit=self.knock_limit,
            )
        lines.append(deadwood)
        lines.append(
            Message(
                gettext_noop("{outcome}: {winner} scores {formula}"),
                outcome=self.outcome.capital_message,
                winner=role_text(self.winner),
                formula=formula_text(self),
            )
        )
        bonuses: tuple[tuple[Role, int], ...] = (
            ("knocker", self.gem_bonus_knocker),
            ("defender", self.gem_bonus_defender),
        )
        for role, bonus in bonuses:
            if bonus:
                lines.append(
                    Message(
                        gettext_noop("Gem parts bonus: {role} +{bonus}"),
                        role=role_text(role),
                        bonus=bonus,
                    )
                )
        return lines


_Draft = type("_Draft", (), {"__slots__": HandResult.__slots__})
"""A :class:`HandResult` being built: the same slots, in the same order, and nothing else."""


def new_result(
    outcome: HandOutcome,
    winner: Role | None,
    points: int,
    base_points: int,
    bonus: int,
    multiplier: int,
    knock_limit: int | None,
    knocker_deadwood: int | None,
    defender_deadwood: int | None,
    defender_deadwood_without_layoffs: int | None,
    knocker_cards: tuple[int, ...],
    defender_cards: tuple[int, ...],
    knocker_melds: tuple[Meld, ...],
    knocker_deadwood_cards: tuple[int, ...],
    knocker_melds_given: bool,
    defender_melds: tuple[Meld, ...],
    defender_deadwood_cards: tuple[int, ...],
    layoffs: tuple[Layoff, ...],
    upcard: int | None,
    gem_bonus_knocker: int,
    gem_bonus_defender: int,
    minimum_applied: bool,
    by_cards: bool,
    taken_from_discard: int | None,
) -> HandResult:
    """``HandResult(...)`` of every field, in field order, built several times faster.

    A frozen dataclass sets each field through ``object.__setattr__``, which cost a scored hand
    several microseconds for 24 fields. Here the fields are stored in a :data:`_Draft`, which
    has the same slots but no frozen ``__setattr__``, and the draft then becomes a HandResult:
    Python lets an object change class between two classes of the same layout. The result is
    the same object in every respect (the tests compare it field by field).
    """
    result = _Draft()
    result.outcome = outcome
    result.winner = winner
    result.points = points
    result.base_points = base_points
    result.bonus = bonus
    result.multiplier = multiplier
    result.knock_limit = knock_limit
    result.knocker_deadwood = knocker_deadwood
    result.defender_deadwood = defender_deadwood
    result.defender_deadwood_without_layoffs = defender_deadwood_without_layoffs
    result.knocker_cards = knocker_cards
    result.defender_cards = defender_cards
    result.knocker_melds = knocker_melds
    result.knocker_deadwood_cards = knocker_deadwood_cards
    result.knocker_melds_given = knocker_melds_given
    result.defender_melds = defender_melds
    result.defender_deadwood_cards = defender_deadwood_cards
    result.layoffs = layoffs
    result.upcard = upcard
    result.gem_bonus_knocker = gem_bonus_knocker
    result.gem_bonus_defender = gem_bonus_defender
    result.minimum_applied = minimum_applied
    result.by_cards = by_cards
    result.taken_from_discard = taken_from_discard
    result.__class__ = HandResult
    return cast(HandResult, result)


def shown_text(melds: Sequence[Meld], deadwood: Sequence[int]) -> Message:
    parts = " | ".join(str(meld) for meld in melds) or Message(gettext_noop("no melds"))
    return Message(
        gettext_noop("melds {melds}; deadwood {deadwood}"),
        melds=parts,
        deadwood=format_cards(deadwood) or Message(gettext_noop("none")),
    )


def layoff_text(result: HandResult) -> Param:
    by_meld: dict[int, list[int]] = {}
    for layoff in result.layoffs:
        by_meld.setdefault(layoff.meld_index, []).append(layoff.card)
    return joined(
        gettext_noop("{first}; {rest}"),
        [
            Message(
                gettext_noop("{cards} on {meld}"),
                cards=format_cards(cards),
                meld=str(result.knocker_melds[index]),
            )
            for index, cards in by_meld.items()
        ],
    )


def formula_text(r: HandResult) -> Message:
    if r.is_dead:
        return Message(gettext_noop("dead hand: no score"))
    k, d = r.knocker_deadwood, r.defender_deadwood
    if r.outcome is HandOutcome.UNDERCUT:
        text = Message(gettext_noop("undercut bonus {bonus}"), bonus=r.bonus)
        if r.base_points != r.bonus:
            text = Message(
                gettext_noop("knocker {knocker} − defender {defender} + {bonus}"),
                knocker=k,
                defender=d,
                bonus=text,
            )
    elif r.outcome is HandOutcome.KNOCK:
        text = Message(
            gettext_noop("defender {defender} − knocker {knocker}"), defender=d, knocker=k
        )
    else:
        text = Message(
            gettext_noop("{outcome} bonus {bonus} + defender {defender}"),
            outcome=r.outcome.label_message,
            bonus=r.bonus,
            defender=d,
        )
    text = Message(gettext_noop("{sum} = {points}"), sum=text, points=r.base_points)
    if r.minimum_applied:
        text = Message(
            gettext_noop("{points}, raised to the knocker's minimum {minimum}"),
            points=text,
            minimum=r.points // r.multiplier,
        )
    if r.multiplier != 1:
        text = Message(
            gettext_noop("{points}, × {multiplier} for a spade upcard = {total}"),
            points=text,
            multiplier=r.multiplier,
            total=r.points,
        )
    return text


# Every template a formula message (:meth:`HandResult.formula_message`) is built of, the
# outcome words included: a page that words formulas itself (the card picker's preview, in the
# browser) is given these in its reader's language.
FORMULA_TEMPLATES: Final[tuple[str, ...]] = (
    gettext_noop("dead hand: no score"),
    gettext_noop("undercut bonus {bonus}"),
    gettext_noop("knocker {knocker} − defender {defender} + {bonus}"),
    gettext_noop("defender {defender} − knocker {knocker}"),
    gettext_noop("{outcome} bonus {bonus} + defender {defender}"),
    gettext_noop("{sum} = {points}"),
    gettext_noop("{points}, raised to the knocker's minimum {minimum}"),
    gettext_noop("{points}, × {multiplier} for a spade upcard = {total}"),
    *_LABELS.values(),
)


def dead_hand(*, knock_limit: int | None = None, upcard: int | None = None) -> HandResult:
    """A dead hand: the stock ran down and nobody knocked (docs/rules.md §3.5). No score, no
    winner, and the same dealer deals again.

    When it happens, seed by seed (all the same moment, so one parameter, ``dead_hand_stock`` = 2,
    serves them all): seed 000, the player who drew the third card from the bottom did not end
    the hand; seed 001, a player discarded without a knock and two cards are left; seed 003, a
    turn starts with two cards in the draw pile; seed 004, after a discard two or fewer are left
    and nobody knocked. In each, the last knock is made by whoever draws the card that leaves two
    in the stock: in a two-player 10-card hand 31 cards are in the stock after the deal and the
    upcard, so 29 cards can be drawn (:meth:`engine.rules.RuleSet.stock_draws`).

    >>> dead_hand().outcome, dead_hand().points
    (<HandOutcome.DEAD: 'dead'>, 0)
    """
    return HandResult(
        outcome=HandOutcome.DEAD, winner=None, points=0, knock_limit=knock_limit, upcard=upcard
    )
