"""Confirmation policies, withdrawal, and who may see and do what."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.models import HandSubmission
from tests.clubs.factories import ClubRoleFactory, UserFactory
from tests.scoring.conftest import client_for, players, seat_api, user_player

pytestmark = pytest.mark.django_db

KNOCK = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}


@pytest.fixture
def opponent_match(make_event, director_api_for):
    event = make_event("standard", confirmation="opponent")
    return event, director_api_for(event).start(event, players(event, 2))["id"]


def test_opponent_confirms_on_their_own_link(opponent_match):
    _, m = opponent_match
    alice, bob = seat_api(m, 0), seat_api(m, 1)
    entered = alice.hand(m, **KNOCK)
    assert entered["status"] == "pending"
    assert entered["submitted_by"]["player"]
    assert bob.detail(m)["games"][0]["totals"] == [0, 0]  # only confirmed hands count
    assert bob.detail(m)["pending"]["id"] == entered["id"]
    own = alice.action(entered["id"], "confirm", expect=403)
    assert "own entry" in own["detail"]
    done = bob.action(entered["id"], "confirm")
    assert done["status"] == "confirmed"
    assert done["confirmed_by"]["player"]
    assert bob.detail(m)["games"][0]["totals"] == [20, 0]
    again = bob.action(entered["id"], "confirm", expect=409)
    assert again["stored"]["status"] == "confirmed"


def test_a_pending_hand_blocks_the_next_and_409_shows_it(opponent_match):
    _, m = opponent_match
    alice, bob = seat_api(m, 0), seat_api(m, 1)
    entered = alice.hand(m, **KNOCK)
    clash = bob.hand(
        m, expect=409, knocker=1, outcome="gin", knocker_deadwood=0, defender_deadwood=9
    )
    assert clash["stored"]["id"] == entered["id"]
    assert clash["stored"]["points"] == 20
    ahead = alice.hand(m, expect=400, hand_number=2, **KNOCK)
    assert ahead["field"] == "hand_number"


def test_same_phone_after_hand_over_with_the_table_link(opponent_match):
    _, m = opponent_match
    table = seat_api(m, None)
    assert table.hand(m, expect=400, **KNOCK)["field"] == "as_position"
    entered = table.hand(m, as_position=0, **KNOCK)
    table.action(entered["id"], "confirm", expect=403, as_position=0)
    done = table.action(entered["id"], "confirm", as_position=1)
    assert done["status"] == "confirmed"
    seat_link = seat_api(m, 0)
    second = seat_link.hand(m, **KNOCK)
    # a seat link may act only as its own seat
    seat_link.action(second["id"], "confirm", expect=403, as_position=1)


def test_signed_in_players_confirm_and_withdraw(make_event, director_api_for):
    event = make_event("standard", confirmation="opponent")
    alice_user, alice = user_player(event, "alice")
    bob_user, bob = user_player(event, "bob")
    alice_api, bob_api = client_for(alice_user), client_for(bob_user)
    # A player may not start a match they play in (they would get the opponent's link).
    alice_api.start(event, [alice, bob], expect=403)
    m = director_api_for(event).start(event, [alice, bob])
    assert set(m["links"]["seats"]) == {"0", "1"}
    m = m["id"]
    entered = alice_api.hand(m, **KNOCK)
    bob_api.action(entered["id"], "withdraw", expect=403)
    withdrawn = alice_api.action(entered["id"], "withdraw")
    assert withdrawn["status"] == "withdrawn"
    again = alice_api.hand(m, **KNOCK)
    assert (again["hand_number"], again["version"]) == (1, 2)
    bob_api.action(again["id"], "confirm")
    alice_api.action(again["id"], "withdraw", expect=409)
    assert [s.status for s in HandSubmission.objects.order_by("version")] == [
        "withdrawn",
        "confirmed",
    ]


def test_director_policy(make_event, director_api_for):
    event = make_event("standard", confirmation="director")
    director = director_api_for(event)
    m = director.start(event, players(event, 2))["id"]
    entered = seat_api(m, 0).hand(m, **KNOCK)
    seat_api(m, 1).action(entered["id"], "confirm", expect=403)
    admin_user = UserFactory()
    ClubRoleFactory(club=event.club, user=admin_user, role="admin")
    done = client_for(admin_user).action(entered["id"], "confirm")
    assert done["status"] == "confirmed"
    assert done["confirmed_by"]["user"] == admin_user.username
    own = director.hand(m, **KNOCK)
    director.action(own["id"], "confirm", expect=403)  # not one's own entry
    client_for(admin_user).action(own["id"], "confirm")


def test_partnership_teammate_cannot_confirm(make_event, director_api_for):
    event = make_event("partnership", confirmation="opponent")
    m = director_api_for(event).start(event, players(event, 4))["id"]
    board = {"outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}
    entered = seat_api(m, 0).hand(
        m, boards=[{"knocker": 0, "defender": 1, **board}, {"knocker": 2, "defender": 3, **board}]
    )
    seat_api(m, 2).action(entered["id"], "confirm", expect=403)
    seat_api(m, 3).action(entered["id"], "confirm")


def test_three_players_any_other_player_confirms(make_event, director_api_for):
    event = make_event("three-box", confirmation="opponent")
    m = director_api_for(event).start(event, players(event, 3))["id"]
    entered = seat_api(m, 0).hand(m, **KNOCK)
    seat_api(m, 2).action(entered["id"], "confirm")  # the sitter may confirm


def test_outsiders_read_the_sheet_but_not_what_waits(opponent_match, make_event, director_api_for):
    _event, m = opponent_match
    entered = seat_api(m, 0).hand(m, **KNOCK)
    other_event = make_event("standard", confirmation="opponent")
    other = director_api_for(other_event).start(other_event, players(other_event, 2))["id"]
    stranger = client_for(UserFactory())
    # the score sheet is anyone's, as on the page; what is not yet agreed is not
    assert stranger.detail(m)["pending"] is None
    assert seat_api(m, 1).detail(m)["pending"]["id"] == entered["id"]
    sheet = stranger.client.get(f"/api/matches/{m}/scoresheet/")
    assert sheet.status_code == 200
    assert all(game["pending"] is None for game in sheet.json()["games"])
    assert Client().get(f"/api/matches/{m}/").json()["pending"] is None
    stranger.hand(m, expect=404, **KNOCK)
    stranger.action(entered["id"], "confirm", expect=404)
    stranger.action(entered["id"], "withdraw", expect=404)
    assert stranger.client.get(f"/api/hands/{entered['id']}/history/").status_code == 404
    assert stranger.client.get(f"/api/matches/{m}/hands/").status_code == 404
    assert stranger.client.get("/api/matches/").json()["results"] == []
    # a link of one match opens nothing at another; a forged link opens nothing
    seat_api(other, 0).entries(m, expect=404)
    client_for(token="forged").entries(m, expect=404)
    anonymous = client_for()
    anonymous.entries(m, expect=404)
    assert anonymous.client.get("/api/matches/").status_code == 403
    anonymous.start(other_event, players(other_event, 2), expect=403)


def test_list_shows_a_player_only_their_own_table(make_event, director_api_for):
    event = make_event("standard", confirmation="opponent")
    director = director_api_for(event)
    alice_user, alice = user_player(event, "alice")
    mine = director.start(event, [alice, *players(event, 1)], table_number=1)["id"]
    theirs = director.start(event, players(event, 2), table_number=2)["id"]
    pending = seat_api(theirs, 0).hand(theirs, **KNOCK)
    listed = client_for(alice_user).client.get("/api/matches/").json()["results"]
    assert [m["id"] for m in listed] == [mine]
    client_for(alice_user).entries(theirs, expect=404)
    client_for(alice_user).action(pending["id"], "confirm", expect=404)
    everything = director.client.get(f"/api/matches/?event={event.pk}").json()["results"]
    assert {m["id"] for m in everything} == {mine, theirs}
    assert director.detail(theirs)["pending"]["id"] == pending["id"]


def test_links_are_for_directors(opponent_match, director_api_for):
    event, m = opponent_match
    assert seat_api(m, 0).client.get(f"/api/matches/{m}/links/").status_code == 403
    links = director_api_for(event).client.get(f"/api/matches/{m}/links/").json()
    table = client_for(token=links["table"])
    assert table.detail(m)["id"] == m
