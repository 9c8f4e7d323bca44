"""Game and match scoring: running totals, end of game, bonuses, dealers, Hollywood, seat rotation.

This module owns the game rules of ``docs/rules.md`` (a game, Hollywood) and the seating of three
and four players. It adds up hands that are already scored
(:class:`ScoredHand`, built from a :class:`~engine.scoring.HandResult`, a partnership hand or a
Basic Rummy hand); it never looks at cards. Players are indices ``0 .. n-1`` (teams in a
partnership game). It must not do I/O.

Decisions where the rule texts are silent:

- A game that has not reached its end is a valid, unfinished :class:`GameResult` (a score sheet
  in progress): ``finished`` is false, there is no winner and no end bonus yet.
- The game ends after the first hand in which a total reaches ``target``, or after ``max_hands``
  scored hands, or (both ``None``) after the first scored hand. The player who ended it (the
  highest running total; a tie for that lead goes to the tied player who scored more in the last
  hand, ``last_hand_tiebreak``, and if that does not separate them the game goes on for another
  hand) takes the game bonus: :attr:`GameResult.ended_by`. Dead hands never count as hands (not
  toward ``max_hands``, not as hands won).
- **The winner is decided on the final totals** (seed 000: after all the tallying, game bonus,
  box bonuses and shutout, the highest total wins). With box bonuses the player who reached the
  target can lose: six hands of 15 for player 0 (90) and then one hand of 100 for player 1 end
  the standard game at 90 + 6 × 25 = 240 against 100 + 100 + 25 = 225, so player 0 wins by 15.
  A tie on the final totals goes to the player who ended the game (``final_tie`` is then true and
  the margin 0). The same holds for teams in a partnership game and for each Hollywood column.
- Shutout: the opponents of the player who ended the game together won no hand (a hand won with
  0 points is a hand won). ``double_total`` doubles that player's whole final total, game and box
  bonuses included.
- Margin: the winner's final total minus the best final total among the others (never negative).
- Dealers: after a dead hand the same dealer deals again (§3.5); otherwise the rule set's
  ``next_dealer`` (``loser``, ``winner``, ``rotate``). In the box the box deals, and the box is
  always the last hand's winner; at a dealer-out table the deal rotates and the dealer sits out.
- Hollywood: see :func:`score_hollywood`. No won hand vanishes: a closed column takes no more
  entries, and a player who never scored in a column that has closed enters their next win as
  their first score in the next column still open.
- Best-of-k matches: ``k`` is odd; the first dealer of each later game is the player who would
  have dealt the next hand of the game before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from engine.errors import RuleError, ScoreError, gettext_noop
from engine.rules import RuleSet
from engine.scoring import (
    GemThreeHandResult,
    HandOutcome,
    HandResult,
    PartnershipHandResult,
    Role,
)

__all__ = [
    "MATCH_KINDS",
    "BoxRoles",
    "GameResult",
    "HollywoodResult",
    "MatchFormat",
    "MatchResult",
    "ScoredHand",
    "dealer_out_seats",
    "score_game",
    "score_hollywood",
    "score_match",
    "score_three_box",
    "three_box_roles",
]

MATCH_KINDS: Final = ("single_game", "best_of", "hollywood", "fixed_hands")


@dataclass(frozen=True, slots=True)
class ScoredHand:
    """One entered hand as the game sees it: who won it and what each player is credited.

    ``winner`` is a player index, or ``None`` for a dead hand. ``points`` go to the winner;
    ``others`` are extra credits to players who did not win the hand (Gem Rummy's 8-point gem
    bonus to a non-knocker), as ``(player, points)`` pairs. ``dealer`` is checked when given.

    >>> ScoredHand(winner=1, points=12).credits()
    {1: 12}
    >>> ScoredHand(winner=None, points=5)
    Traceback (most recent call last):
    ...
    engine.errors.ScoreError: a knock hand needs a winner; only a dead hand has none
    """

    winner: int | None
    points: int = 0
    outcome: HandOutcome = HandOutcome.KNOCK
    others: tuple[tuple[int, int], ...] = ()
    dealer: int | None = None

    def __post_init__(self) -> None:
        if self.outcome is HandOutcome.DEAD:
            if self.winner is not None:
                raise ScoreError(
                    gettext_noop("a dead hand has no winner, not player {player}"),
                    player=self.winner,
                )
            if self.points or self.others:
                raise ScoreError(
                    gettext_noop("a dead hand scores nothing: points must be 0, not {points}"),
                    points=self.points,
                )
        elif self.winner is None:
            raise ScoreError(
                gettext_noop("a {outcome} hand needs a winner; only a dead hand has none"),
                outcome=self.outcome.label_message,
            )
        if self.points < 0:
            raise ScoreError(
                gettext_noop("points must not be negative, not {points}"), points=self.points
            )
        seen = {self.winner}
        for player, points in self.others:
            if player in seen:
                raise ScoreError(
                    gettext_noop("player {player} is credited twice in one hand"), player=player
                )
            if points <= 0:
                raise ScoreError(
                    gettext_noop("an extra credit must be positive, not {points}"), points=points
                )
            seen.add(player)

    @classmethod
    def dead(cls, *, dealer: int | None = None) -> ScoredHand:
        """A dead hand (no score, same dealer again).

        >>> ScoredHand.dead().outcome.value
        'dead'
        """
        return cls(winner=None, outcome=HandOutcome.DEAD, dealer=dealer)

    @classmethod
    def from_hand(
        cls, result: HandResult, *, knocker: int, defender: int, dealer: int | None = None
    ) -> ScoredHand:
        """Map a two-player :class:`~engine.scoring.HandResult` onto player indices."""
        if knocker == defender:
            raise ScoreError(
                gettext_noop(
                    "the knocker and the defender must be different players, not {player}"
                ),
                player=knocker,
            )
        if result.winner is None:
            return cls.dead(dealer=dealer)
        seat = {"knocker": knocker, "defender": defender}
        winner = seat[result.winner]
        loser_role: Role = "defender" if result.winner == "knocker" else "knocker"
        loser_credit = result.score_for(loser_role)
        return cls(
            winner=winner,
            points=result.score_for(result.winner),
            outcome=result.outcome,
            others=((seat[loser_role], loser_credit),) if loser_credit else (),
            dealer=dealer,
        )

    @classmethod
    def from_gem_three(
        cls,
        result: GemThreeHandResult,
        *,
        knocker: int,
        defenders: tuple[int, int],
        dealer: int | None = None,
    ) -> ScoredHand:
        """Map a three-player Gem hand onto player indices: its winner (the most credited) wins
        the hand; every other player credited this hand is in ``others``.

        >>> from engine.rules import find_rules
        >>> from engine.scoring import combine_gem_three, score_hand_counts
        >>> gem3 = find_rules("gem").with_overrides(table="open")
        >>> a = score_hand_counts(gem3, outcome=HandOutcome.UNDERCUT, knock_limit=5,
        ...                       knocker_deadwood=4, defender_deadwood=2)
        >>> b = score_hand_counts(gem3, outcome=HandOutcome.KNOCK, knock_limit=5,
        ...                       knocker_deadwood=4, defender_deadwood=9)
        >>> three = combine_gem_three(gem3, a, b)
        >>> hand = ScoredHand.from_gem_three(three, knocker=2, defenders=(0, 1))
        >>> hand.winner, hand.points, hand.others
        (0, 25, ((2, 11),))
        """
        seats = (knocker, *defenders)
        if len(set(seats)) != 3:
            raise ScoreError(
                gettext_noop(
                    "the knocker and the two defenders must be three different players,"
                    " not {knocker}, {first}, {second}"
                ),
                knocker=knocker,
                first=defenders[0],
                second=defenders[1],
            )
        winner = seats[result.winner]
        return cls(
            winner=winner,
            points=result.scores[result.winner],
            outcome=result.outcome,
            others=tuple(
                (seat, score)
                for seat, score in zip(seats, result.scores, strict=True)
                if seat != winner and score
            ),
            dealer=dealer,
        )

    @classmethod
    def from_partnership(
        cls, result: PartnershipHandResult, *, dealer: int | None = None
    ) -> ScoredHand:
        """A partnership hand as a hand between teams 0 and 1."""
        if result.winner is None:
            return cls.dead(dealer=dealer)
        return cls(
            winner=result.winner, points=result.points, outcome=result.outcome, dealer=dealer
        )

    def credits(self) -> dict[int, int]:
        """Points credited to each player in this hand (the winner first)."""
        out: dict[int, int] = {} if self.winner is None else {self.winner: self.points}
        out.update(self.others)
        return out


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


@dataclass(frozen=True, slots=True)
class BoxRoles:
    """Roles at a three-player "in the box" table (docs/rules.md §5): the box deals and plays
    the captain.

    >>> BoxRoles(0, 1, 2).after(0), BoxRoles(0, 1, 2).after(1)
    (BoxRoles(box=0, captain=2, sitter=1), BoxRoles(box=1, captain=2, sitter=0))
    """

    box: int
    captain: int
    sitter: int

    def __post_init__(self) -> None:
        if sorted((self.box, self.captain, self.sitter)) != [0, 1, 2]:
            raise ScoreError(
                gettext_noop(
                    "box, captain and sitter must be players 0, 1 and 2 once each,"
                    " not {box}, {captain}, {sitter}"
                ),
                box=self.box,
                captain=self.captain,
                sitter=self.sitter,
            )

    def after(self, winner: int | None) -> BoxRoles:
        """Roles for the next hand once ``winner`` won this one (``None``: dead hand)."""
        if winner is None:
            return self
        if winner == self.box:
            return BoxRoles(self.box, self.sitter, self.captain)
        if winner == self.captain:
            return BoxRoles(self.captain, self.sitter, self.box)
        raise ScoreError(
            gettext_noop("player {player} is the sitter and cannot win the hand"), player=winner
        )


def three_box_roles(
    initial: BoxRoles | tuple[int, int, int], winners: Iterable[ScoredHand | int | None]
) -> tuple[BoxRoles, ...]:
    """Roles for each hand and, last, for the next hand (one more entry than ``winners``).

    >>> [r.box for r in three_box_roles((0, 1, 2), [0, 2, None, 1])]
    [0, 0, 2, 2, 1]
    """
    roles = initial if isinstance(initial, BoxRoles) else BoxRoles(*initial)
    out = [roles]
    for number, entry in enumerate(winners, start=1):
        winner = entry.winner if isinstance(entry, ScoredHand) else entry
        try:
            roles = roles.after(winner)
        except ScoreError as exc:
            raise ScoreError(
                gettext_noop("hand {number}: {reason}"), number=number, reason=exc.message
            ) from None
        out.append(roles)
    return tuple(out)


def dealer_out_seats(
    first_dealer: int, winners: Iterable[ScoredHand | int | None], *, players: int = 3
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For each hand and the next: (dealer, the players who play). The dealer sits out.

    The deal passes to the next seat after a scored hand and stays after a dead hand.

    >>> dealer_out_seats(0, [1, None])
    ((0, (1, 2)), (1, (0, 2)), (1, (0, 2)))
    """
    _check_first_dealer(first_dealer, players)
    dealer = first_dealer
    out = [(dealer, tuple(p for p in range(players) if p != dealer))]
    for number, entry in enumerate(winners, start=1):
        winner = entry.winner if isinstance(entry, ScoredHand) else entry
        if winner == dealer:
            raise ScoreError(
                gettext_noop("hand {number}: player {player} dealt and sat out, so cannot win"),
                number=number,
                player=winner,
            )
        if winner is not None:
            dealer = (dealer + 1) % players
        out.append((dealer, tuple(p for p in range(players) if p != dealer)))
    return tuple(out)


