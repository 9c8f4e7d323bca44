"""Scoring one two-player hand of the gin family (docs/rules.md §3, Oklahoma §6, Gem §8, §9 checks).

A hand is entered either **by cards** (:func:`score_hand`: the engine arranges both hands, picks or
validates the knocker's melds, lays off, and scores) or **by counts** (:func:`score_hand_counts`:
the entry is checked for what counts alone can show). :func:`check_claim` compares what a player
claims with the engine's result and explains the difference. Partnership hands combine two boards
(:func:`score_partnership_hand`). This module must not add hands into games (:mod:`engine.game`)
and must not do I/O.

Decisions where the rule texts are silent:

- ``knocker_min_points`` applies to every hand the knocker wins (knock, gin, big gin); in Gem
  Rummy gin is at least 25 anyway, so only knocks feel it.
- Points are multiplied (Oklahoma's spade upcard) after the knocker's minimum is applied.
- ``points`` is what the hand's winner scores for the hand; Gem's gem parts bonus is kept apart
  (``gem_bonus_knocker`` / ``gem_bonus_defender``, either player may earn it) and
  :meth:`HandResult.score_for` adds it.
- The knocker enters the cards left after the discard; for big gin, the cards held after the draw
  (one more). A knock with no deadwood is gin, and is scored as gin.
- A knock limit entered with a hand must agree with the rule set (a die roll 1-6 for Gem's
  ``dice``; Oklahoma takes the upcard instead). An ace upcard in Oklahoma allows gin only when
  ``ace_upcard_gin_only``, else the limit is 1.
- By cards, Gem Rummy needs the club's deck map and the diamond number; without a deck map Gem
  hands are entered by counts. Each non-knocker of a three-player Gem hand is scored as a separate
  two-player hand against the knocker.
- Partnership (seed 000: add your points to your partner's and compare with the other team's
  sum): a board's points go to its winner's team; the team with the higher sum scores the
  difference and wins the hand (for the box bonus); equal sums score nothing, no team wins the
  hand, and it is kept like a dead hand (the same dealer deals again). See
  :func:`score_partnership_hand`.
- Three-player Gem (:func:`score_gem_three_hand`, :func:`score_gem_three_counts`,
  :func:`combine_gem_three`): the knocker lays down one set of melds; the defenders lay off in
  turn, one card at a time, clockwise, onto those melds as they grow, cards the other defender
  laid off included (seed 003; :func:`engine.gem.lay_off_in_turn`). Each defender is then scored
  against the knocker separately: each pairing is a two-player hand with its own outcome, minimum
  and undercut, so the knocker may win against one defender and be undercut by the other.
  Without melds given, the knocker shows the least-deadwood arrangement that leaves the two
  defenders together the most deadwood after lay-offs (§3.2 for two defenders; ties to the
  first). The gem parts bonus is once per player per hand (16 to the knocker, 8 to each
  defender). The hand's winner (who deals next, and the game's record of hands won) is the
  player credited with the most this hand; a tie goes to the knocker, then to the first defender.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache
from typing import Final, Literal

from engine.arrange import best_arrangement
from engine.cards import (
    card_value,
    cards_to_mask,
    check_card,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from engine.errors import (
    CardError,
    EngineError,
    KnockError,
    MeldError,
    Message,
    Param,
    RuleError,
    ScoreError,
    gettext_noop,
    joined,
)
from engine.gem import (
    DeckMap,
    check_gem_meld,
    gem_knocker_choice,
    gem_melds,
    has_all_gems,
    lay_off_in_turn,
)
from engine.layoff import Layoff, LayoffResult, knocker_choice, lay_off, validate_knocker_melds
from engine.melds import Meld
from engine.rules import RuleSet

__all__ = [
    "GemThreeHandResult",
    "HandOutcome",
    "HandResult",
    "PartnershipHandResult",
    "Role",
    "check_claim",
    "check_knock_discard",
    "combine_gem_three",
    "dead_hand",
    "hand_knock_limit",
    "max_deadwood",
    "score_gem_three_counts",
    "score_gem_three_hand",
    "score_hand",
    "score_hand_counts",
    "score_partnership_hand",
]

Role = Literal["knocker", "defender"]
CardsIn = str | Iterable[str] | Iterable[int]
MeldsIn = str | Sequence[Meld | str | Sequence[str] | Sequence[int]]

_SPADES: Final = 0
_ACE: Final = 0
_DIE_FACES: Final = range(1, 7)


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


def _role(role: Role | None) -> Message:
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
        return str(_formula(self))

    def explain(self) -> str:
        """A few lines a player can read: melds, lay-offs, deadwood, outcome and points."""
        if self.is_dead:
            return "Dead hand: no score; the same dealer deals again."
        lines = []
        if self.by_cards:
            chosen = "as entered" if self.knocker_melds_given else "chosen by the engine"
            lines.append(
                f"Knocker ({chosen}): {_shown(self.knocker_melds, self.knocker_deadwood_cards)}"
            )
            lines.append(f"Defender: {_shown(self.defender_melds, self.defender_deadwood_cards)}")
            if self.layoffs:
                lines.append(f"Lay-offs: {_layoff_text(self)}")
        lines.append(
            f"Deadwood: knocker {self.knocker_deadwood}, defender {self.defender_deadwood}"
            + (
                f" ({self.defender_deadwood_without_layoffs} before lay-offs)"
                if self.layoffs
                else ""
            )
            + (f"; knock limit {self.knock_limit}" if self.knock_limit is not None else "")
        )
        lines.append(f"{self.outcome.label.capitalize()}: {self.winner} scores {self.formula()}")
        for role, bonus in (
            ("knocker", self.gem_bonus_knocker),
            ("defender", self.gem_bonus_defender),
        ):
            if bonus:
                lines.append(f"Gem parts bonus: {role} +{bonus}")
        return "\n".join(lines)


def _shown(melds: Sequence[Meld], deadwood: Sequence[int]) -> Message:
    parts = " | ".join(str(meld) for meld in melds) or Message(gettext_noop("no melds"))
    return Message(
        gettext_noop("melds {melds}; deadwood {deadwood}"),
        melds=parts,
        deadwood=format_cards(deadwood) or Message(gettext_noop("none")),
    )


def _layoff_text(result: HandResult) -> Param:
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


def _formula(r: HandResult) -> Message:
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


# -- knock limit and counts ------------------------------------------------------------------


def hand_knock_limit(
    rules: RuleSet, *, upcard: int | None = None, knock_limit: int | None = None
) -> int:
    """The knock limit of one hand: fixed, the upcard's value (Oklahoma), or the die (Gem).

    >>> from engine.rules import find_rules
    >>> from engine.cards import parse_card
    >>> hand_knock_limit(find_rules("oklahoma"), upcard=parse_card("7H"))
    7
    >>> hand_knock_limit(find_rules("oklahoma"), upcard=parse_card("AS"))  # ace: gin only
    0
    """
    mode = rules.knock_limit
    if mode is None:
        raise RuleError(
            gettext_noop("Basic Rummy has no knock: score it with engine.rummy.score_rummy_hand")
        )
    if mode == "upcard":
        if knock_limit is not None:
            raise RuleError(
                gettext_noop(
                    "Oklahoma's knock limit comes from the upcard: enter the upcard, not a limit"
                )
            )
        if upcard is None:
            raise ScoreError(gettext_noop("Oklahoma needs the upcard: it sets the knock limit"))
        format_card(upcard)
        if upcard % 13 == _ACE and rules.ace_upcard_gin_only:
            return 0
        return card_value(upcard)
    if mode == "dice":
        if knock_limit is None:
            raise ScoreError(
                gettext_noop("Gem Rummy needs the knock-limit die (1-6) entered with the hand")
            )
        if isinstance(knock_limit, bool) or knock_limit not in _DIE_FACES:
            raise ScoreError(
                gettext_noop("the knock-limit die shows 1-6, not {limit}"), limit=repr(knock_limit)
            )
        return knock_limit
    assert isinstance(mode, int)
    if knock_limit is not None and knock_limit != mode:
        raise RuleError(
            gettext_noop("this rule set fixes the knock limit at {mode}, not {limit}"),
            mode=mode,
            limit=knock_limit,
        )
    return mode


def _multiplier(rules: RuleSet, upcard: int | None) -> int:
    return 2 if rules.spade_doubles and upcard is not None and upcard // 13 == _SPADES else 1


@cache
def max_deadwood(cards: int) -> int:
    """The most deadwood ``cards`` cards can hold with no set or run among them (-1 if none can).

    Counts alone can never show more (docs/rules.md §9). Worked out by a small dynamic programme
    over ranks: at each rank take at most two cards (three would be a set), never a third
    consecutive card of a suit.

    >>> max_deadwood(10), max_deadwood(11), max_deadwood(27)
    (98, 106, -1)
    """
    states: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
    for rank in range(13):
        value = min(rank + 1, 10)
        nxt: dict[tuple[int, int, int], int] = {}
        for (last, before, held), total in states.items():
            for take in _TAKES:
                count = held + take.bit_count()
                if count > cards or take & last & before:
                    continue
                key = (take, last, count)
                score = total + value * take.bit_count()
                if nxt.get(key, -1) < score:
                    nxt[key] = score
        states = nxt
    return max((total for (_, _, held), total in states.items() if held == cards), default=-1)


_TAKES: Final = tuple(s for s in range(16) if s.bit_count() <= 2)


def _check_count(name: str, value: object, most: int) -> int:
    """``value`` if it is a possible deadwood count; ``name`` is a template to translate."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoreError(
            gettext_noop("{name} must be a whole number, not {value}"),
            name=Message(name),
            value=repr(value),
        )
    if value < 0:
        raise ScoreError(
            gettext_noop("{name} cannot be negative: {value}"), name=Message(name), value=value
        )
    if value > most:
        raise ScoreError(
            gettext_noop(
                "{name} {value} is impossible: no hand of these cards holds more than {most}"
            ),
            name=Message(name),
            value=value,
            most=most,
        )
    return value


