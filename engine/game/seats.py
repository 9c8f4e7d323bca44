"""Who deals and who plays each hand: dealer rotation, the three-player box, dealer-out seats.

Part of :mod:`engine.game`. After a dead hand the same dealer deals again (§3.5); otherwise the
rule set's ``next_dealer``. In the box the box deals, and the box is always the last hand's
winner; at a dealer-out table the deal rotates and the dealer sits out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.errors import ScoreError, gettext_noop
from engine.game.hands import ScoredHand
from engine.rules import RuleSet

__all__ = ["BoxRoles", "dealer_out_seats", "table_seats", "three_box_roles"]


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
                    "Box, captain and sitter must be players 0, 1 and 2 once each,"
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
            gettext_noop("Player {player} is the sitter and cannot win the hand"), player=winner
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
                gettext_noop("Hand {number}: {reason}"), number=number, reason=exc.message
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
    check_first_dealer(first_dealer, players)
    dealer = first_dealer
    out = [(dealer, tuple(p for p in range(players) if p != dealer))]
    for number, entry in enumerate(winners, start=1):
        winner = entry.winner if isinstance(entry, ScoredHand) else entry
        if winner == dealer:
            raise ScoreError(
                gettext_noop("Hand {number}: player {player} dealt and sat out, so cannot win"),
                number=number,
                player=winner,
            )
        if winner is not None:
            dealer = (dealer + 1) % players
        out.append((dealer, tuple(p for p in range(players) if p != dealer)))
    return tuple(out)


def check_first_dealer(first_dealer: int, players: int) -> None:
    if not 0 <= first_dealer < players:
        raise ScoreError(
            gettext_noop("First dealer must be a player 0-{last}, not {dealer}"),
            last=players - 1,
            dealer=first_dealer,
        )


_FIXED_SEATS = {"two": 2, "three_box": 3, "three_dealer_out": 3, "partnership": 4}


def table_seats(rules: RuleSet) -> tuple[int, int]:
    """The fewest and the most people a table of ``rules`` seats (a partnership seats four).

    Basic Rummy is for two to six and Gem Rummy for two or three, whatever their table; every
    other table seats a fixed number.

    >>> from engine.rules import find_rules
    >>> table_seats(find_rules("standard")), table_seats(find_rules("partnership"))
    ((2, 2), (4, 4))
    """
    if rules.family == "rummy":
        return 2, 6
    if rules.family == "gem":
        return 2, 3
    seats = _FIXED_SEATS[rules.table]
    return seats, seats


def default_players(rules: RuleSet, players: int | None) -> int:
    if players is None:
        if rules.table == "open":
            raise ScoreError(gettext_noop("Give the number of players for an 'open' table"))
        return 3 if rules.table in ("three_box", "three_dealer_out") else 2
    expected = {"two": 2, "partnership": 2, "three_box": 3, "three_dealer_out": 3}.get(rules.table)
    if expected is not None and players != expected:
        raise ScoreError(
            gettext_noop("A '{table}' game has {expected} players (teams), not {players}"),
            table=rules.table,
            expected=expected,
            players=players,
        )
    low, high = table_seats(rules)
    if expected is None and not low <= players <= high:
        raise ScoreError(
            gettext_noop("{family} at an open table is for {low}-{high} players, not {players}"),
            family=rules.family,
            low=low,
            high=high,
            players=players,
        )
    return players


def dealer_after(rules: RuleSet, players: int, dealer: int, hand: ScoredHand) -> int:
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
