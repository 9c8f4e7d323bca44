"""Hollywood: one stream of two-player hands fed into several games (columns) at once.

Part of :mod:`engine.game`. No won hand vanishes: a closed column takes no more entries, and a
player who never scored in a column that has closed enters their next win as their first score
in the next column still open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import RuleError, ScoreError, gettext_noop
from engine.game.hands import ScoredHand
from engine.game.seats import dealer_after
from engine.game.tally import GameResult, Tally, check_hand, count_games_won
from engine.rules import RuleSet

__all__ = ["HollywoodResult", "score_hollywood"]


@dataclass(frozen=True, slots=True)
class HollywoodResult:
    """A Hollywood set: the games (columns) and which games each hand was entered in."""

    games: tuple[GameResult, ...]
    entered: tuple[tuple[int, ...], ...]
    dealers: tuple[int, ...]
    next_dealer: int

    @property
    def finished(self) -> bool:
        """True when every game has closed."""
        return all(g.finished for g in self.games)

    @property
    def games_won(self) -> tuple[int, int]:
        """Games (columns) won by players 0 and 1, each decided on its final totals."""
        first, second = count_games_won(self.games, 2)
        return first, second

    @property
    def winner(self) -> int | None:
        """The winner of a finished set: the higher sum of final totals over the columns.

        Each column is a game of its own, closed with its own bonuses and won on its own final
        totals; the set is settled on what the columns add up to, as Hollywood is settled at the
        table, so the set's winner always has a margin of at least 0 (game points in a
        tournament). With equal sums, the player who won more columns; then the winner of the
        column that closed last.

        >>> from engine.rules import find_rules
        >>> h = score_hollywood(find_rules("hollywood"), [ScoredHand(0, 100)] * 3)
        >>> h.games_won, h.winner, h.margin
        ((3, 0), 0, 975)
        """
        if not self.finished:
            return None
        sums = [sum(g.final_totals[p] for g in self.games) for p in (0, 1)]
        if sums[0] != sums[1]:
            return 0 if sums[0] > sums[1] else 1
        won = self.games_won
        if won[0] != won[1]:
            return 0 if won[0] > won[1] else 1
        last = max(self.games, key=lambda g: g.end_hand or 0)
        return last.winner

    @property
    def margin(self) -> int | None:
        """The winner's sum of final totals over the columns minus the loser's (never negative)."""
        winner = self.winner
        if winner is None:
            return None
        return sum(g.final_totals[winner] - g.final_totals[1 - winner] for g in self.games)


def score_hollywood(
    rules: RuleSet, hands: Sequence[ScoredHand], *, first_dealer: int = 0
) -> HollywoodResult:
    """Feed one stream of two-player hands into ``hollywood_games`` games (columns).

    Each win a player makes is entered in every open column the player has already scored in,
    and opens one more column for them: the first open column they have not scored in yet. So a
    player's 1st win goes in column 1, the 2nd in columns 1-2, the 3rd and later in all three.
    A closed column takes no more entries, and a player who never scored in a column before it
    closed enters their next win as their first score in the next column still open: no won hand
    vanishes. Each column closes with its own game, box and shutout bonuses, and its winner is
    decided on its final totals (see :func:`score_game`).

    >>> from engine.rules import find_rules
    >>> h = score_hollywood(find_rules("hollywood"), [ScoredHand(0, 10), ScoredHand(0, 20)])
    >>> h.entered, [g.totals for g in h.games]
    (((0,), (0, 1)), [(30, 0), (20, 0), (0, 0)])

    Player 0 closes column 1 with four wins (the 4th is entered in all three columns); player 1's
    first win then goes into column 2, their second into columns 2 and 3:

    >>> hands = [ScoredHand(0, 30)] * 4 + [ScoredHand(1, 5), ScoredHand(1, 5)]
    >>> score_hollywood(find_rules("hollywood"), hands).entered[4:]
    ((1,), (1, 2))
    """
    count = rules.hollywood_games
    if not count:
        raise RuleError(
            gettext_noop(
                "score_hollywood needs a rule set with hollywood_games (preset 'hollywood')"
            )
        )
    if not 0 <= first_dealer < 2:
        raise ScoreError(
            gettext_noop("First dealer must be player 0 or 1, not {dealer}"), dealer=first_dealer
        )
    plain = rules.with_overrides(hollywood_games=0)
    tallies = [Tally.start(plain, 2) for _ in range(count)]
    started: list[set[int]] = [set(), set()]
    entered: list[tuple[int, ...]] = []
    dealers: list[int] = []
    dealer = first_dealer
    for number, hand in enumerate(hands, start=1):
        if all(t.end_hand is not None for t in tallies):
            raise ScoreError(
                gettext_noop("Hand {number} was entered after every Hollywood game had ended"),
                number=number,
            )
        check_hand(plain, 2, number, hand, dealer)
        games: tuple[int, ...] = ()
        if hand.winner is not None:
            games = _hollywood_columns(tallies, started[hand.winner])
        for g in games:
            tallies[g].add(hand, dealer)
        entered.append(games)
        dealers.append(dealer)
        dealer = dealer_after(plain, 2, dealer, hand)
    return HollywoodResult(
        games=tuple(t.result(dealer) for t in tallies),
        entered=tuple(entered),
        dealers=tuple(dealers),
        next_dealer=dealer,
    )


def _hollywood_columns(tallies: Sequence[Tally], started: set[int]) -> tuple[int, ...]:
    """The open columns a win goes into: those the player scored in, and the next one they open.

    ``started`` (the columns the player has scored in) gains the newly opened column.
    """
    open_games = [g for g, tally in enumerate(tallies) if tally.end_hand is None]
    fresh = next((g for g in open_games if g not in started), None)
    if fresh is not None:
        started.add(fresh)
    return tuple(g for g in open_games if g in started)
