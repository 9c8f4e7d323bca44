"""A confirmation reads its match once under the lock, and keeps the same books as reading twice."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Game, Match
from scoring.selectors import state as state_selectors
from scoring.services import common, entry_from_dict, hand_confirm, hand_submit
from scoring.services import hands as hand_services
from scoring.services import matches as match_services
from tests.scoring.helpers import live_match, seat_actor

pytestmark = pytest.mark.django_db

# Dee (seat 1) enters every hand and Cleo (seat 0) confirms, until the game ends at 100:
# Dee gin 25 + 40 = 65, Cleo knock 30 - 4 = 26, Dee knock 20 - 5 = 15, Dee gin 25 + 30 = 55
# (Dee 135 to 26: the game is over; game bonus 100, boxes 3 x 25 to 1 x 25).
HANDS = [
    {"knocker": 1, "outcome": "gin", "defender_deadwood": 40},
    {"knocker": 0, "outcome": "knock", "knocker_deadwood": 4, "defender_deadwood": 30},
    {"knocker": 1, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 20},
    {"knocker": 1, "outcome": "gin", "defender_deadwood": 30},
]


def _play(match: Match) -> list[Any]:
    """Enter each hand from Dee's phone, confirm it from Cleo's; the books after each."""
    books = []
    for data in HANDS:
        sub = hand_submit(match=match, actor=seat_actor(match, 1), entry=entry_from_dict(data))
        hand_confirm(submission=sub, actor=seat_actor(match, 0))
        match.refresh_from_db()
        games = [
            (g.number, g.status, g.winner_position, g.margin, g.result)
            for g in Game.objects.filter(match=match).order_by("number")
        ]
        winner = match.seats.get(player_id=match.winner_id).position if match.winner_id else None
        books.append((match.status, winner, match.summary, games))
    return books


def test_a_confirmation_reads_the_match_once(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[int] = []
    real = state_selectors.match_prefetched

    def counting(*, match_id: int) -> Match:
        reads.append(match_id)
        return real(match_id=match_id)

    monkeypatch.setattr(common, "match_prefetched", counting)
    monkeypatch.setattr(match_services, "match_prefetched", counting)
    match = live_match()
    sub = hand_submit(match=match, actor=seat_actor(match, 1), entry=entry_from_dict(HANDS[0]))
    reads.clear()
    hand_confirm(submission=sub, actor=seat_actor(match, 0))
    assert reads == [match.pk]


def test_the_books_are_the_same_as_when_the_match_is_read_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole game by the in-memory copy, then again with the copy refused (a second read):
    every game row and the match's result agree after every confirmation, the last one
    closing the game with its bonuses."""
    once = _play(live_match())
    monkeypatch.setattr(hand_services, "_mirrored", lambda *args: None)
    twice = _play(live_match())
    assert once == twice
    assert [book[0] for book in once] == ["playing"] * 3 + [Match.Status.FINISHED]
    _, winner, summary, games = once[-1]
    assert (winner, summary["winner"], summary["winner_name"]) == (1, 1, "Dee")
    (number, game_status, game_winner, margin, result) = games[0]
    assert (number, game_status, game_winner) == (1, Game.Status.FINISHED, 1)
    assert result["totals"] == [26, 135]
    assert result["bonuses"]["game"] == [0, 100]
    assert result["bonuses"]["box"] == [25, 75]
    assert result["final_totals"] == [51, 310]
    assert margin == 310 - 51