def _check_first_dealer(first_dealer: int, players: int) -> None:
    if not 0 <= first_dealer < players:
        raise ScoreError(
            gettext_noop("first dealer must be a player 0-{last}, not {dealer}"),
            last=players - 1,
            dealer=first_dealer,
        )


def _default_players(rules: RuleSet, players: int | None) -> int:
    if players is None:
        if rules.table == "open":
            raise ScoreError(gettext_noop("give the number of players for an 'open' table"))
        return 3 if rules.table in ("three_box", "three_dealer_out") else 2
    expected = {"two": 2, "partnership": 2, "three_box": 3, "three_dealer_out": 3}.get(rules.table)
    if expected is not None and players != expected:
        raise ScoreError(
            gettext_noop("a '{table}' game has {expected} players (teams), not {players}"),
            table=rules.table,
            expected=expected,
            players=players,
        )
    low, high = (2, 6) if rules.family == "rummy" else (2, 3)
    if expected is None and not low <= players <= high:
        raise ScoreError(
            gettext_noop("{family} at an open table is for {low}-{high} players, not {players}"),
            family=rules.family,
            low=low,
            high=high,
            players=players,
        )
    return players


def _dealer_after(rules: RuleSet, players: int, dealer: int, hand: ScoredHand) -> int:
    if hand.winner is None:
        return dealer
    if rules.table == "three_dealer_out":
        return (dealer + 1) % players
    rule = "winner" if rules.table == "three_box" else rules.next_dealer
    if rule == "winner":
        return hand.winner
    if rule == "loser":
        return 1 - hand.winner
    return (dealer + 1) % players


