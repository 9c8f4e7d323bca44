"""Round robins through the API: Berger rounds, double cycles, groups, drops, playoff cut."""

from __future__ import annotations

import pytest

from scoring.models import Match
from tests.tournaments.helpers import api_event, open_matches, play, seated
from tournaments.models import Event
from tournaments.services import standings_recompute

pytestmark = pytest.mark.django_db


def _rr(director_api, club, players, **options):
    return api_event(director_api, club, players, "round_robin", **options)


def _pair_all(director_api, event_id, winner=min):
    number = 0
    while True:
        r = director_api.post(f"/api/events/{event_id}/rounds/")
        if r.status_code != 201:
            return number, r
        number += 1
        for m in open_matches(event_id, number):
            play(m, winner=winner(seated(m)))


def test_single_round_robin_everyone_meets_once(director_api, club, make_players):
    players = make_players(5)
    event = _rr(director_api, club, players)
    rounds, last = _pair_all(director_api, event["id"])
    assert rounds == 5
    assert last.status_code == 409
    assert "Every round" in last.json()["detail"]
    games = [
        frozenset(seated(m))
        for m in Match.objects.filter(event_id=event["id"])
        if len(seated(m)) == 2
    ]
    assert len(games) == 10 == len(set(games))
    byes = Match.objects.filter(event_id=event["id"], decision="bye").count()
    assert byes == 5
    standings_recompute(event=Event.objects.get(pk=event["id"]))
    rows = director_api.get(f"/api/events/{event['id']}/standings/").json()["rows"]
    assert [r["player"] for r in rows] == [p.pk for p in players]
    assert rows[0]["values"]["match_points"] == 4  # byes score 0 in a round robin
    assert "head_to_head" in rows[0]["values"]


def test_double_round_robin_swaps_seats(director_api, club, make_players):
    players = make_players(4)
    event = _rr(director_api, club, players, double_round_robin=True)
    rounds, _ = _pair_all(director_api, event["id"])
    assert rounds == 6
    firsts = [tuple(seated(m)) for m in Match.objects.filter(event_id=event["id"])]
    assert len(firsts) == 12
    assert len(set(firsts)) == 12


def test_groups_and_playoff_cut(director_api, club, make_players):
    players = make_players(8)
    event = _rr(director_api, club, players, groups=2, playoff_cut=2)
    rounds, _ = _pair_all(director_api, event["id"])
    assert rounds == 3
    stored = Event.objects.get(pk=event["id"])
    assert [len(g) for g in stored.draw["groups"]] == [4, 4]
    for m in Match.objects.filter(event_id=event["id"]):
        s = seated(m)
        assert any(set(s) <= set(g) for g in stored.draw["groups"])
    standings_recompute(event=stored)
    rows = director_api.get(f"/api/events/{event['id']}/standings/").json()["rows"]
    assert {r["values"]["group"] for r in rows} == {1, 2}
    r = director_api.post(f"/api/events/{event['id']}/playoff/")
    assert r.status_code == 201, r.json()
    playoff = r.json()
    assert playoff["kind"] == "single_elim"
    regs = director_api.get(f"/api/events/{playoff['id']}/registrations/").json()["results"]
    groups = stored.draw["groups"]
    winners = [min(g) for g in groups]
    assert [x["player"]["id"] for x in regs][:2] == winners
    assert all(x["status"] == "checked_in" for x in regs)
    assert len(regs) == 4
    bracket = director_api.post(f"/api/events/{playoff['id']}/rounds/")
    assert bracket.status_code == 201
    assert len(bracket.json()["matches"]) == 2


def test_a_playoff_cut_bigger_than_a_group_is_refused(director_api, club, make_players):
    players = make_players(5)
    event = _rr(director_api, club, players, groups=2, playoff_cut=3)
    _pair_all(director_api, event["id"])
    standings_recompute(event=Event.objects.get(pk=event["id"]))
    r = director_api.post(f"/api/events/{event['id']}/playoff/")
    assert r.status_code == 409
    assert r.json()["detail"] == "Group 2 has fewer players than the playoff cut of 3."
    assert Event.objects.count() == 1


def test_dropped_player_gives_future_opponents_walkovers(director_api, club, make_players):
    players = make_players(4)
    event = _rr(director_api, club, players)
    director_api.post(f"/api/events/{event['id']}/rounds/")
    for m in open_matches(event["id"], 1):
        play(m, winner=min(seated(m)))
    reg = director_api.get(f"/api/events/{event['id']}/registrations/").json()["results"][0]
    director_api.post(f"/api/events/{event['id']}/registrations/{reg['id']}/drop/")
    rnd2 = director_api.post(f"/api/events/{event['id']}/rounds/").json()
    mine = [m for m in rnd2["matches"] if players[0].pk in {s["player"] for s in m["seats"]}]
    assert len(mine) == 1
    assert mine[0]["decision"] == "walkover"
    assert mine[0]["winner"] != players[0].pk
    assert mine[0]["status"] == "finished"


def test_round_robin_takes_no_late_entries(director_api, club, make_players):
    players = make_players(4)
    event = _rr(director_api, club, players)
    director_api.post(f"/api/events/{event['id']}/rounds/")
    late = make_players(1)[0]
    r = director_api.post(
        f"/api/events/{event['id']}/registrations/", {"player": late.pk}, format="json"
    )
    assert r.status_code == 409