# -- the points of a hand --------------------------------------------------------------------


def _decide(rules: RuleSet, knocker: int, defender: int, big_gin: bool) -> HandOutcome:
    if knocker == 0:
        return HandOutcome.BIG_GIN if big_gin else HandOutcome.GIN
    if defender < knocker or (defender == knocker and rules.undercut_on_tie):
        return HandOutcome.UNDERCUT
    return HandOutcome.KNOCK


def _points(rules: RuleSet, outcome: HandOutcome, k: int, d: int) -> tuple[Role, int, int, int]:
    """(winner, bonus, base points, points before the multiplier).

    The knocker's minimum (``knocker_min_points``, Gem's 11, seed 003) raises the hand's points
    *before* the gem parts bonus, which is kept apart and added on top (docs/rules.md §8): a
    knocker with K = 3 against D = 7 who also holds all eight gems scores max(7 − 3, 11) + 16 =
    27, not max(7 − 3 + 16, 11) = 20. The seed names the bonus among the bonus points, separate
    from the hand's score, and says the knocker "still gets 11" when the hand earns less.

    >>> from engine.rules import find_rules
    >>> _points(find_rules("gem"), HandOutcome.KNOCK, 3, 7)
    ('knocker', 0, 4, 11)
    """
    if outcome is HandOutcome.UNDERCUT:
        bonus = rules.undercut_bonus
        base = bonus + ((k - d) if rules.undercut_scores_difference else 0)
        return "defender", bonus, base, base
    if outcome is HandOutcome.GIN:
        bonus, base = rules.gin_bonus, rules.gin_bonus + d
    elif outcome is HandOutcome.BIG_GIN:
        assert rules.big_gin_bonus is not None
        bonus, base = rules.big_gin_bonus, rules.big_gin_bonus + d
    else:
        bonus, base = 0, d - k
    return "knocker", bonus, base, max(base, rules.knocker_min_points)


