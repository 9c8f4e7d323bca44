"""Single and double elimination through the API: seeding, byes, advancing, drops, champion."""

from __future__ import annotations

import pytest

from scoring.models import Match
from tests.tournaments.helpers import api_event, open_matches, play, seated
from tournaments.models import Event
from tournaments.services import match_finished

pytestmark = pytest.mark.django_db


def _elim(director_api, club, players, kind="single_elim", **options):
    return api_event(director_api, club, players, kind, **options)


def _play_out(event_id, winner=min, limit=100):
    for _ in range(limit):
        ready = open_matches(event_id)
        if not ready:
            return
        play(ready[0], winner=winner(seated(ready[0])))
    raise AssertionError("the bracket never finished")


def test_single_elimination_with_byes_to_top_seeds(director_api, club, make_players):
    players = make_players(6)
    ids = [p.pk for p in players]
    event = _elim(director_api, club, players, third_place=True)
    r = director_api.post(f"/api/events/{event['id']}/rounds/")
    assert r.status_code == 201
    first = {frozenset(s["player"] for s in m["seats"]) for m in r.json()["matches"]}
    assert first == {frozenset((ids[3], ids[4])), frozenset((ids[2], ids[5]))}
    again = director_api.post(f"/api/events/{event['id']}/rounds/")
    assert again.status_code == 409
    assert "advances by itself" in again.json()["detail"]
    bracket = director_api.get(f"/api/events/{event['id']}/bracket/").json()
    statuses = [m["status"] for m in bracket["matches"]]
    assert statuses.count("bye") == 2
    assert bracket["champion"] is None
    _play_out(event["id"])
    bracket = director_api.get(f"/api/events/{event['id']}/bracket/").json()
    assert bracket["champion"]["player"] == ids[0]
    third = next(m for m in bracket["matches"] if m["section"] == "third_place")
    assert third["status"] == "played"
    assert third["winner"]["player"] == ids[2]
    assert Event.objects.get(pk=event["id"]).status == "finished"


def test_advance_is_idempotent(director_api, club, make_players):
    players = make_players(4)
    event = _elim(director_api, club, players)
    director_api.post(f"/api/events/{event['id']}/rounds/")
    semis = open_matches(event["id"])
    for m in semis:
        play(m, winner=min(seated(m)))
    count = Match.objects.filter(event_id=event["id"]).count()
    for m in semis:
        match_finished(match=m)
        match_finished(match=m)
    assert Match.objects.filter(event_id=event["id"]).count() == count == 3
    final = open_matches(event["id"])[0]
    assert set(seated(final)) == {players[0].pk, players[1].pk}
    assert final.round.number == 2
    assert final.bracket_key == "3"


def test_drop_sends_the_opponent_through(director_api, club, make_players):
    players = make_players(4)
    event = _elim(director_api, club, players)
    director_api.post(f"/api/events/{event['id']}/rounds/")
    m1 = next(m for m in open_matches(event["id"]) if players[0].pk in seated(m))
    play(m1, winner=players[0].pk)
    regs = director_api.get(f"/api/events/{event['id']}/registrations/").json()["results"]
    reg = next(r for r in regs if r["player"]["id"] == players[0].pk)
    director_api.post(f"/api/events/{event['id']}/registrations/{reg['id']}/drop/")
    other = open_matches(event["id"])
    assert len(other) == 1  # the other semi-final, still to play
    play(other[0], winner=players[1].pk)
    final = Match.objects.get(event_id=event["id"], bracket_key="3")
    assert final.decision == "walkover"
    assert final.winner_id == players[1].pk
    bracket = director_api.get(f"/api/events/{event['id']}/bracket/").json()
    assert bracket["champion"]["player"] == players[1].pk


def test_double_elimination_with_reset(director_api, club, make_players):
    players = make_players(4)
    ids = [p.pk for p in players]
    event = _elim(director_api, club, players, kind="double_elim")
    director_api.post(f"/api/events/{event['id']}/rounds/")
    # seeds win everything until the grand final, which the losers'-bracket champion wins
    for _ in range(20):
        ready = open_matches(event["id"])
        if not ready:
            break
        m = ready[0]
        s = seated(m)
        gf = m.bracket_key == "6"
        play(m, winner=max(s) if gf else min(s))
    bracket = director_api.get(f"/api/events/{event['id']}/bracket/").json()
    sections = [m["section"] for m in bracket["matches"]]
    assert sections.count("losers") == 2
    assert "grand_final_reset" in sections
    reset = next(m for m in bracket["matches"] if m["section"] == "grand_final_reset")
    assert reset["status"] == "played"
    assert bracket["champion"]["player"] == ids[0]
    rounds = [
        m.round.number for m in Match.objects.filter(event_id=event["id"]).select_related("round")
    ]
    assert max(rounds) >= 4


def test_bracket_before_draw_is_404(director_api, club, make_players):
    event = _elim(director_api, club, make_players(3))
    assert director_api.get(f"/api/events/{event['id']}/bracket/").status_code == 404
