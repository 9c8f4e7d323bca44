"""Club-night and league standings count every table: partnerships and tables of three too.

Matches are started and played through scoring's real API routes; the standings are rebuilt by
the real service. A partnership is won by a team (both partners credited); a table of three is
a match win for the winner and a loss for the others, the game margins being game points.
"""

from __future__ import annotations

import pytest

from scoring.models import Game, Match
from tournaments.models import Event, Standing
from tournaments.selectors import league_table, player_matches
from tournaments.services import event_create, registration_create, standings_recompute

pytestmark = pytest.mark.django_db


def _board(knocker: int, defender: int, k: int, d: int, outcome: str = "knock") -> dict:
    return {
        "knocker": knocker,
        "defender": defender,
        "outcome": outcome,
        "knocker_deadwood": k,
        "defender_deadwood": d,
    }


@pytest.fixture
def night(club, director, make_players):
    league = event_create(club_id=club.pk, name="League", kind=Event.Kind.LEAGUE, user=director)
    event = event_create(
        club_id=club.pk,
        name="Night",
        kind=Event.Kind.CLUB_NIGHT,
        confirmation=Event.Confirmation.NONE,
        league=league,
        user=director,
    )
    players = make_players(7)
    for p in players:
        registration_create(event=event, player=p)
    return league, event, players


def _start(director_api, event, players, preset, **extra):
    body = {
        "event": event.pk,
        "players": [p.pk for p in players],
        "rules": preset,
        "match_format": {"kind": "fixed_hands", "hands": 1},
        **extra,
    }
    response = director_api.post("/api/matches/", body, format="json")
    assert response.status_code == 201, response.json()
    return Match.objects.get(pk=response.json()["id"])


def _hand(director_api, match, **entry):
    response = director_api.post(f"/api/matches/{match.pk}/hands/", entry, format="json")
    assert response.status_code == 201, response.json()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return response.json()


def _values(event):
    return {s.player_id: s.values for s in Standing.objects.filter(event=event)}


def test_a_partnership_credits_both_partners(night, director_api):
    _league, event, players = night
    a1, b1, a2, b2 = players[:4]  # teams 0, 1, 0, 1 by seat
    match = _start(director_api, event, [a1, b1, a2, b2], "partnership")
    hand = _hand(
        director_api,
        match,
        boards=[_board(0, 1, 5, 25), _board(3, 2, 0, 12, "gin")],  # team 1 wins by 17
    )
    assert (hand["winner_team"], hand["winner"]) == (1, 1)
    assert (match.winner_id, match.winner_team) == (None, 1)
    game = Game.objects.get(match=match)
    assert (game.winner_position, game.winner_team) == (None, 1)
    margin = game.margin
    assert margin
    assert margin > 0
    standings_recompute(event=event)
    values = _values(event)
    for p in (b1, b2):
        assert (values[p.pk]["won"], values[p.pk]["match_points"]) == (1, 1)
        assert (values[p.pk]["hands_won"], values[p.pk]["game_points"]) == (1, margin)
    for p in (a1, a2):
        assert (values[p.pk]["lost"], values[p.pk]["match_points"]) == (1, 0)
        assert (values[p.pk]["hands_won"], values[p.pk]["game_points"]) == (0, -margin)
    ranked = list(Standing.objects.filter(event=event).order_by("rank"))
    assert {ranked[0].player_id, ranked[1].player_id} == {b1.pk, b2.pk}
    assert [r.result for r in player_matches(player=b2)] == ["won"]
    assert [r.result for r in player_matches(player=a2)] == ["lost"]
    assert player_matches(player=b2)[0].partners == (b1,)


def test_a_table_of_three_is_a_win_for_the_winner_and_a_loss_for_the_others(
    night, director_api, client
):
    league, event, players = night
    x, y, z = players[4:]
    match = _start(director_api, event, [x, y, z], "rummy")
    _hand(director_api, match, went_out=0, leftovers={"1": 12, "2": 7})
    margin = Game.objects.get(match=match).margin
    assert margin
    assert margin > 0
    standings_recompute(event=event)
    values = _values(event)
    assert (values[x.pk]["won"], values[x.pk]["played"], values[x.pk]["game_points"]) == (
        1,
        1,
        margin,
    )
    for p in (y, z):
        assert (values[p.pk]["lost"], values[p.pk]["played"], values[p.pk]["byes"]) == (1, 1, 0)
        assert values[p.pk]["game_points"] == 0
    assert Standing.objects.get(event=event, player=x).rank == 1
    table = {line.player: line.values for line in league_table(league=league)}
    assert (table[x.pk]["won"], table[y.pk]["lost"], table[z.pk]["lost"]) == (1, 1, 1)
    page = client.get(f"/events/{event.pk}/")
    assert page.status_code == 200
    assert x.name in page.content.decode()


def test_the_box_bonuses_decide_the_winner_and_the_game_points(night, director_api):
    """Seed 000: the highest final total wins, so the player who reached 100 can lose the game.

    Seat 0 wins six knocks of 15 (90); seat 1 then wins one hand of 100 and ends the game:
    90 + 6 × 25 = 240 against 100 + 100 + 25 = 225. Seat 0 wins the match by 15, and the game
    points are +15 and −15 (never a negative margin for the winner).
    """
    _league, event, players = night
    a, b = players[:2]
    body = {
        "event": event.pk,
        "players": [a.pk, b.pk],
        "rules": "standard",
        "match_format": {"kind": "single_game"},
    }
    response = director_api.post("/api/matches/", body, format="json")
    assert response.status_code == 201, response.json()
    match = Match.objects.get(pk=response.json()["id"])
    url = f"/api/matches/{match.pk}/hands/"
    for _ in range(6):
        knock = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 20}
        assert director_api.post(url, knock, format="json").status_code == 201
    gin = {"knocker": 1, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 75}
    assert director_api.post(url, gin, format="json").status_code == 201
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    game = Game.objects.get(match=match)
    assert (game.winner_position, game.margin) == (0, 15)
    assert game.result["final_totals"] == [240, 225]
    assert match.winner_id == a.pk
    standings_recompute(event=event)
    values = _values(event)
    assert (values[a.pk]["won"], values[a.pk]["game_points"]) == (1, 15)
    assert (values[b.pk]["lost"], values[b.pk]["game_points"]) == (1, -15)