def _result(
    rules: RuleSet,
    outcome: HandOutcome,
    k: int,
    d: int,
    *,
    limit: int,
    upcard: int | None,
    **details: object,
) -> HandResult:
    winner, bonus, base, raised = _points(rules, outcome, k, d)
    multiplier = _multiplier(rules, upcard)
    return HandResult(
        outcome=outcome,
        winner=winner,
        points=raised * multiplier,
        base_points=base,
        bonus=bonus,
        multiplier=multiplier,
        knock_limit=limit,
        knocker_deadwood=k,
        defender_deadwood=d,
        upcard=upcard,
        minimum_applied=raised != base,
        **details,  # type: ignore[arg-type]
    )


def _limit_text(rules: RuleSet, limit: int, upcard: int | None) -> Message:
    if rules.knock_limit == "upcard" and upcard is not None:
        if limit == 0:
            return Message(
                gettext_noop("the upcard {card} is an ace, so only gin ends this hand"),
                card=format_card(upcard),
            )
        return Message(
            gettext_noop("limit {limit} set by the upcard {card}"),
            limit=limit,
            card=format_card(upcard),
        )
    if rules.knock_limit == "dice":
        return Message(gettext_noop("limit {limit} rolled for this hand"), limit=limit)
    return Message(gettext_noop("limit {limit}"), limit=limit)


# -- by counts ---------------------------------------------------------------------------------


def score_hand_counts(
    rules: RuleSet,
    *,
    outcome: HandOutcome,
    knocker_deadwood: int | None = None,
    defender_deadwood: int | None = None,
    defender_deadwood_without_layoffs: int | None = None,
    winner: Role | None = None,
    upcard: int | None = None,
    knock_limit: int | None = None,
    knocker_gem_bonus: bool = False,
    defender_gem_bonus: bool = False,
) -> HandResult:
    """Score a hand entered by deadwood counts, checking what counts alone can prove (docs/rules.md
    §9).

    ``outcome`` is the claimed outcome (gin and big gin can only be claimed; knock and undercut
    follow from the counts, and a claim that contradicts them is refused). ``winner`` is checked
    when given. ``defender_deadwood`` is after lay-offs.

    >>> from engine.rules import find_rules
    >>> r = score_hand_counts(find_rules("standard"), outcome=HandOutcome.KNOCK,
    ...                       knocker_deadwood=7, defender_deadwood=22)
    >>> r.winner, r.points
    ('knocker', 15)
    >>> score_hand_counts(find_rules("standard"), outcome=HandOutcome.KNOCK,
    ...                   knocker_deadwood=12, defender_deadwood=30)
    Traceback (most recent call last):
    ...
    engine.errors.KnockError: Knock over the limit: deadwood 12 > 10 (limit 10)
    """
    if rules.family == "rummy":
        raise RuleError(
            gettext_noop("Basic Rummy hands are scored with engine.rummy.score_rummy_hand")
        )
    if not isinstance(outcome, HandOutcome):
        raise ScoreError(
            gettext_noop("outcome must be a HandOutcome, not {outcome}"), outcome=repr(outcome)
        )
    if outcome is HandOutcome.DEAD:
        if knocker_deadwood is not None or defender_deadwood is not None or winner is not None:
            raise ScoreError(
                gettext_noop("a dead hand has no knocker, no deadwood counts and no winner")
            )
        return dead_hand(upcard=upcard)
    if (knocker_gem_bonus or defender_gem_bonus) and rules.family != "gem":
        raise ScoreError(gettext_noop("the gem parts bonus is Gem Rummy's rule"))
    if knocker_deadwood is None or defender_deadwood is None:
        raise ScoreError(
            gettext_noop("enter both deadwood counts: the knocker's and the defender's")
        )
    limit = hand_knock_limit(rules, upcard=upcard, knock_limit=knock_limit)
    most = max_deadwood(rules.hand_size)
    k = _check_count(gettext_noop("the knocker's deadwood"), knocker_deadwood, most)
    d = _check_count(gettext_noop("the defender's deadwood"), defender_deadwood, most)
    before = d
    if defender_deadwood_without_layoffs is not None:
        before = _check_count(
            gettext_noop("the defender's deadwood before lay-offs"),
            defender_deadwood_without_layoffs,
            most,
        )
        if before < d:
            raise ScoreError(
                gettext_noop(
                    "lay-offs only lower deadwood: {after} after lay-offs is more than {before}"
                    " before"
                ),
                after=d,
                before=before,
            )
    big = outcome is HandOutcome.BIG_GIN
    if big and not rules.big_gin:
        raise ScoreError(
            gettext_noop("big gin is not played with the {rules} rules"), rules=rules.name
        )
    if outcome in (HandOutcome.GIN, HandOutcome.BIG_GIN):
        if k:
            raise ScoreError(
                gettext_noop(
                    "{outcome} claimed with deadwood {deadwood} left: gin means no deadwood"
                ),
                outcome=outcome.label_message,
                deadwood=k,
            )
        if before != d:
            raise ScoreError(
                gettext_noop(
                    "no lay-offs against {outcome}: the defender keeps {before}, not {after}"
                ),
                outcome=outcome.label_message,
                before=before,
                after=d,
            )
    if k > limit:
        raise KnockError(
            gettext_noop("Knock over the limit: deadwood {deadwood} > {limit} ({limit_text})"),
            deadwood=k,
            limit=limit,
            limit_text=_limit_text(rules, limit, upcard),
        )
    decided = _decide(rules, k, d, big)
    if decided is not outcome:
        raise ScoreError(_outcome_reason(rules, decided, outcome, k, d))
    result = _result(
        rules,
        decided,
        k,
        d,
        limit=limit,
        upcard=upcard,
        defender_deadwood_without_layoffs=before,
        gem_bonus_knocker=rules.gem_bonus_knocker if knocker_gem_bonus else 0,
        gem_bonus_defender=rules.gem_bonus_other if defender_gem_bonus else 0,
    )
    if winner is not None and winner != result.winner:
        raise ScoreError(
            gettext_noop("the {winner} wins this hand, not the {claimed}: {outcome}, {formula}"),
            winner=_role(result.winner),
            claimed=_role(winner),
            outcome=result.outcome.label_message,
            formula=_formula(result),
        )
    return result


