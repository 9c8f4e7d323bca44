"""Swiss events through the API: pairing, tables, byes, drops, late entries, re-pairing."""

from __future__ import annotations

import pytest

from scoring.models import Match
from tests.clubs.helpers import page_client
from tests.tournaments.helpers import open_matches, play, seated
from tournaments.models import Event, Round
from tournaments.services import round_pair_execute, standings_recompute

pytestmark = pytest.mark.django_db


def _swiss(director_api, club, players, *, checked_in=True, **extra):
    body = {"club": club.pk, "name": "Swiss", "kind": "swiss", "rounds_planned": 5, **extra}
    event = director_api.post("/api/events/", body, format="json").json()
    for k, p in enumerate(players, start=1):
        r = director_api.post(
            f"/api/events/{event['id']}/registrations/",
            {"player": p.pk, "seed": k, "checked_in": checked_in},
            format="json",
        )
        assert r.status_code == 201, r.json()
    return event


def _pair(director_api, event_id, expect=201):
    r = director_api.post(f"/api/events/{event_id}/rounds/")
    assert r.status_code == expect, r.json()
    return r.json()


def _play_round(event_id, number, *, higher_wins=True):
    for m in open_matches(event_id, number):
        a, b = seated(m)
        play(m, winner=min(a, b) if higher_wins else max(a, b))


def test_round_one_top_half_against_bottom_half_with_bye(director_api, club, make_players):
    players = make_players(7)
    event = _swiss(director_api, club, players, options={"pair_by": "seed"})
    entered = Event.objects.get(pk=event["id"]).results_seq  # each registration is a new line
    rnd = _pair(director_api, event["id"])
    assert rnd["number"] == 1
    assert rnd["status"] == "paired"
    games = [m for m in rnd["matches"] if m["decision"] == "played"]
    byes = [m for m in rnd["matches"] if m["decision"] == "bye"]
    ids = [p.pk for p in players]
    pairs = {frozenset(s["player"] for s in m["seats"]) for m in games}
    assert pairs == {
        frozenset((ids[0], ids[3])),
        frozenset((ids[4], ids[1])),
        frozenset((ids[2], ids[5])),
    }
    assert [m["table_number"] for m in games] == [1, 2, 3]
    assert len(byes) == 1
    assert byes[0]["seats"][0]["player"] == ids[6]
    assert byes[0]["status"] == "finished"
    assert Event.objects.get(pk=event["id"]).status == "running"
    assert Event.objects.get(pk=event["id"]).results_seq == entered + 1  # the bye is a result


def test_only_checked_in_players_are_paired(director_api, club, make_players):
    players = make_players(4)
    event = _swiss(director_api, club, players, checked_in=False)
    r = director_api.post(f"/api/events/{event['id']}/rounds/")
    assert r.status_code == 409
    assert "checked-in" in r.json()["detail"]


def test_full_event_no_rematches_one_bye_each_and_standings(director_api, club, make_players):
    players = make_players(9)
    event = _swiss(director_api, club, players)
    seen: set[frozenset[int]] = set()
    bye_count: dict[int, int] = {}
    for number in range(1, 6):
        _pair(director_api, event["id"])
        for m in Match.objects.filter(event_id=event["id"], round__number=number):
            s = seated(m)
            if len(s) == 2:
                assert frozenset(s) not in seen
                seen.add(frozenset(s))
            else:
                bye_count[s[0]] = bye_count.get(s[0], 0) + 1
        _play_round(event["id"], number)
    assert max(bye_count.values()) == 1
    r = _pair(director_api, event["id"], expect=409)
    assert "planned rounds" in r["detail"]
    standings_recompute(event=Event.objects.get(pk=event["id"]))
    body = director_api.get(f"/api/events/{event['id']}/standings/").json()
    assert body["stale"] is False
    assert body["as_of"] == body["results_seq"]
    top = body["rows"][0]
    assert top["player"] == players[0].pk
    assert top["values"]["match_points"] == 5
    assert body["tiebreaks"][:3] == ["match_points", "buchholz_cut1", "buchholz"]
    assert {
        "buchholz",
        "sonneborn_berger",
        "game_points",
        "byes",
        "hands_won",
        "gins",
        "lots",
        "played",
        "won",
        "lost",
    } <= set(top["values"])
    assert top["values"]["gins"] == 5
    assert top["values"]["hands_won"] == 10
    assert top["values"]["game_points"] == 150
    assert sum(r["values"]["byes"] for r in body["rows"]) == 5


def test_next_round_waits_for_results(director_api, club, make_players):
    event = _swiss(director_api, club, make_players(4))
    _pair(director_api, event["id"])
    r = _pair(director_api, event["id"], expect=409)
    assert "without a final result" in r["detail"]


