"""Basic Rummy hand scoring (docs/rules.md §7, seed 002).

A hand is entered as who went out, whether they went rummy, and for every other player either the
cards left in their hand or the count of those cards. This module checks what such an entry can
show and scores it; game totals are :func:`engine.game.score_game`'s job. It must not do I/O.

Decisions where the rule texts are silent:

- An integer leftover is the *count* (point value) of the cards left, not the number of cards.
- Every other player holds at least one card (with none they would have gone out) and at most as
  many as were dealt (a player ends each turn with no more cards than the deal).
- Counts are checked against the best the deck could give: one player's count against their
  deal size of the highest cards, all counts together against the highest cards not entered by
  name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from engine.cards import card_value, check_card, format_card, parse_cards
from engine.errors import CardError, RuleError, ScoreError, gettext_noop, joined
from engine.game import ScoredHand
from engine.rules import RuleSet
from engine.scoring import HandOutcome

__all__ = ["RummyHandResult", "score_rummy_hand"]

_RUMMY_MULTIPLIER: Final = 2

Leftover = Sequence[int] | Sequence[str] | str | int


@dataclass(frozen=True, slots=True)
class RummyHandResult:
    """A scored Basic Rummy hand.

    ``counts[p]`` is the value left in player ``p``'s hand (0 for the player who went out) and
    ``cards_left[p]`` the cards when they were entered by name; ``points`` go to ``went_out``.
    """

    players: int
    went_out: int
    rummy: bool
    multiplier: int
    counts: tuple[int, ...]
    cards_left: tuple[tuple[int, ...] | None, ...]
    points: int

    def to_scored_hand(self, *, dealer: int | None = None) -> ScoredHand:
        """This hand as a game entry."""
        return ScoredHand(
            winner=self.went_out, points=self.points, outcome=HandOutcome.KNOCK, dealer=dealer
        )


def score_rummy_hand(
    rules: RuleSet,
    *,
    players: int,
    went_out: int,
    rummy: bool,
    leftovers: Mapping[int, Leftover],
) -> RummyHandResult:
    """Score a Basic Rummy hand: who went out scores every card left, doubled for rummy.

    >>> from engine.rules import find_rules
    >>> r = score_rummy_hand(find_rules("rummy"), players=3, went_out=0, rummy=True,
    ...                      leftovers={1: "KS 5H", 2: 7})
    >>> r.counts, r.points  # (10 + 5 + 7) * 2
    ((0, 15, 7), 44)
    """
    if rules.family != "rummy":
        raise RuleError(
            gettext_noop("score_rummy_hand needs a Basic Rummy rule set, not family '{family}'"),
            family=rules.family,
        )
    deal = rules.deal_size(players)
    if not 0 <= went_out < players:
        raise ScoreError(
            gettext_noop("The player who went out must be 0-{last}, not {went_out}"),
            last=players - 1,
            went_out=went_out,
        )
    extra = sorted(p for p in leftovers if not (isinstance(p, int) and 0 <= p < players))
    if extra:
        raise ScoreError(
            gettext_noop("Leftovers name player(s) not in this {players}-player hand: {extra}"),
            players=players,
            extra=str(extra),
        )
    if leftovers.get(went_out) not in (None, 0, "", (), []):
        raise ScoreError(
            gettext_noop("Player {player} went out and has no cards left"), player=went_out
        )
    missing = [p for p in range(players) if p != went_out and p not in leftovers]
    if missing:
        raise ScoreError(
            gettext_noop("Enter the cards left, or their count, for player(s) {players}"),
            players=joined(gettext_noop("{first}, {rest}"), missing),
        )
    ace_high = rules.ace_high
    counts = [0] * players
    cards_left: list[tuple[int, ...] | None] = [None] * players
    owner: dict[int, int] = {}
    counted: list[int] = []
    for player in range(players):
        if player == went_out:
            continue
        entry = leftovers[player]
        if isinstance(entry, int) and not isinstance(entry, bool):
            counts[player] = entry
            counted.append(player)
            continue
        cards = _read_cards(player, entry)
        if not 1 <= len(cards) <= deal:
            raise ScoreError(
                gettext_noop(
                    "Player {player} has {count} cards left: between 1 and the {deal} dealt"
                ),
                player=player,
                count=len(cards),
                deal=deal,
            )
        for card in cards:
            if card in owner:
                raise CardError(
                    gettext_noop("Card {card} is entered for players {first} and {second}"),
                    card=format_card(card),
                    first=owner[card],
                    second=player,
                )
            owner[card] = player
        cards_left[player] = cards
        counts[player] = sum(card_value(card, ace_high=ace_high) for card in cards)
    free = sorted(
        (card_value(c, ace_high=ace_high) for c in range(52) if c not in owner), reverse=True
    )
    most = sum(free[:deal])
    for player in counted:
        if not 1 <= counts[player] <= most:
            raise ScoreError(
                gettext_noop(
                    "Player {player}'s count {count} is impossible:"
                    " between 1 and {most} for at most {deal} cards"
                ),
                player=player,
                count=counts[player],
                most=most,
                deal=deal,
            )
    together = sum(counts[p] for p in counted)
    most = sum(free[: deal * len(counted)])
    if together > most:
        raise ScoreError(
            gettext_noop(
                "The counts add up to {together}, more than the {most} that {cards} cards"
                " could hold"
            ),
            together=together,
            most=most,
            cards=deal * len(counted),
        )
    multiplier = _RUMMY_MULTIPLIER if rummy and rules.rummy_doubles else 1
    return RummyHandResult(
        players=players,
        went_out=went_out,
        rummy=rummy,
        multiplier=multiplier,
        counts=tuple(counts),
        cards_left=tuple(cards_left),
        points=sum(counts) * multiplier,
    )


def _read_cards(player: int, entry: Leftover) -> tuple[int, ...]:
    if isinstance(entry, str):
        return parse_cards(entry)
    if isinstance(entry, int) or not isinstance(entry, Sequence):
        raise ScoreError(
            gettext_noop("Player {player}: give cards or a count, not {entry}"),
            player=player,
            entry=repr(entry),
        )
    if all(isinstance(item, str) for item in entry):
        return parse_cards([str(item) for item in entry])
    cards = tuple(check_card(item) for item in entry)  # type: ignore[arg-type]
    if len(set(cards)) != len(cards):
        raise CardError(gettext_noop("Player {player}: a card is entered twice"), player=player)
    return cards