def _outcome_reason(
    rules: RuleSet, decided: HandOutcome, claimed: HandOutcome, k: int, d: int
) -> Message:
    if decided in (HandOutcome.GIN, HandOutcome.BIG_GIN):
        template = gettext_noop(
            "{decided}, not {claimed}: the knocker has no deadwood, which is gin"
        )
    elif decided is HandOutcome.UNDERCUT:
        if d == k:
            template = gettext_noop(
                "{decided}, not {claimed}: the defender's deadwood equals the knocker's {knocker}"
                " and a tie is an undercut"
            )
        else:
            template = gettext_noop(
                "{decided}, not {claimed}: the defender's deadwood {defender}"
                " is less than the knocker's {knocker}"
            )
    elif d == k:
        template = gettext_noop(
            "{decided}, not {claimed}: the deadwood is tied at {knocker}"
            " and with these rules a tie is the knocker's"
        )
    else:
        template = gettext_noop(
            "{decided}, not {claimed}: the defender's deadwood {defender}"
            " is more than the knocker's {knocker}"
        )
    return Message(
        template,
        decided=decided.capital_message,
        claimed=claimed.label_message,
        knocker=k,
        defender=d,
    )


# -- by cards --------------------------------------------------------------------------------


def _distinct_ids(cards: Sequence[object]) -> bool:
    """True when ``cards`` are distinct card ids (ints 0-51)."""
    try:
        return cards_to_mask(cards).bit_count() == len(cards)  # type: ignore[arg-type]
    except CardError:
        return False


def _read_hand(
    label: Role, cards: CardsIn, counts: Sequence[int], note: Param = ""
) -> tuple[int, ...]:
    try:
        if isinstance(cards, str):
            hand = parse_cards(cards)
        elif isinstance(cards, (list, tuple)) and _distinct_ids(cards):
            hand = tuple(map(int, cards))  # the fast path: what the loop below would return
        else:
            items = list(cards)
            if all(isinstance(c, str) for c in items):
                hand = parse_cards([str(c) for c in items])
            else:
                hand = parse_cards([format_card(c) for c in items if isinstance(c, int)])
                if len(hand) != len(items):
                    raise CardError(
                        gettext_noop("cards must all be notation strings or all card ids")
                    )
    except CardError as exc:
        raise CardError(
            gettext_noop("{label}: {reason}"), label=_role(label), reason=exc.message
        ) from None
    if len(hand) not in counts:
        raise CardError(
            gettext_noop("{label}: expected {wanted} cards{note}, got {got}"),
            label=_role(label),
            wanted=joined(gettext_noop("{first} or {rest}"), counts),
            note=note,
            got=len(hand),
        )
    return hand


def _read_upcard(upcard: int | str | None) -> int | None:
    if upcard is None:
        return None
    try:
        return parse_card(upcard) if isinstance(upcard, str) else check_card(upcard)
    except CardError as exc:
        raise CardError(gettext_noop("upcard: {reason}"), reason=exc.message) from None


def _read_melds(
    melds: MeldsIn, candidates: Sequence[Meld], deck_map: DeckMap | None, diamond: int | None
) -> tuple[Meld, ...]:
    groups: list[Meld | str | Sequence[str] | Sequence[int]]
    groups = [g for g in melds.split("|") if g.strip()] if isinstance(melds, str) else list(melds)
    out: list[Meld] = []
    by_cards = {meld.cards: meld for meld in candidates}
    for group in groups:
        if isinstance(group, Meld):
            meld = group
        else:
            tokens = (
                group
                if isinstance(group, str)
                else [t if isinstance(t, str) else format_card(t) for t in group]
            )
            cards = tuple(sorted(parse_cards(tokens)))
            meld = by_cards[cards] if cards in by_cards else Meld.from_cards(cards)
        check_gem_meld(meld, deck_map, diamond)
        out.append(meld)
    return tuple(out)