def test_repair_only_before_results(director_api, club, make_players):
    players = make_players(5)
    event = _swiss(director_api, club, players)
    _pair(director_api, event["id"])
    url = f"/api/events/{event['id']}/rounds/1/repair/"
    again = director_api.post(url)
    assert again.status_code == 200
    assert again.json()["status"] == "paired"
    assert Match.objects.filter(event_id=event["id"]).count() == 3  # two games and a bye
    play(open_matches(event["id"], 1)[0], winner=players[0].pk)
    r = director_api.post(url)
    assert r.status_code == 409
    assert "Results exist" in r.json()["detail"]


def test_requested_bye_and_bye_points(director_api, club, make_players):
    players = make_players(5)
    body = {
        "club": club.pk,
        "name": "S",
        "kind": "swiss",
        "options": {"bye_points": 0.5, "requested_bye_points": 0.25},
    }
    event = director_api.post("/api/events/", body, format="json").json()
    for k, p in enumerate(players):
        director_api.post(
            f"/api/events/{event['id']}/registrations/",
            {"player": p.pk, "checked_in": True, "requested_byes": [1] if k == 0 else []},
            format="json",
        )
    rnd = _pair(director_api, event["id"])
    byes = {
        m["seats"][0]["player"]: m["summary"]["bye"]
        for m in rnd["matches"]
        if m["decision"] == "bye"
    }
    assert byes[players[0].pk] == "requested"
    assert list(byes.values()).count("pairing") == 0  # 4 left: even
    _play_round(event["id"], 1)
    standings_recompute(event=Event.objects.get(pk=event["id"]))
    rows = {
        r["player"]: r
        for r in director_api.get(f"/api/events/{event['id']}/standings/").json()["rows"]
    }
    assert rows[players[0].pk]["values"]["match_points"] == 0.25


def test_drop_gives_walkover_and_leaves_player_out(director_api, club, make_players):
    players = make_players(6)
    event = _swiss(director_api, club, players)
    _pair(director_api, event["id"])
    victim = players[0]
    match = next(m for m in open_matches(event["id"], 1) if victim.pk in seated(m))
    opponent = next(p for p in seated(match) if p != victim.pk)
    reg = next(
        r
        for r in director_api.get(f"/api/events/{event['id']}/registrations/").json()["results"]
        if r["player"]["id"] == victim.pk
    )
    director_api.post(f"/api/events/{event['id']}/registrations/{reg['id']}/drop/")
    match.refresh_from_db()
    assert (match.status, match.decision, match.winner_id) == ("finished", "walkover", opponent)
    _play_round(event["id"], 1)
    rnd2 = _pair(director_api, event["id"])
    paired = {s["player"] for m in rnd2["matches"] for s in m["seats"]}
    assert victim.pk not in paired
    assert len(paired) == 5
    standings_recompute(event=Event.objects.get(pk=event["id"]))
    rows = {
        r["player"]: r
        for r in director_api.get(f"/api/events/{event['id']}/standings/").json()["rows"]
    }
    assert rows[victim.pk]["values"]["dropped"] is True
    assert rows[opponent]["values"]["won"] == 1
    assert rows[opponent]["values"]["played"] == 0


def test_late_entry_gets_late_points_for_missed_rounds(director_api, club, make_players):
    players = make_players(4)
    event = _swiss(director_api, club, players, options={"late_entry_points": 0.5})
    _pair(director_api, event["id"])
    _play_round(event["id"], 1)
    late = make_players(1)[0]
    r = director_api.post(
        f"/api/events/{event['id']}/registrations/",
        {"player": late.pk, "checked_in": True},
        format="json",
    )
    assert r.json()["joined_round"] == 2
    rnd2 = _pair(director_api, event["id"])
    assert late.pk in {s["player"] for m in rnd2["matches"] for s in m["seats"]}
    standings_recompute(event=Event.objects.get(pk=event["id"]))
    rows = {
        r["player"]: r
        for r in director_api.get(f"/api/events/{event['id']}/standings/").json()["rows"]
    }
    assert rows[late.pk]["values"]["match_points"] == 0.5  # round 1 missed; round 2 unplayed


def test_forbidden_pairs_and_same_family(director_api, club, make_players):
    a, b, c, d = make_players(4)
    a.family = b.family = "Park"
    a.save()
    b.save()
    event = _swiss(
        director_api, club, [a, b, c, d], options={"pair_by": "seed", "forbid_family": "hard"}
    )
    director_api.post(
        f"/api/events/{event['id']}/forbidden-pairings/",
        {"player_a": a.pk, "player_b": c.pk},
        format="json",
    )
    rnd = _pair(director_api, event["id"])
    pairs = {frozenset(s["player"] for s in m["seats"]) for m in rnd["matches"]}
    assert pairs == {frozenset((a.pk, d.pk)), frozenset((b.pk, c.pk))}


