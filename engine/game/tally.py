"""Adding up one game: running totals, the end of the game, bonuses, shutout, winner, margin.

Part of :mod:`engine.game`, whose docstring gives the decisions where the rule texts are silent
(when a game ends, the winner on the final totals, shutouts, margins). Also scores a three-player
"in the box" game (:func:`score_three_box`), which is a game with the box's roles on top.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.errors import RuleError, ScoreError, gettext_noop
from engine.game.hands import ScoredHand
from engine.game.seats import (
    BoxRoles,
    check_first_dealer,
    dealer_after,
    default_players,
    three_box_roles,
)
from engine.rules import RuleSet

__all__ = ["GameResult", "score_game", "score_three_box"]


@dataclass(frozen=True, slots=True)
class GameResult:
    """A game scored so far, finished or not.

    ``running_totals[i]`` are the totals after hand ``i`` (dead hands repeat the line);
    ``totals`` are the last running totals; ``final_totals`` add the end bonuses when finished.
    ``dealers[i]`` dealt hand ``i``; ``next_dealer`` deals the next hand (or the next game's first).
    ``ended_by`` reached the target (or led when the game ended) and took the game bonus;
    ``winner`` has the highest final total (``final_tie``: tied with ``ended_by``, who wins it);
    ``tiebreak`` tells that the last hand's points decided who ended the game.
    """

    players: int
    hands: tuple[ScoredHand, ...]
    running_totals: tuple[tuple[int, ...], ...]
    dealers: tuple[int, ...]
    next_dealer: int
    finished: bool
    winner: int | None
    end_hand: int | None
    hands_won: tuple[int, ...]
    totals: tuple[int, ...]
    game_bonus: tuple[int, ...]
    box_bonus: tuple[int, ...]
    shutout_bonus: tuple[int, ...]
    final_totals: tuple[int, ...]
    shutout: bool
    tiebreak: bool
    margin: int | None
    ended_by: int | None = None
    final_tie: bool = False

    @property
    def loser(self) -> int | None:
        """The other player of a finished two-player game."""
        if self.winner is None or self.players != 2:
            return None
        return 1 - self.winner


def check_hand(rules: RuleSet, players: int, number: int, hand: ScoredHand, dealer: int) -> None:
    for player in hand.credits():
        if not 0 <= player < players:
            raise ScoreError(
                gettext_noop("Hand {number}: player {player} is not in this {players}-player game"),
                number=number,
                player=player,
                players=players,
            )
    if hand.dealer is not None and hand.dealer != dealer:
        template = (
            gettext_noop(
                "Hand {number}: player {dealer} deals this hand, not player {claimed}"
                " (a dead hand is dealt again by the same dealer)"
            )
            if number > 1
            else gettext_noop(
                "Hand {number}: player {dealer} deals this hand, not player {claimed}"
            )
        )
        raise ScoreError(template, number=number, dealer=dealer, claimed=hand.dealer)
    if rules.table == "three_dealer_out" and hand.winner == dealer:
        raise ScoreError(
            gettext_noop("Hand {number}: player {player} dealt and sat out, so cannot win"),
            number=number,
            player=dealer,
        )


@dataclass(slots=True)
class Tally:
    """Running state of one game; ``add`` returns False once the game is over."""

    rules: RuleSet
    players: int
    totals: list[int]
    hands_won: list[int]
    hands: list[ScoredHand] = field(default_factory=list)
    running: list[tuple[int, ...]] = field(default_factory=list)
    dealers: list[int] = field(default_factory=list)
    scored: int = 0
    ended_by: int | None = None
    end_hand: int | None = None
    tiebreak: bool = False

    @classmethod
    def start(cls, rules: RuleSet, players: int) -> Tally:
        return cls(rules, players, [0] * players, [0] * players)

    def add(self, hand: ScoredHand, dealer: int) -> None:
        number = len(self.hands) + 1
        if self.end_hand is not None:
            raise ScoreError(
                gettext_noop("Hand {number} was entered after the game ended with hand {end}"),
                number=number,
                end=self.end_hand,
            )
        check_hand(self.rules, self.players, number, hand, dealer)
        self.hands.append(hand)
        self.dealers.append(dealer)
        for player, points in hand.credits().items():
            self.totals[player] += points
        self.running.append(tuple(self.totals))
        if hand.winner is None:
            return
        self.hands_won[hand.winner] += 1
        self.scored += 1
        self._maybe_end(hand, number)

    def _maybe_end(self, hand: ScoredHand, number: int) -> None:
        rules = self.rules
        best = max(self.totals)
        by_target = rules.target is not None and best >= rules.target
        by_hands = rules.max_hands is not None and self.scored >= rules.max_hands
        single = rules.target is None and rules.max_hands is None
        if not (by_target or by_hands or single):
            return
        leaders = [p for p in range(self.players) if self.totals[p] == best]
        if len(leaders) > 1:
            if not rules.last_hand_tiebreak:
                return
            last = hand.credits()
            top = max(last.get(p, 0) for p in leaders)
            leaders = [p for p in leaders if last.get(p, 0) == top]
            if len(leaders) > 1:
                return
            self.tiebreak = True
        self.ended_by = leaders[0]
        self.end_hand = number

    def result(self, next_dealer: int) -> GameResult:
        rules, n, ended_by = self.rules, self.players, self.ended_by
        totals = tuple(self.totals)
        game = box = extra = [0] * n
        final = list(totals)
        shutout = final_tie = False
        margin = winner = None
        if ended_by is not None:
            game = [rules.game_bonus if p == ended_by else 0 for p in range(n)]
            box = [rules.box_bonus * won for won in self.hands_won]
            final = [t + g + b for t, g, b in zip(totals, game, box, strict=True)]
            shutout = all(self.hands_won[p] == 0 for p in range(n) if p != ended_by)
            extra = [0] * n
            if shutout and rules.shutout == "add_game_bonus":
                extra[ended_by] = rules.game_bonus
            elif shutout and rules.shutout == "double_total":
                extra[ended_by] = final[ended_by]
            final = [f + e for f, e in zip(final, extra, strict=True)]
            winner, final_tie = _final_winner(final, ended_by)
            margin = final[winner] - max(final[p] for p in range(n) if p != winner)
        return GameResult(
            players=n,
            hands=tuple(self.hands),
            running_totals=tuple(self.running),
            dealers=tuple(self.dealers),
            next_dealer=next_dealer,
            finished=winner is not None,
            winner=winner,
            end_hand=self.end_hand,
            hands_won=tuple(self.hands_won),
            totals=totals,
            game_bonus=tuple(game),
            box_bonus=tuple(box),
            shutout_bonus=tuple(extra),
            final_totals=tuple(final),
            shutout=shutout and rules.shutout != "none",
            tiebreak=self.tiebreak,
            margin=margin,
            ended_by=ended_by,
            final_tie=final_tie,
        )


def _final_winner(final: Sequence[int], ended_by: int) -> tuple[int, bool]:
    """The winner on the final totals and whether it took the tie rule (seed 000).

    The highest final total wins; a tie for it goes to ``ended_by``, the player who reached the
    target and took the game bonus (when ``ended_by`` is not among the tied, which cannot happen
    with the bonuses of any rule set, the first tied player).

    >>> _final_winner([240, 225], ended_by=1)  # six hands of 15 and the box beat the target
    (0, False)
    >>> _final_winner([225, 225], ended_by=1)
    (1, True)
    """
    best = max(final)
    tied = [p for p, total in enumerate(final) if total == best]
    if len(tied) == 1:
        return tied[0], False
    return (ended_by if ended_by in tied else tied[0]), True


def score_game(
    rules: RuleSet,
    hands: Sequence[ScoredHand],
    *,
    players: int | None = None,
    first_dealer: int = 0,
) -> GameResult:
    """Add up the hands of one game (docs/rules.md §4), checking each entry against the game so far.

    >>> from engine.rules import find_rules
    >>> g = score_game(find_rules("standard"), [ScoredHand(0, 60), ScoredHand(0, 45)])
    >>> g.winner, g.final_totals, g.margin  # 105 + 100 game + 2*25 box + 100 shutout
    (0, (355, 0), 355)
    """
    n = default_players(rules, players)
    if rules.hollywood_games:
        raise RuleError(gettext_noop("A Hollywood rule set is scored with score_hollywood"))
    check_first_dealer(first_dealer, n)
    tally = Tally.start(rules, n)
    dealer = first_dealer
    for hand in hands:
        tally.add(hand, dealer)
        dealer = dealer_after(rules, n, dealer, hand)
    return tally.result(dealer)


def score_three_box(
    rules: RuleSet,
    initial: BoxRoles | tuple[int, int, int],
    hands: Sequence[ScoredHand],
) -> tuple[GameResult, tuple[BoxRoles, ...]]:
    """Score an "in the box" game (docs/rules.md §5); give the roles of every hand and the next.

    >>> from engine.rules import find_rules
    >>> game, roles = score_three_box(find_rules("three-box"), (2, 0, 1), [ScoredHand(0, 30)])
    >>> game.totals, roles[-1]
    ((30, 0, 0), BoxRoles(box=0, captain=1, sitter=2))
    """
    if rules.table != "three_box":
        raise RuleError(
            gettext_noop("score_three_box needs a 'three_box' rule set, not table '{table}'"),
            table=rules.table,
        )
    roles = three_box_roles(initial, hands)
    return score_game(rules, hands, players=3, first_dealer=roles[0].box), roles


def count_games_won(results: Iterable[GameResult], players: int) -> tuple[int, ...]:
    won = [0] * players
    for game in results:
        if game.winner is not None:
            won[game.winner] += 1
    return tuple(won)
