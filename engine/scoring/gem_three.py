"""Three-player Gem: the knocker against two defenders, each pairing scored apart (§8, seed 003).

:func:`score_gem_three_hand` (by cards) and :func:`score_gem_three_counts` (by counts) score each
defender against the knocker as a two-player hand; :func:`combine_gem_three` checks that the two
pairings describe one knock and credits each player. The defenders lay off in turn
(:func:`engine.gem.lay_off_in_turn`), so the pairings by cards are scored again with those
lay-offs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.cards import format_card
from engine.errors import CardError, EngineError, Message, RuleError, ScoreError, gettext_noop
from engine.gem import DeckMap, gem_knocker_choice, lay_off_in_turn
from engine.layoff import LayoffResult
from engine.rules import RuleSet
from engine.scoring.by_cards import CardsIn, MeldsIn, score_hand
from engine.scoring.outcome import HandOutcome, HandResult
from engine.scoring.two_player import build_result, decide_outcome, score_hand_counts

__all__ = [
    "GemThreeHandResult",
    "combine_gem_three",
    "score_gem_three_counts",
    "score_gem_three_hand",
]


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
        return "\n".join(str(line) for line in self.explain_messages())

    def explain_messages(self) -> list[Message]:
        """:meth:`explain`'s lines as messages, to store as data and word in any language."""
        lines = []
        for number, pairing in enumerate(self.pairings, start=1):
            lines.append(Message(gettext_noop("Against defender {number}:"), number=number))
            lines.extend(
                Message(gettext_noop("  {line}"), line=line) for line in pairing.explain_messages()
            )
        if self.gem_bonus_knocker:
            lines.append(
                Message(
                    gettext_noop("Gem parts bonus: {role} +{bonus}"),
                    role=Message(gettext_noop("knocker")),
                    bonus=self.gem_bonus_knocker,
                )
            )
        knocker, first, second = self.scores
        lines.append(
            Message(
                gettext_noop(
                    "This hand: knocker {knocker}, defender 1 {first}, defender 2 {second}"
                ),
                knocker=knocker,
                first=first,
                second=second,
            )
        )
        return lines


def _check_three(rules: RuleSet) -> None:
    if rules.family != "gem" or rules.table != "open":
        raise RuleError(
            gettext_noop(
                "A three-player hand is Gem Rummy at an 'open' table, not {rules} at table"
                " '{table}'"
            ),
            rules=rules.name,
            table=rules.table,
        )


def _against(number: int, exc: EngineError) -> EngineError:
    """``exc`` (same type) saying which defender's pairing it is about."""
    return type(exc)(
        Message(
            gettext_noop("Against defender {number}: {reason}"), number=number, reason=exc.message
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
                "A dead hand is dead for all three players: enter it once, with no pairings"
            )
        )
    if first.knocker_deadwood != second.knocker_deadwood:
        raise ScoreError(
            gettext_noop(
                "The knocker has one hand: deadwood {first} against the first defender and"
                " {second} against the second"
            ),
            first=first.knocker_deadwood,
            second=second.knocker_deadwood,
        )
    if first.knock_limit != second.knock_limit:
        raise ScoreError(
            gettext_noop("One hand has one knock limit, not {first} and {second}"),
            first=first.knock_limit,
            second=second.knock_limit,
        )
    gins = (HandOutcome.GIN, HandOutcome.BIG_GIN)
    if (first.outcome in gins or second.outcome in gins) and first.outcome is not second.outcome:
        raise ScoreError(
            gettext_noop("The knocker's {outcome} is the same against both defenders, not {other}"),
            outcome=(first if first.outcome in gins else second).outcome.label_message,
            other=(second if first.outcome in gins else first).outcome.label_message,
        )
    if first.gem_bonus_knocker != second.gem_bonus_knocker:
        raise ScoreError(
            gettext_noop("The knocker's gem parts bonus is one bonus, not {first} and {second}"),
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
    outcome = decide_outcome(rules, k, d, result.outcome is HandOutcome.BIG_GIN)
    return build_result(
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
            gettext_noop("A three-player Gem hand has two defenders, not {count}"), count=count
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
            gettext_noop("Card {card} is in both defenders' hands"), card=format_card(both[0])
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
