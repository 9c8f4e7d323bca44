"""The two-player knock, gin and undercut: knock limit, outcome, points, and entry by counts.

:func:`hand_knock_limit` reads a hand's limit from the rule set (fixed, Oklahoma's upcard, Gem's
die); :func:`max_deadwood` bounds what deadwood counts may claim; the outcome and the points of a
hand follow from the two deadwood counts (``decide_outcome``, ``_points``), and
:func:`score_hand_counts` scores a hand entered by counts, checking what counts alone can show
(docs/rules.md §3, §9). The hand entered by cards (:mod:`engine.scoring.by_cards`) and
three-player Gem (:mod:`engine.scoring.gem_three`) reuse these rules; this module must not read
cards.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from engine.cards import card_value, format_card
from engine.errors import KnockError, Message, RuleError, ScoreError, gettext_noop
from engine.layoff import Layoff
from engine.melds import Meld
from engine.rules import RuleSet
from engine.scoring.outcome import (
    HandOutcome,
    HandResult,
    Role,
    dead_hand,
    formula_text,
    new_result,
    role_text,
)

__all__ = ["hand_knock_limit", "max_deadwood", "score_hand_counts"]

_SPADES: Final = 0
_ACE: Final = 0
_DIE_FACES: Final = range(1, 7)


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
                gettext_noop("The knock-limit die shows 1-6, not {limit}"), limit=repr(knock_limit)
            )
        return knock_limit
    assert isinstance(mode, int)
    if knock_limit is not None and knock_limit != mode:
        raise RuleError(
            gettext_noop("This rule set fixes the knock limit at {mode}, not {limit}"),
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


def decide_outcome(rules: RuleSet, knocker: int, defender: int, big_gin: bool) -> HandOutcome:
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


def build_result(
    rules: RuleSet,
    outcome: HandOutcome,
    k: int,
    d: int,
    *,
    limit: int,
    upcard: int | None,
    defender_deadwood_without_layoffs: int | None = None,
    knocker_cards: tuple[int, ...] = (),
    defender_cards: tuple[int, ...] = (),
    knocker_melds: tuple[Meld, ...] = (),
    knocker_deadwood_cards: tuple[int, ...] = (),
    knocker_melds_given: bool = False,
    defender_melds: tuple[Meld, ...] = (),
    defender_deadwood_cards: tuple[int, ...] = (),
    layoffs: tuple[Layoff, ...] = (),
    gem_bonus_knocker: int = 0,
    gem_bonus_defender: int = 0,
    by_cards: bool = False,
    taken_from_discard: int | None = None,
) -> HandResult:
    """The scored hand: the points of ``outcome`` with deadwood ``k`` against ``d``, and the
    details given (the defaults are :class:`HandResult`'s)."""
    winner, bonus, base, raised = _points(rules, outcome, k, d)
    multiplier = _multiplier(rules, upcard)
    return new_result(
        outcome,
        winner,
        raised * multiplier,
        base,
        bonus,
        multiplier,
        limit,
        k,
        d,
        defender_deadwood_without_layoffs,
        knocker_cards,
        defender_cards,
        knocker_melds,
        knocker_deadwood_cards,
        knocker_melds_given,
        defender_melds,
        defender_deadwood_cards,
        layoffs,
        upcard,
        gem_bonus_knocker,
        gem_bonus_defender,
        raised != base,
        by_cards,
        taken_from_discard,
    )


def knock_limit_text(rules: RuleSet, limit: int, upcard: int | None) -> Message:
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
    when given. ``defender_deadwood`` is after lay-offs. A gin or big gin needs only the
    defender's count: the knocker's is 0 when left out.

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
            gettext_noop("Outcome must be a HandOutcome, not {outcome}"), outcome=repr(outcome)
        )
    if outcome is HandOutcome.DEAD:
        if knocker_deadwood is not None or defender_deadwood is not None or winner is not None:
            raise ScoreError(
                gettext_noop("A dead hand has no knocker, no deadwood counts and no winner")
            )
        return dead_hand(upcard=upcard)
    if (knocker_gem_bonus or defender_gem_bonus) and rules.family != "gem":
        raise ScoreError(gettext_noop("The gem parts bonus is Gem Rummy's rule"))
    if knocker_deadwood is None and outcome in (HandOutcome.GIN, HandOutcome.BIG_GIN):
        knocker_deadwood = 0  # gin means no deadwood: the count need not be typed
    if knocker_deadwood is None or defender_deadwood is None:
        raise ScoreError(
            gettext_noop("Enter both deadwood counts: the knocker's and the defender's")
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
                    "Lay-offs only lower deadwood: {after} after lay-offs is more than {before}"
                    " before"
                ),
                after=d,
                before=before,
            )
    big = outcome is HandOutcome.BIG_GIN
    if big and not rules.big_gin:
        raise ScoreError(
            gettext_noop("Big gin is not played with the {rules} rules"), rules=rules.name
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
                    "No lay-offs against {outcome}: the defender keeps {before}, not {after}"
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
            limit_text=knock_limit_text(rules, limit, upcard),
        )
    decided = decide_outcome(rules, k, d, big)
    if decided is not outcome:
        raise ScoreError(outcome_reason(rules, decided, outcome, k, d))
    result = build_result(
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
            gettext_noop("The {winner} wins this hand, not the {claimed}: {outcome}, {formula}"),
            winner=role_text(result.winner),
            claimed=role_text(winner),
            outcome=result.outcome.label_message,
            formula=formula_text(result),
        )
    return result


def outcome_reason(
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