def test_impossible_pairing_says_so_and_stores_nothing(director_api, club, make_players):
    a, b = make_players(2)
    event = _swiss(director_api, club, [a, b])
    director_api.post(
        f"/api/events/{event['id']}/forbidden-pairings/",
        {"player_a": a.pk, "player_b": b.pk},
        format="json",
    )
    r = director_api.post(f"/api/events/{event['id']}/rounds/")
    assert r.status_code == 409
    assert "cannot be paired" in r.json()["detail"]
    assert not Round.objects.filter(event_id=event["id"]).exists()


def test_avoid_same_table(director_api, club, make_players):
    players = make_players(8)
    event = _swiss(director_api, club, players, options={"avoid_same_table": True})
    sat: dict[int, set[int]] = {}
    for number in (1, 2):
        rnd = _pair(director_api, event["id"])
        for m in rnd["matches"]:
            for s in m["seats"]:
                assert m["table_number"] not in sat.get(s["player"], set())
                sat.setdefault(s["player"], set()).add(m["table_number"])
        _play_round(event["id"], number)


def test_big_field_is_paired_asynchronously(director_api, club, make_players):
    players = make_players(6)
    event = _swiss(director_api, club, players, options={"async_pairing_from": 6})
    r = director_api.post(f"/api/events/{event['id']}/rounds/")
    assert r.status_code == 202
    assert r.json()["status"] == "queued"
    assert director_api.post(f"/api/events/{event['id']}/rounds/").status_code == 409
    poll = director_api.get(f"/api/events/{event['id']}/rounds/1/").json()
    assert poll["status"] == "queued"
    assert poll["matches"] == []
    round_pair_execute(
        round_id=r.json()["id"]
    )  # what the task runs (see test_tasks for the worker)
    round_pair_execute(round_id=r.json()["id"])  # twice is harmless
    poll = director_api.get(f"/api/events/{event['id']}/rounds/1/").json()
    assert poll["status"] == "paired"
    assert len(poll["matches"]) == 3


def test_forfeits_one_and_both(director_api, club, make_players):
    players = make_players(4)
    event = _swiss(director_api, club, players)
    _pair(director_api, event["id"])
    m1, m2 = open_matches(event["id"], 1)
    url = f"/api/events/{event['id']}/matches/{{}}/forfeit/"
    both = director_api.post(url.format(m1.pk), {"players": seated(m1)}, format="json").json()
    assert both["decision"] == "forfeit"
    assert both["winner"] is None
    one = director_api.post(url.format(m2.pk), {"players": seated(m2)[:1]}, format="json").json()
    assert one["decision"] == "walkover"
    assert one["winner"] == seated(m2)[1]
    again = director_api.post(url.format(m2.pk), {"players": seated(m2)[:1]}, format="json")
    assert again.status_code == 409
    standings_recompute(event=Event.objects.get(pk=event["id"]))
    rows = {
        r["player"]: r["values"]
        for r in director_api.get(f"/api/events/{event['id']}/standings/").json()["rows"]
    }
    assert [rows[p]["match_points"] for p in seated(m1)] == [0, 0]
    assert rows[seated(m2)[1]]["match_points"] == 1


def test_stranger_cannot_pair(api, stranger, director_api, club, make_players):
    event = _swiss(director_api, club, make_players(4))
    api.force_authenticate(stranger)
    assert api.post(f"/api/events/{event['id']}/rounds/").status_code == 403
    api.force_authenticate(None)
    assert api.post(f"/api/events/{event['id']}/rounds/").status_code in (401, 403)


def test_assign_tables_solves_what_greedy_cannot():
    from tournaments.services import tables_assign

    pairs = [(1, 2), (3, 4), (5, 6)]
    history = {3: {2}, 4: {3}}  # greedy would give game 1 table 1 and leave game 2 stuck
    assert tables_assign(pairs, history, avoid=False) == [1, 2, 3]
    tables = tables_assign(pairs, history, avoid=True)
    assert sorted(tables) == [1, 2, 3]
    assert tables[1] == 1


def test_forfeited_game_is_no_meeting_and_bars_a_later_bye(director_api, club, make_players):
    """A walkover is not a meeting (the pair may be paired again) and counts, for the pairing
    bye, as a bye already had (FIDE C.04.3 C.2)."""
    from tournaments.selectors import swiss_input

    players = make_players(4)
    event = _swiss(director_api, club, players)
    _pair(director_api, event["id"])
    m1, m2 = open_matches(event["id"], 1)
    play(m1, winner=seated(m1)[0])
    loser, winner = seated(m2)
    url = f"/api/events/{event['id']}/matches/{m2.pk}/forfeit/"
    director_api.post(url, {"players": [loser]}, format="json")
    inp = swiss_input(event=Event.objects.get(pk=event["id"]), round_number=2)
    snapshot = {p.id: p for p in inp.players}
    assert loser not in snapshot[winner].opponents
    assert winner not in snapshot[loser].opponents
    assert set(seated(m1)[1:]) == set(snapshot[seated(m1)[0]].opponents)
    assert (snapshot[winner].forfeit_wins, snapshot[winner].byes) == (1, 0)
    assert snapshot[loser].forfeit_wins == 0