def score_hand(
    rules: RuleSet,
    *,
    knocker_cards: CardsIn,
    defender_cards: CardsIn,
    knocker_melds: MeldsIn | None = None,
    upcard: int | str | None = None,
    knock_limit: int | None = None,
    diamond_number: int | None = None,
    deck_map: DeckMap | None = None,
    taken_from_discard: int | str | None = None,
) -> HandResult:
    """Score a hand entered by cards: arrange, check the knock, lay off, decide and score.

    ``knocker_cards`` are the knocker's cards after the discard (``hand_size``), or after the draw
    for big gin (one more). ``knocker_melds`` (``"AS 2S 3S | 7H 7D 7C"`` or a list of melds) are
    validated and used; without them the engine takes the knocker's best choice (docs/rules.md
    §3.2). ``taken_from_discard`` (optional) is the card the knocker took from the discard pile on
    the knocking turn; see :func:`check_knock_discard`.

    >>> from engine.rules import find_rules
    >>> r = score_hand(find_rules("standard"),
    ...                knocker_cards="AS 2S 3S 5H 6H 7H 9S 9D 9C KC",
    ...                defender_cards="8H 9H KS KH KD 2C 3C QS JD 5C")
    >>> r.outcome.value, r.knocker_deadwood, r.defender_deadwood, r.points  # 30 - 10
    ('knock', 10, 30, 20)
    >>> print(r.explain())
    Knocker (chosen by the engine): melds AS 2S 3S | 5H 6H 7H | 9S 9D 9C; deadwood KC
    Defender: melds KS KH KD; deadwood QS JD 2C 3C 5C
    Lay-offs: 8H on 5H 6H 7H; 9H on 9S 9D 9C
    Deadwood: knocker 10, defender 30 (47 before lay-offs); knock limit 10
    Knock: knocker scores defender 30 − knocker 10 = 20
    """
    if rules.family == "rummy":
        raise RuleError(
            gettext_noop("Basic Rummy hands are scored with engine.rummy.score_rummy_hand")
        )
    gem = rules.family == "gem"
    if gem and deck_map is None:
        raise ScoreError(
            gettext_noop(
                "Gem Rummy hands are scored by cards only with the club's deck map;"
                " without one, enter the hand by counts"
            )
        )
    if gem and diamond_number is None:
        raise ScoreError(
            gettext_noop("Gem Rummy needs the diamond number (1-6) entered with the hand")
        )
    if not gem and (deck_map is not None or diamond_number is not None):
        raise RuleError(
            gettext_noop("a deck map and a diamond number belong to Gem Rummy hands only")
        )
    up = _read_upcard(upcard)
    limit = hand_knock_limit(rules, upcard=up, knock_limit=knock_limit)
    size = rules.hand_size
    sizes = (size, size + 1) if rules.big_gin else (size,)
    note: Param = ""
    if rules.big_gin:
        note = Message(gettext_noop(" ({count} only for big gin)"), count=size + 1)
    knocker = _read_hand("knocker", knocker_cards, sizes, note)
    defender = _read_hand("defender", defender_cards, (size,))
    both = sorted(set(knocker) & set(defender))
    if both:
        raise CardError(
            gettext_noop("card {card} is in both the knocker's and the defender's hand"),
            card=format_card(both[0]),
        )
    taken = check_knock_discard(knocker, defender, taken_from_discard)
    knocker_extra: tuple[Meld, ...] = ()
    defender_extra: tuple[Meld, ...] = ()
    if deck_map is not None:
        knocker_extra = gem_melds(knocker, deck_map, diamond_number)
        defender_extra = gem_melds(defender, deck_map, diamond_number)
    given = knocker_melds is not None
    layoffs: LayoffResult | None = None
    if knocker_melds is not None:
        try:
            melds = _read_melds(knocker_melds, knocker_extra, deck_map, diamond_number)
            arrangement = validate_knocker_melds(knocker, melds)
        except (CardError, MeldError) as exc:
            raise MeldError(gettext_noop("knocker's melds: {reason}"), reason=exc.message) from None
    elif deck_map is not None:
        arrangement, (layoffs,) = gem_knocker_choice(knocker, [defender], deck_map, diamond_number)
    else:
        arrangement, layoffs = knocker_choice(
            knocker, defender, extra_melds=knocker_extra, defender_extra=defender_extra
        )
    k = arrangement.deadwood
    big = len(knocker) == size + 1
    better: Param = ""
    if k > limit or (big and k):  # only the errors below show the arrangements
        shown = _shown(arrangement.melds, arrangement.deadwood_cards)
    if given and (k > limit or (big and k)):
        best = best_arrangement(knocker, extra_melds=knocker_extra)
        if k != best.deadwood:
            better = Message(
                gettext_noop("; the best arrangement leaves {deadwood}: {shown}"),
                deadwood=best.deadwood,
                shown=_shown(best.melds, best.deadwood_cards),
            )
    if big and k:
        raise KnockError(
            gettext_noop(
                "{count} cards are entered only for big gin, but they are not all melded:"
                " deadwood {deadwood} ({shown}{better}); enter the {size} cards left after the"
                " discard"
            ),
            count=len(knocker),
            deadwood=k,
            shown=shown,
            better=better,
            size=size,
        )
    if k > limit:
        raise KnockError(
            gettext_noop(
                "Knock over the limit: deadwood {deadwood} > {limit}"
                " ({shown}{better}; {limit_text})"
            ),
            deadwood=k,
            limit=limit,
            shown=shown,
            better=better,
            limit_text=_limit_text(rules, limit, up),
        )
    allow = k > 0
    if layoffs is None and deck_map is not None:
        (layoffs,) = lay_off_in_turn(
            arrangement.melds, [defender], deck_map, diamond_number, allow_layoffs=allow
        )
    elif layoffs is None:
        layoffs = lay_off(
            arrangement.melds, defender, allow_layoffs=allow, defender_extra=defender_extra
        )
    d = layoffs.deadwood
    outcome = _decide(rules, k, d, big)
    gem_k = gem_d = 0
    if deck_map is not None:
        gem_k = rules.gem_bonus_knocker if has_all_gems(knocker, deck_map) else 0
        gem_d = rules.gem_bonus_other if has_all_gems(defender, deck_map) else 0
    return _result(
        rules,
        outcome,
        k,
        d,
        limit=limit,
        upcard=up,
        defender_deadwood_without_layoffs=layoffs.deadwood_without_layoffs,
        knocker_cards=knocker,
        defender_cards=defender,
        knocker_melds=arrangement.melds,
        knocker_deadwood_cards=arrangement.deadwood_cards,
        knocker_melds_given=given,
        defender_melds=layoffs.defender_melds,
        defender_deadwood_cards=layoffs.deadwood_cards,
        layoffs=layoffs.layoffs,
        gem_bonus_knocker=gem_k,
        gem_bonus_defender=gem_d,
        by_cards=True,
        taken_from_discard=taken,
    )


def check_knock_discard(
    knocker: Sequence[int], defender: Sequence[int], taken: int | str | None
) -> int | None:
    """The card the knocker took from the discard pile, checked against the knock (or ``None``).

    A card taken from the discard pile may not be discarded on the same turn (seed 000, and seed
    004 for the knock discard itself), so it cannot be the knocker's discard. In gin rummy nothing
    is put on the table during play, so the card taken is either still among the knocker's cards
    entered after the discard, or it was the discard: a taken card missing from the knocker's
    cards means the knock discarded it, and the knock is refused. For big gin (no discard) the card
    has to be among the cards entered. It can never be in the defender's hand.

    >>> check_knock_discard(parse_cards("AS 2S 3S"), parse_cards("KD"), "2S")
    1
    >>> check_knock_discard(parse_cards("AS 2S 3S"), parse_cards("KD"), "7H")
    Traceback (most recent call last):
    ...
    engine.errors.KnockError: Knock refused: the knocker took 7H from the discard pile this turn and may not discard it on the same turn
    """  # noqa: E501
    if taken is None:
        return None
    try:
        card = parse_card(taken) if isinstance(taken, str) else check_card(taken)
    except CardError as exc:
        raise CardError(
            gettext_noop("the card taken from the discard pile: {reason}"), reason=exc.message
        ) from None
    if card in defender:
        raise CardError(
            gettext_noop(
                "the knocker took {card} from the discard pile, so it cannot be in the"
                " defender's hand"
            ),
            card=format_card(card),
        )
    if card not in knocker:
        raise KnockError(
            gettext_noop(
                "Knock refused: the knocker took {card} from the discard pile this turn and may"
                " not discard it on the same turn"
            ),
            card=format_card(card),
        )
    return card


