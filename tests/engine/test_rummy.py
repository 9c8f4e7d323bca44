"""Basic Rummy hands (docs/rules.md §7): leftovers by cards or counts, rummy doubling, ace 15,
checks."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.errors import CardError, RuleError, ScoreError
from engine.game import ScoredHand, score_game
from engine.rules import find_rules
from engine.rummy import score_rummy_hand

RUMMY = find_rules("rummy")


def test_going_out_scores_every_card_left() -> None:
    # 2 players (10 cards each): player 1 holds K♠ 5♥ 2♦ = 10 + 5 + 2 = 17.
    r = score_rummy_hand(RUMMY, players=2, went_out=0, rummy=False, leftovers={1: "KS 5H 2D"})
    assert (r.counts, r.points, r.multiplier) == ((0, 17), 17, 1)
    assert r.cards_left == (None, parse_cards("KS 5H 2D"))
    assert r.to_scored_hand(dealer=1) == ScoredHand(winner=0, points=17, dealer=1)


def test_rummy_doubles_the_hand() -> None:
    # 4 players: 12 + 7 + (A♠ 1 + Q♣ 10 = 11) = 30, doubled for rummy = 60.
    r = score_rummy_hand(
        RUMMY, players=4, went_out=2, rummy=True, leftovers={0: 12, 1: 7, 3: ["AS", "QC"]}
    )
    assert (r.counts, r.points, r.multiplier) == ((12, 7, 0, 11), 60, 2)
    # A club that does not double rummy.
    plain = RUMMY.with_overrides(rummy_doubles=False)
    r = score_rummy_hand(plain, players=2, went_out=0, rummy=True, leftovers={1: 9})
    assert r.points == 9


def test_ace_high_counts_fifteen() -> None:
    # Ace high: A♠ A♥ = 15 + 15 = 30, with 3♦ = 33.
    rules = RUMMY.with_overrides(ace_high=True)
    r = score_rummy_hand(rules, players=3, went_out=1, rummy=False, leftovers={0: "AS AH", 2: [41]})
    assert r.counts == (30, 0, 3)
    assert r.points == 33


def test_leftover_checks() -> None:
    def hand(players: int = 3, went_out: int = 0, **leftovers: object) -> None:
        score_rummy_hand(
            RUMMY,
            players=players,
            went_out=went_out,
            rummy=False,
            leftovers={int(k[1:]): v for k, v in leftovers.items()},  # type: ignore[misc]
        )

    # 3 players get 7 cards: 8 left is impossible.
    with pytest.raises(ScoreError, match="Player 1 has 8 cards left: between 1 and the 7 dealt"):
        hand(p1="AS 2S 3S 4S 5S 6S 7S 8S", p2=5)
    with pytest.raises(ScoreError, match="Player 1 has 0 cards left"):
        hand(p1=[], p2=5)
    with pytest.raises(CardError, match="Card KS is entered for players 1 and 2"):
        hand(p1="KS", p2="KS QS")
    # Seven cards hold at most 4 × 10 ... 7 × 10 = 70.
    with pytest.raises(ScoreError, match="Player 1's count 71 is impossible: between 1 and 70"):
        hand(p1=71, p2=5)
    with pytest.raises(ScoreError, match="Player 2's count 0 is impossible"):
        hand(p1=5, p2=0)
    # Five players (6 cards each): 4 × 60 = 240 > the 16 ten-cards + ... the deck can give.
    with pytest.raises(ScoreError, match="The counts add up to 240, more than the"):
        hand(players=5, p1=60, p2=60, p3=60, p4=60)
    with pytest.raises(
        ScoreError, match="Enter the cards left, or their count, for player\\(s\\) 2"
    ):
        hand(p1=5)
    with pytest.raises(ScoreError, match="Player 0 went out and has no cards left"):
        hand(p0=3, p1=5, p2=5)
    with pytest.raises(ScoreError, match="not in this 3-player hand: \\[5\\]"):
        hand(p1=5, p2=5, p5=5)
    with pytest.raises(ScoreError, match="The player who went out must be 0-2, not 3"):
        hand(went_out=3, p1=5, p2=5)
    with pytest.raises(ScoreError, match=r"give cards or a count, not 2\.5"):
        hand(p1=2.5, p2=5)
    with pytest.raises(CardError, match="Player 1: a card is entered twice"):
        hand(p1=[0, 0], p2=5)
    with pytest.raises(CardError, match="Cannot read card 'XX'"):
        hand(p1="XX", p2=5)
    with pytest.raises(RuleError, match="2 to 6 players, not 7"):
        hand(players=7)
    with pytest.raises(RuleError, match="needs a Basic Rummy rule set"):
        score_rummy_hand(find_rules("standard"), players=2, went_out=0, rummy=False, leftovers={})


def test_rummy_game_to_150() -> None:
    # 3 players; hands 60, 50, 95: player 0 reaches 155 in hand 3 and wins (no bonuses).
    hands = [
        score_rummy_hand(RUMMY, players=3, went_out=0, rummy=False, leftovers={1: 30, 2: 30}),
        score_rummy_hand(RUMMY, players=3, went_out=1, rummy=False, leftovers={0: 20, 2: 30}),
        score_rummy_hand(RUMMY, players=3, went_out=0, rummy=False, leftovers={1: 50, 2: 45}),
    ]
    g = score_game(RUMMY, [h.to_scored_hand() for h in hands], players=3)
    assert (g.winner, g.final_totals, g.dealers) == (0, (155, 50, 0), (0, 1, 2))