def _check_hand(rules: RuleSet, players: int, number: int, hand: ScoredHand, dealer: int) -> None:
    for player in hand.credits():
        if not 0 <= player < players:
            raise ScoreError(
                gettext_noop("hand {number}: player {player} is not in this {players}-player game"),
                number=number,
                player=player,
                players=players,
            )
    if hand.dealer is not None and hand.dealer != dealer:
        template = (
            gettext_noop(
                "hand {number}: player {dealer} deals this hand, not player {claimed}"
                " (a dead hand is dealt again by the same dealer)"
            )
            if number > 1
            else gettext_noop(
                "hand {number}: player {dealer} deals this hand, not player {claimed}"
            )
        )
        raise ScoreError(template, number=number, dealer=dealer, claimed=hand.dealer)
    if rules.table == "three_dealer_out" and hand.winner == dealer:
        raise ScoreError(
            gettext_noop("hand {number}: player {player} dealt and sat out, so cannot win"),
            number=number,
            player=dealer,
        )


@dataclass(slots=True)
class _Tally:
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
    def start(cls, rules: RuleSet, players: int) -> _Tally:
        return cls(rules, players, [0] * players, [0] * players)

    def add(self, hand: ScoredHand, dealer: int) -> None:
        number = len(self.hands) + 1
        if self.end_hand is not None:
            raise ScoreError(
                gettext_noop("hand {number} was entered after the game ended with hand {end}"),
                number=number,
                end=self.end_hand,
            )
        _check_hand(self.rules, self.players, number, hand, dealer)
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
    n = _default_players(rules, players)
    if rules.hollywood_games:
        raise RuleError(gettext_noop("a Hollywood rule set is scored with score_hollywood"))
    _check_first_dealer(first_dealer, n)
    tally = _Tally.start(rules, n)
    dealer = first_dealer
    for hand in hands:
        tally.add(hand, dealer)
        dealer = _dealer_after(rules, n, dealer, hand)
    return tally.result(dealer)


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
        first, second = _games_won(self.games, 2)
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
            gettext_noop("first dealer must be player 0 or 1, not {dealer}"), dealer=first_dealer
        )
    plain = rules.with_overrides(hollywood_games=0)
    tallies = [_Tally.start(plain, 2) for _ in range(count)]
    started: list[set[int]] = [set(), set()]
    entered: list[tuple[int, ...]] = []
    dealers: list[int] = []
    dealer = first_dealer
    for number, hand in enumerate(hands, start=1):
        if all(t.end_hand is not None for t in tallies):
            raise ScoreError(
                gettext_noop("hand {number} was entered after every Hollywood game had ended"),
                number=number,
            )
        _check_hand(plain, 2, number, hand, dealer)
        games: tuple[int, ...] = ()
        if hand.winner is not None:
            games = _hollywood_columns(tallies, started[hand.winner])
        for g in games:
            tallies[g].add(hand, dealer)
        entered.append(games)
        dealers.append(dealer)
        dealer = _dealer_after(plain, 2, dealer, hand)
    return HollywoodResult(
        games=tuple(t.result(dealer) for t in tallies),
        entered=tuple(entered),
        dealers=tuple(dealers),
        next_dealer=dealer,
    )