# -- claims ----------------------------------------------------------------------------------


def check_claim(
    result: HandResult,
    *,
    claimed_outcome: HandOutcome | None = None,
    claimed_knocker_deadwood: int | None = None,
    claimed_defender_deadwood: int | None = None,
    claimed_points: int | None = None,
    claimed_winner: Role | None = None,
) -> None:
    """Raise :class:`ScoreError` when a claim differs from the engine's result, with the proof.

    Every difference is listed, each with the arrangement, lay-offs or formula that shows it.

    >>> r = score_hand_counts(RuleSet(), outcome=HandOutcome.KNOCK,
    ...                       knocker_deadwood=7, defender_deadwood=22)
    >>> check_claim(r, claimed_points=16)
    Traceback (most recent call last):
    ...
    engine.errors.ScoreError: The knocker scores 15, not 16: defender 22 − knocker 7 = 15
    """
    problems: list[Message] = []
    if claimed_outcome is not None and claimed_outcome is not result.outcome:
        if result.is_dead or claimed_outcome is HandOutcome.DEAD:
            problems.append(
                Message(
                    gettext_noop("{outcome}, not {claimed}"),
                    outcome=result.outcome.capital_message,
                    claimed=claimed_outcome.label_message,
                )
            )
        else:
            problems.append(
                _outcome_reason(
                    _rules_for(result),
                    result.outcome,
                    claimed_outcome,
                    result.knocker_deadwood or 0,
                    result.defender_deadwood or 0,
                )
            )
    if claimed_knocker_deadwood is not None and claimed_knocker_deadwood != result.knocker_deadwood:
        if result.by_cards:
            problems.append(
                Message(
                    gettext_noop("The knocker's deadwood is {deadwood}, not {claimed} ({shown})"),
                    deadwood=result.knocker_deadwood,
                    claimed=claimed_knocker_deadwood,
                    shown=_shown(result.knocker_melds, result.knocker_deadwood_cards),
                )
            )
        else:
            problems.append(
                Message(
                    gettext_noop("The knocker's deadwood is {deadwood}, not {claimed}"),
                    deadwood=result.knocker_deadwood,
                    claimed=claimed_knocker_deadwood,
                )
            )
    if (
        claimed_defender_deadwood is not None
        and claimed_defender_deadwood != result.defender_deadwood
    ):
        problems.append(_defender_reason(result, claimed_defender_deadwood))
    if claimed_winner is not None and claimed_winner != result.winner:
        problems.append(
            Message(
                gettext_noop("The {winner} wins the hand, not the {claimed}"),
                winner=_role(result.winner),
                claimed=_role(claimed_winner),
            )
        )
    if claimed_points is not None and claimed_points != result.points:
        problems.append(
            Message(
                gettext_noop("The {winner} scores {points}, not {claimed}: {formula}")
                if result.winner
                else gettext_noop("Nobody scores {points}, not {claimed}: {formula}"),
                winner=_role(result.winner),
                points=result.points,
                claimed=claimed_points,
                formula=_formula(result),
            )
        )
    if problems:
        reason = joined(gettext_noop("{first}; {rest}"), problems)
        assert isinstance(reason, Message)  # at least one problem, each a message
        raise ScoreError(reason)


def _rules_for(result: HandResult) -> RuleSet:
    """A rule set that reproduces ``result``'s tie rule, for explaining an outcome."""
    tie_undercut = (
        result.outcome is HandOutcome.UNDERCUT
        and result.knocker_deadwood == result.defender_deadwood
    )
    return RuleSet(undercut_on_tie=tie_undercut)


def _defender_reason(result: HandResult, claimed: int) -> Message:
    left = result.defender_deadwood
    if not result.by_cards:
        return Message(
            gettext_noop("The defender's deadwood is {deadwood}, not {claimed}"),
            deadwood=left,
            claimed=claimed,
        )
    shown = _shown(result.defender_melds, result.defender_deadwood_cards)
    if result.layoffs:
        template = gettext_noop(
            "Defender lays off {layoffs}: {deadwood} left, not {claimed} ({shown})"
        )
    elif result.outcome in (HandOutcome.GIN, HandOutcome.BIG_GIN):
        template = gettext_noop(
            "The defender's deadwood is {deadwood}, not {claimed}:"
            " no lay-offs against gin ({shown})"
        )
    else:
        template = gettext_noop("The defender's deadwood is {deadwood}, not {claimed} ({shown})")
    return Message(
        template, layoffs=_layoff_text(result), deadwood=left, claimed=claimed, shown=shown
    )


# -- partnership -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PartnershipHandResult:
    """A four-player hand: two boards, each team's sum, and the difference to the higher team."""

    boards: tuple[HandResult, HandResult]
    knocker_teams: tuple[int, int]
    team_points: tuple[int, int]
    winner: int | None
    points: int
    outcome: HandOutcome


