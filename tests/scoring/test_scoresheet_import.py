"""A whole paper score sheet at once, and CSV imports with a dry run."""

from __future__ import annotations

import pytest

from scoring.models import HandSubmission
from tests.clubs.factories import UserFactory
from tests.scoring.conftest import client_for, players, seat_api
from tests.scoring.factories import event_director

pytestmark = pytest.mark.django_db


def _knock(knocker, k, d):
    return {"knocker": knocker, "outcome": "knock", "knocker_deadwood": k, "defender_deadwood": d}


def test_director_enters_a_whole_game(make_event, director_api_for):
    event = make_event("standard", confirmation="opponent")
    director = director_api_for(event)
    m = director.start(event, players(event, 2), match_format={"kind": "best_of", "games": 3})
    m = m["id"]
    hands = [
        _knock(0, 5, 25),
        {"outcome": "dead"},
        {"knocker": 1, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 30},
        {
            "knocker": 0,
            "knocker_cards": "AS 2S 3S 5H 6H 7H 9S 9D 9C KC",
            "defender_cards": "8H 9H KS KH KD 2C 3C QS JD 5C",
        },
        {"knocker": 0, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 50},
    ]
    response = director.client.post(
        f"/api/matches/{m}/scoresheet/", {"hands": hands}, format="json"
    )
    assert response.status_code == 201, response.json()
    game = response.json()["games"][0]
    assert [r["running_totals"] for r in game["rows"]] == [
        [20, 0],
        [20, 0],
        [20, 55],
        [40, 55],
        [115, 55],
    ]
    assert game["status"] == "finished"
    assert HandSubmission.objects.filter(status="confirmed").count() == 5
    assert director.detail(m)["next"]["game"] == 2