def _hollywood_columns(tallies: Sequence[_Tally], started: set[int]) -> tuple[int, ...]:
    """The open columns a win goes into: those the player scored in, and the next one they open.

    ``started`` (the columns the player has scored in) gains the newly opened column.
    """
    open_games = [g for g, tally in enumerate(tallies) if tally.end_hand is None]
    fresh = next((g for g in open_games if g not in started), None)
    if fresh is not None:
        started.add(fresh)
    return tuple(g for g in open_games if g in started)


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


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """How many games make a match: ``single_game``, ``best_of`` ``games`` (odd),
    ``hollywood`` (one stream, the rule set's Hollywood games), ``fixed_hands`` (``hands`` hands).

    >>> MatchFormat("best_of", games=4)
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: best_of needs an odd number of games (1, 3, 5 ...), not 4
    """

    kind: str = "single_game"
    games: int = 1
    hands: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in MATCH_KINDS:
            raise RuleError(
                gettext_noop("match format must be one of {kinds}, not {kind}"),
                kinds=", ".join(MATCH_KINDS),
                kind=repr(self.kind),
            )
        if self.kind == "best_of" and (self.games < 1 or self.games % 2 == 0):
            raise RuleError(
                gettext_noop("best_of needs an odd number of games (1, 3, 5 ...), not {games}"),
                games=self.games,
            )
        if self.kind != "best_of" and self.games != 1:
            raise RuleError(
                gettext_noop("only best_of plays more than one game stream, not {kind}"),
                kind=self.kind,
            )
        if (self.kind == "fixed_hands") != (self.hands is not None):
            raise RuleError(
                gettext_noop("fixed_hands needs a number of hands, and only fixed_hands takes one")
            )
        if self.hands is not None and self.hands < 1:
            raise RuleError(gettext_noop("hands must be at least 1, not {hands}"), hands=self.hands)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Games of a match, games won by each player, and the winner once decided."""

    games: tuple[GameResult, ...]
    games_won: tuple[int, ...]
    winner: int | None
    finished: bool


def score_match(
    rules: RuleSet,
    match: MatchFormat,
    games: Sequence[Sequence[ScoredHand]],
    *,
    players: int | None = None,
    first_dealer: int = 0,
) -> MatchResult:
    """Score a match: a list of games, each a list of hands (one stream for Hollywood).

    >>> from engine.rules import find_rules
    >>> m = score_match(find_rules("standard"), MatchFormat("best_of", games=3),
    ...                 [[ScoredHand(0, 100)], [ScoredHand(0, 100)]])
    >>> m.games_won, m.winner, m.finished
    ((2, 0), 0, True)
    """
    streams = 1 if match.kind != "best_of" else match.games
    if len(games) > streams:
        raise ScoreError(
            gettext_noop("a {kind} match has at most {streams} game(s), not {games}"),
            kind=match.kind,
            streams=streams,
            games=len(games),
        )
    if match.kind == "hollywood":
        holly = score_hollywood(rules, games[0] if games else (), first_dealer=first_dealer)
        return MatchResult(holly.games, holly.games_won, holly.winner, holly.finished)
    if match.kind == "fixed_hands":
        rules = rules.with_overrides(target=None, max_hands=match.hands)
    results: list[GameResult] = []
    dealer = first_dealer
    need = match.games // 2 + 1
    for number, hands in enumerate(games, start=1):
        if results and not results[-1].finished:
            raise ScoreError(
                gettext_noop("game {number} was started before game {previous} ended"),
                number=number,
                previous=number - 1,
            )
        so_far = _games_won(results, results[0].players if results else 0)
        if so_far and max(so_far) >= need:
            raise ScoreError(
                gettext_noop("game {number} was entered after the match was decided"),
                number=number,
            )
        game = score_game(rules, hands, players=players, first_dealer=dealer)
        results.append(game)
        dealer = game.next_dealer
    n = results[0].players if results else _default_players(rules, players)
    won = _games_won(results, n)
    decided = max(won) >= need
    winner = won.index(max(won)) if decided else None
    return MatchResult(tuple(results), won, winner, decided)


def _games_won(results: Iterable[GameResult], players: int) -> tuple[int, ...]:
    won = [0] * players
    for game in results:
        if game.winner is not None:
            won[game.winner] += 1
    return tuple(won)