def score_partnership_hand(
    rules: RuleSet,
    board_a: HandResult,
    board_b: HandResult,
    *,
    knocker_team_a: int,
    knocker_team_b: int,
) -> PartnershipHandResult:
    """Combine two boards (docs/rules.md §5): each team adds its players' points; the higher sum
    scores the difference. ``knocker_team_*`` is the team (0 or 1) of each board's knocker.

    Seed 000 says only that partners add their points and compare them with the other team's
    sum to decide who wins. Knock reads it as scoring the **difference** for the higher team (as a
    knock scores the difference of deadwood): below, team 0 knocks 25 − 5 = 20 on board A and
    team 1 goes gin on board B, 25 + 12 = 37, so team 1 wins the hand with 37 − 20 = 17. Equal
    sums score nothing and no team wins the hand.

    >>> a = score_hand_counts(RuleSet(), outcome=HandOutcome.KNOCK,
    ...                       knocker_deadwood=5, defender_deadwood=25)
    >>> b = score_hand_counts(RuleSet(), outcome=HandOutcome.GIN,
    ...                       knocker_deadwood=0, defender_deadwood=12)
    >>> p = score_partnership_hand(RuleSet(table="partnership"), a, b,
    ...                            knocker_team_a=0, knocker_team_b=1)
    >>> p.team_points, p.winner, p.points  # 20 against 25 + 12
    ((20, 37), 1, 17)
    """
    if rules.table != "partnership":
        raise RuleError(
            gettext_noop("a partnership hand needs a 'partnership' rule set, not table '{table}'"),
            table=rules.table,
        )
    teams = (knocker_team_a, knocker_team_b)
    if any(team not in (0, 1) for team in teams):
        raise ScoreError(gettext_noop("a knocker's team is 0 or 1, not {teams}"), teams=str(teams))
    sums = [0, 0]
    for board, team in zip((board_a, board_b), teams, strict=True):
        sums[team] += board.score_for("knocker")
        sums[1 - team] += board.score_for("defender")
    if sums[0] == sums[1]:
        winner, points = None, 0
        outcome = HandOutcome.DEAD
    else:
        winner = 0 if sums[0] > sums[1] else 1
        points = abs(sums[0] - sums[1])
        outcome = HandOutcome.KNOCK
    return PartnershipHandResult(
        boards=(board_a, board_b),
        knocker_teams=(knocker_team_a, knocker_team_b),
        team_points=(sums[0], sums[1]),
        winner=winner,
        points=points,
        outcome=outcome,
    )


# -- three-player Gem ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GemThreeHandResult:
    """A three-player Gem hand (docs/rules.md §8): the knocker scored against each defender
    separately.

    ``pairings[i]`` is the two-player hand of the knocker against defender ``i`` (0: the first,
    1: the second) with its own outcome, winner and points. In a pairing ``gem_bonus_knocker`` is
    0: the knocker's gem parts bonus belongs to the hand and is counted once
    (:attr:`gem_bonus_knocker`). ``scores`` are what each player is credited with this hand:
    the knocker (index 0), the first and the second defender (1 and 2), gem bonuses included.
    ``winner`` indexes ``scores`` (the most credited; a tie goes to the knocker, then to the first
    defender). ``outcome`` is the knocker's gin or big gin, else undercut when both defenders
    undercut, else knock.
    """

    pairings: tuple[HandResult, HandResult]
    scores: tuple[int, int, int]
    winner: int
    outcome: HandOutcome
    gem_bonus_knocker: int = 0

    @property
    def knocker_deadwood(self) -> int | None:
        """The knocker's deadwood (the same in both pairings)."""
        return self.pairings[0].knocker_deadwood

    @property
    def knock_limit(self) -> int | None:
        """The hand's knock limit (the die)."""
        return self.pairings[0].knock_limit

    def explain(self) -> str:
        """Each pairing's explanation, the knocker's gem bonus and what each player scores."""
        lines = []
        for number, pairing in enumerate(self.pairings, start=1):
            lines.append(f"Against defender {number}:")
            lines.extend(f"  {line}" for line in pairing.explain().splitlines())
        if self.gem_bonus_knocker:
            lines.append(f"Gem parts bonus: knocker +{self.gem_bonus_knocker}")
        knocker, first, second = self.scores
        lines.append(f"This hand: knocker {knocker}, defender 1 {first}, defender 2 {second}")
        return "\n".join(lines)


def _check_three(rules: RuleSet) -> None:
    if rules.family != "gem" or rules.table != "open":
        raise RuleError(
            gettext_noop(
                "a three-player hand is Gem Rummy at an 'open' table, not {rules} at table"
                " '{table}'"
            ),
            rules=rules.name,
            table=rules.table,
        )


def _against(number: int, exc: EngineError) -> EngineError:
    """``exc`` (same type) saying which defender's pairing it is about."""
    return type(exc)(
        Message(
            gettext_noop("against defender {number}: {reason}"), number=number, reason=exc.message
        )
    )


def combine_gem_three(rules: RuleSet, first: HandResult, second: HandResult) -> GemThreeHandResult:
    """Combine the knocker's two pairings into one three-player Gem hand (docs/rules.md §8).

    The pairings must describe one knock: the same knocker's deadwood and knock limit, gin (or
    big gin) against both or neither, the same knocker's gem bonus. A dead hand is dead for all
    three and has no pairings.

    >>> from engine.rules import find_rules
    >>> gem3 = find_rules("gem").with_overrides(table="open")
    >>> a = score_hand_counts(gem3, outcome=HandOutcome.KNOCK, knock_limit=5,
    ...                       knocker_deadwood=4, defender_deadwood=30)
    >>> b = score_hand_counts(gem3, outcome=HandOutcome.UNDERCUT, knock_limit=5,
    ...                       knocker_deadwood=4, defender_deadwood=2)
    >>> combine_gem_three(gem3, a, b).scores  # 30 - 4 = 26; undercut 25 flat
    (26, 0, 25)
    """
    _check_three(rules)
    if first.is_dead or second.is_dead:
        raise ScoreError(
            gettext_noop(
                "a dead hand is dead for all three players: enter it once, with no pairings"
            )
        )
    if first.knocker_deadwood != second.knocker_deadwood:
        raise ScoreError(
            gettext_noop(
                "the knocker has one hand: deadwood {first} against the first defender and"
                " {second} against the second"
            ),
            first=first.knocker_deadwood,
            second=second.knocker_deadwood,
        )
    if first.knock_limit != second.knock_limit:
        raise ScoreError(
            gettext_noop("one hand has one knock limit, not {first} and {second}"),
            first=first.knock_limit,
            second=second.knock_limit,
        )
    gins = (HandOutcome.GIN, HandOutcome.BIG_GIN)
    if (first.outcome in gins or second.outcome in gins) and first.outcome is not second.outcome:
        raise ScoreError(
            gettext_noop("the knocker's {outcome} is the same against both defenders, not {other}"),
            outcome=(first if first.outcome in gins else second).outcome.label_message,
            other=(second if first.outcome in gins else first).outcome.label_message,
        )
    if first.gem_bonus_knocker != second.gem_bonus_knocker:
        raise ScoreError(
            gettext_noop("the knocker's gem parts bonus is one bonus, not {first} and {second}"),
            first=first.gem_bonus_knocker,
            second=second.gem_bonus_knocker,
        )
    bonus = first.gem_bonus_knocker
    one = replace(first, gem_bonus_knocker=0)
    two = replace(second, gem_bonus_knocker=0)
    scores = (
        bonus + one.score_for("knocker") + two.score_for("knocker"),
        one.score_for("defender"),
        two.score_for("defender"),
    )
    if first.outcome in gins:
        outcome = first.outcome
    elif first.outcome is second.outcome is HandOutcome.UNDERCUT:
        outcome = HandOutcome.UNDERCUT
    else:
        outcome = HandOutcome.KNOCK
    return GemThreeHandResult(
        pairings=(one, two),
        scores=scores,
        winner=scores.index(max(scores)),
        outcome=outcome,
        gem_bonus_knocker=bonus,
    )