def test_a_bad_hand_stores_nothing_and_names_it(make_event, director_api_for):
    event = make_event("standard")
    director = director_api_for(event)
    m = director.start(event, players(event, 2))["id"]
    hands = [_knock(0, 5, 25), _knock(1, 11, 25)]
    response = director.client.post(
        f"/api/matches/{m}/scoresheet/", {"hands": hands}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "hands[1].knocker_deadwood"
    assert not HandSubmission.objects.exists()
    too_long = [
        {"knocker": 0, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 90},
        _knock(0, 5, 25),
    ]
    response = director.client.post(
        f"/api/matches/{m}/scoresheet/", {"hands": too_long}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "hands[1]"
    assert not HandSubmission.objects.exists()


def test_players_enter_sheets_only_without_confirmation(make_event, director_api_for):
    event = make_event("standard", confirmation="opponent")
    m = director_api_for(event).start(event, players(event, 2))["id"]
    response = seat_api(m, 0).client.post(
        f"/api/matches/{m}/scoresheet/", {"hands": [_knock(0, 5, 25)]}, format="json"
    )
    assert response.status_code == 403
    free = make_event("standard")
    n = director_api_for(free).start(free, players(free, 2))["id"]
    response = seat_api(n, 0).client.post(
        f"/api/matches/{n}/scoresheet/", {"hands": [_knock(0, 5, 25)]}, format="json"
    )
    assert response.status_code == 201


CSV = (
    (
        "match,game,hand,knocker,outcome,knocker_deadwood,defender_deadwood,"
        "knocker_cards,defender_cards\n"
    )
    + """{m},1,1,1,knock,5,25,,
{m},1,2,{name},gin,0,30,,
{m},1,3,1,,,,AS 2S 3S 5H 6H 7H 9S 9D 9C KC,8H 9H KS KH KD 2C 3C QS JD 5C
{n},1,1,2,undercut,6,2,,
"""
)


def test_csv_dry_run_then_import(make_event, director_api_for):
    event = make_event("standard", confirmation="opponent")
    director = director_api_for(event)
    people = players(event, 2)
    m = director.start(event, people)["id"]
    n = director.start(event, players(event, 2))["id"]
    text = CSV.format(m=m, n=n, name=people[1].name)
    dry = director.client.post("/api/imports/", {"csv": text, "dry_run": True}, format="json")
    assert dry.status_code == 200, dry.json()
    assert dry.json() == {
        "dry_run": True,
        "rows": 4,
        "stored": 4,
        "matches": [m, n],
        "problems": [],
    }
    assert not HandSubmission.objects.exists()
    done = director.client.post("/api/imports/", {"csv": text}, format="json")
    assert done.status_code == 201
    assert done.json()["stored"] == 4
    assert done.json()["matches"] == [m, n]
    assert director.detail(m)["games"][0]["totals"] == [40, 55]
    assert director.detail(n)["games"][0]["totals"] == [29, 0]  # 25 + (6 - 2) to seat 1


def test_csv_reports_every_row_and_stores_nothing(make_event, director_api_for):
    event = make_event("standard")
    director = director_api_for(event)
    m = director.start(event, players(event, 2))["id"]
    n = director.start(event, players(event, 2))["id"]
    text = (
        "match,game,hand,knocker,outcome,knocker_deadwood,defender_deadwood\n"
        f"{m},1,1,1,knock,5,25\n"
        f"{m},1,2,1,knock,12,25\n"
        f"{m},1,3,1,knock,5,25\n"
        f"{n},1,1,Nobody,knock,5,25\n"
        f"{n},1,1,1,knock,x,25\n"
        "999999,1,1,0,knock,5,25\n"
    )
    for dry_run in (True, False):
        response = director.client.post(
            "/api/imports/", {"csv": text, "dry_run": dry_run}, format="json"
        )
        assert response.status_code == 400
        problems = response.json()["problems"]
        assert [(p["row"], p["field"]) for p in problems] == [
            (3, "knocker_deadwood"),
            (4, None),
            (5, "knocker"),
            (6, None),
            (7, "match"),
        ]
        assert "12 > 10" in problems[0]["message"]
        assert not HandSubmission.objects.exists()
        # Rows that passed count on a dry run; a refused import stored nothing, of no match.
        assert response.json()["matches"] == ([m] if dry_run else [])
    header = director.client.post("/api/imports/", {"csv": "match,colour\n1,red\n"}, format="json")
    assert header.status_code == 400
    assert "colour" in header.json()["problems"][0]["message"]


def test_only_directors_import(make_event, director_api_for):
    event = make_event("standard")
    m = director_api_for(event).start(event, players(event, 2))["id"]
    text = f"match,hand,knocker,outcome,knocker_deadwood,defender_deadwood\n{m},1,1,knock,5,25\n"
    stranger = client_for(UserFactory())
    response = stranger.client.post("/api/imports/", {"csv": text}, format="json")
    assert response.status_code == 400
    assert response.json()["problems"][0]["field"] == "match"
    assert (
        client_for().client.post("/api/imports/", {"csv": text}, format="json").status_code == 403
    )
    assert not HandSubmission.objects.exists()


def test_a_sheet_reports_every_bad_hand_at_once(make_event, director_api_for):
    event = make_event("standard")
    director = director_api_for(event)
    m = director.start(event, players(event, 2))["id"]
    hands = [
        _knock(0, 5, 25),
        _knock(1, 11, 25),  # over the knock limit
        _knock(0, 4, 20),
        {"knocker": 5, "outcome": "knock", "knocker_deadwood": 2, "defender_deadwood": 9},
        {"knocker": 1, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 90},
        _knock(0, 3, 8),  # the game ended with the gin
        _knock(1, 2, 8),
    ]
    response = director.client.post(
        f"/api/matches/{m}/scoresheet/", {"hands": hands}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    problems = body["problems"]
    assert [(p["row"], p["field"]) for p in problems] == [
        (1, "hands[1].knocker_deadwood"),
        (3, "hands[3].knocker"),
        (5, "hands[5]"),
        (6, "hands[6]"),
    ]
    assert "11 > 10" in problems[0]["message"]
    no_seat = "There is no seat 6 at this table (position 5: positions count from 0)."
    assert no_seat in problems[1]["message"]
    assert problems[2]["message"] == "The game ended with the hand before this one."
    assert problems[3]["message"] == "The game was already over by this hand."
    # The first problem is still the error's detail and field.
    assert body["detail"] == problems[0]["message"]
    assert body["field"] == "hands[1].knocker_deadwood"
    assert not HandSubmission.objects.exists()
    fixed = [hands[0], _knock(1, 1, 25), hands[2], _knock(0, 2, 9), hands[4]]
    response = director.client.post(
        f"/api/matches/{m}/scoresheet/", {"hands": fixed}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert HandSubmission.objects.filter(status="confirmed").count() == 5


def test_a_refused_sheet_has_no_problem_list(make_event, director_api_for):
    event = make_event("standard", confirmation="opponent")
    m = director_api_for(event).start(event, players(event, 2))["id"]
    response = seat_api(m, 0).client.post(
        f"/api/matches/{m}/scoresheet/", {"hands": [_knock(0, 11, 25)]}, format="json"
    )
    assert response.status_code == 403
    assert "problems" not in response.json()


def test_csv_import_scoped_to_an_event(make_event):
    event = make_event("standard")
    other = make_event("standard")
    user = event_director(event)
    director = client_for(user)
    m = director.start(event, players(event, 2))["id"]
    # The same director directs both events: only the event asked for is imported into.
    other.directors.add(user)
    n = director.start(other, players(other, 2))["id"]
    text = (
        "match,hand,knocker,outcome,knocker_deadwood,defender_deadwood\n"
        f"{m},1,1,knock,5,25\n"
        f"{n},1,1,knock,5,25\n"
        f"{n},2,2,knock,5,25\n"
    )
    scoped = {"csv": text, "event": event.pk}
    response = director.client.post("/api/imports/", scoped, format="json")
    assert response.status_code == 400
    problems = response.json()["problems"]
    assert [(p["row"], p["field"]) for p in problems] == [(3, "match"), (4, None)]
    assert problems[0]["message"] == f"Match {n} is not a match of {event.name}."
    assert not HandSubmission.objects.exists()
    response = director.client.post("/api/imports/", {**scoped, "event": 999999}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "event"
    # Without an event every match the director directs may be imported into.
    response = director.client.post("/api/imports/", {"csv": text}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["matches"] == [m, n]
    assert response.json()["stored"] == 3


def test_csv_seat_numbers_count_from_one_as_on_paper(make_event):
    """A CSV names the knocker by name or by seat number, and seats count from 1 as on the slips
    and pages: seat 1 is the first player (position 0), there is no seat 0."""
    event = make_event("standard")
    director = client_for(event_director(event))
    m = director.start(event, players(event, 2))["id"]
    header = "match,hand,knocker,outcome,knocker_deadwood,defender_deadwood\n"
    zero = director.client.post(
        "/api/imports/", {"csv": header + f"{m},1,0,knock,5,25\n"}, format="json"
    )
    assert zero.status_code == 400
    assert zero.json()["problems"][0]["field"] == "knocker"
    assert "0 is not a player of this match." in zero.json()["problems"][0]["message"]
    text = header + f"{m},1,1,knock,5,25\n{m},2,2,gin,0,30\n"
    response = director.client.post("/api/imports/", {"csv": text}, format="json")
    assert response.status_code == 201, response.json()
    stored = HandSubmission.objects.order_by("hand__number")
    assert [s.winner_position for s in stored] == [0, 1]
    assert [s.outcome for s in stored] == ["knock", "gin"]