def test_floats_are_stored_per_round_and_shown(director_api, director, club, make_players):
    """Round 1 of five: the bye floats 5 down. Round 2: 1, 2 and 5 on 1 point, 3 and 4 on 0, 4
    has the bye; one of 1, 2, 5 must float down to 3, and 5 floated down last round, so 2 does
    (1 v 3 was played)."""
    players = make_players(5)
    ids = [p.pk for p in players]
    event = _swiss(director_api, club, players, options={"pair_by": "seed"})
    _pair(director_api, event["id"])
    first = Round.objects.get(event_id=event["id"], number=1)
    assert first.floats == {str(ids[4]): "down"}
    _play_round(event["id"], 1)
    _pair(director_api, event["id"])
    second = Round.objects.get(event_id=event["id"], number=2)
    assert second.floats == {str(ids[1]): "down", str(ids[2]): "up", str(ids[3]): "down"}
    games = {frozenset(seated(m)) for m in open_matches(event["id"], 2)}
    assert games == {frozenset((ids[0], ids[4])), frozenset((ids[1], ids[2]))}
    html = page_client(director).get(f"/events/{event['id']}/").content.decode()
    assert html.count("↓ floated down") == 2
    assert html.count("↑ floated up") == 1


def test_rounds_not_played_are_downfloats_two_rounds_back(director_api, club, make_players):
    """Issue 28: the snapshot carries each player's float of the last two rounds, a round not
    played counting as a downfloat (FIDE C.04.3 A.4.b): the requested bye of 6, the pairing bye
    of 5, both sides of a walkover, and the absence of a late entry. A game played keeps the
    float the pairing stored (none, on equal scores)."""
    from competition.swiss import Float
    from tournaments.selectors import swiss_input

    players = make_players(6)
    ids = [p.pk for p in players]
    body = {"club": club.pk, "name": "S", "kind": "swiss", "options": {"pair_by": "seed"}}
    event = director_api.post("/api/events/", body, format="json").json()
    for k, p in enumerate(players, start=1):
        director_api.post(
            f"/api/events/{event['id']}/registrations/",
            {
                "player": p.pk,
                "seed": k,
                "checked_in": True,
                "requested_byes": [1] if k == 6 else [],
            },
            format="json",
        )
    _pair(director_api, event["id"])
    walkover, game = open_matches(event["id"], 1)
    loser, winner = seated(walkover)
    url = f"/api/events/{event['id']}/matches/{walkover.pk}/forfeit/"
    assert director_api.post(url, {"players": [loser]}, format="json").status_code == 200
    play(game, winner=seated(game)[0])
    late = make_players(1)[0]
    director_api.post(
        f"/api/events/{event['id']}/registrations/",
        {"player": late.pk, "checked_in": True},
        format="json",
    )
    ev = Event.objects.get(pk=event["id"])
    second = {p.id: p for p in swiss_input(event=ev, round_number=2).players}
    down = {ids[5], ids[4], loser, winner, late.pk}
    assert {pid for pid, p in second.items() if p.last_float is Float.DOWN} == down
    assert all(p.last_float is None for pid, p in second.items() if pid not in down)
    assert all(p.prior_float is None for p in second.values())
    _pair(director_api, event["id"])
    stored = Round.objects.get(event_id=event["id"], number=2).floats
    _play_round(event["id"], 2)
    third = {p.id: p for p in swiss_input(event=ev, round_number=3).players}
    assert {pid: p.prior_float for pid, p in third.items()} == {
        pid: p.last_float for pid, p in second.items()
    }
    byes = {
        m.seats.get().player_id
        for m in Match.objects.filter(event_id=event["id"], round__number=2, decision="bye")
    }
    for pid, p in third.items():
        expected = (
            Float.DOWN
            if pid in byes
            else {"down": Float.DOWN, "up": Float.UP}.get(stored.get(str(pid), ""))
        )
        assert p.last_float is expected
    # A stored float that is not "down" or "up" (hand-edited, or an older shape) reads as none.
    Round.objects.filter(event_id=event["id"], number=2).update(floats=["junk"])
    junk = {p.id: p.last_float for p in swiss_input(event=ev, round_number=3).players}
    assert junk == {pid: Float.DOWN if pid in byes else None for pid in third}