def _relaid(rules: RuleSet, result: HandResult, layoffs: LayoffResult) -> HandResult:
    """``result`` with the defender's lay-offs replaced (three-player Gem lays off in turn)."""
    assert result.knocker_deadwood is not None
    assert result.knock_limit is not None
    k, d = result.knocker_deadwood, layoffs.deadwood
    outcome = _decide(rules, k, d, result.outcome is HandOutcome.BIG_GIN)
    return _result(
        rules,
        outcome,
        k,
        d,
        limit=result.knock_limit,
        upcard=result.upcard,
        defender_deadwood_without_layoffs=layoffs.deadwood_without_layoffs,
        knocker_cards=result.knocker_cards,
        defender_cards=result.defender_cards,
        knocker_melds=result.knocker_melds,
        knocker_deadwood_cards=result.knocker_deadwood_cards,
        knocker_melds_given=result.knocker_melds_given,
        defender_melds=layoffs.defender_melds,
        defender_deadwood_cards=layoffs.deadwood_cards,
        layoffs=layoffs.layoffs,
        gem_bonus_knocker=result.gem_bonus_knocker,
        gem_bonus_defender=result.gem_bonus_defender,
        by_cards=True,
    )


def _two_defenders(count: int) -> None:
    if count != 2:
        raise ScoreError(
            gettext_noop("a three-player Gem hand has two defenders, not {count}"), count=count
        )


def score_gem_three_counts(
    rules: RuleSet,
    *,
    outcomes: Sequence[HandOutcome],
    knocker_deadwood: int | None,
    defender_deadwoods: Sequence[int | None],
    defender_deadwoods_without_layoffs: Sequence[int | None] = (None, None),
    knock_limit: int | None = None,
    knocker_gem_bonus: bool = False,
    defender_gem_bonuses: Sequence[bool] = (False, False),
) -> GemThreeHandResult:
    """A three-player Gem hand by counts: each pairing by :func:`score_hand_counts`, combined.

    ``outcomes[i]`` is the outcome against defender ``i`` (knock or undercut, or the knocker's
    gin / big gin against both). An error in a pairing says which defender it is about.
    """
    _check_three(rules)
    _two_defenders(len(outcomes))
    _two_defenders(len(defender_deadwoods))
    pairings: list[HandResult] = []
    for index in range(2):
        try:
            pairings.append(
                score_hand_counts(
                    rules,
                    outcome=outcomes[index],
                    knocker_deadwood=knocker_deadwood,
                    defender_deadwood=defender_deadwoods[index],
                    defender_deadwood_without_layoffs=defender_deadwoods_without_layoffs[index],
                    knock_limit=knock_limit,
                    knocker_gem_bonus=knocker_gem_bonus,
                    defender_gem_bonus=defender_gem_bonuses[index],
                )
            )
        except EngineError as exc:
            raise _against(index + 1, exc) from None
    return combine_gem_three(rules, pairings[0], pairings[1])


def score_gem_three_hand(
    rules: RuleSet,
    *,
    knocker_cards: CardsIn,
    defender_cards: Sequence[CardsIn],
    knocker_melds: MeldsIn | None = None,
    knock_limit: int | None = None,
    diamond_number: int | None = None,
    deck_map: DeckMap | None = None,
) -> GemThreeHandResult:
    """A three-player Gem hand by cards: the knocker against each defender, scored separately.

    The defenders lay off in turn, one card at a time, clockwise (``defender_cards[0]`` is the
    first to the knocker's left), onto the knocker's melds as they grow, the other defender's
    lay-offs included (:func:`engine.gem.lay_off_in_turn`, where the order and ties are read).
    Without ``knocker_melds`` the knocker shows, among the least-deadwood arrangements, the one
    that leaves both defenders together the most deadwood (ties: the first).
    """
    _check_three(rules)
    _two_defenders(len(defender_cards))

    def pairing(index: int, melds: MeldsIn | None) -> HandResult:
        try:
            return score_hand(
                rules,
                knocker_cards=knocker_cards,
                defender_cards=defender_cards[index],
                knocker_melds=melds,
                knock_limit=knock_limit,
                diamond_number=diamond_number,
                deck_map=deck_map,
            )
        except EngineError as exc:
            raise _against(index + 1, exc) from None

    first, second = pairing(0, knocker_melds), pairing(1, knocker_melds)
    both = sorted(set(first.defender_cards) & set(second.defender_cards))
    if both:
        raise CardError(
            gettext_noop("card {card} is in both defenders' hands"), card=format_card(both[0])
        )
    assert deck_map is not None  # a Gem hand by cards needs it (score_hand checked)
    defenders = (first.defender_cards, second.defender_cards)
    if knocker_melds is None:
        arrangement, results = gem_knocker_choice(
            first.knocker_cards, defenders, deck_map, diamond_number
        )
        if arrangement.melds != first.knocker_melds:
            first = replace(pairing(0, arrangement.melds), knocker_melds_given=False)
            second = replace(pairing(1, arrangement.melds), knocker_melds_given=False)
    else:
        results = lay_off_in_turn(
            first.knocker_melds,
            defenders,
            deck_map,
            diamond_number,
            allow_layoffs=bool(first.knocker_deadwood_cards),
        )
    first, second = _relaid(rules, first, results[0]), _relaid(rules, second, results[1])
    return combine_gem_three(rules, first, second)
