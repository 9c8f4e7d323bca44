"""The demo tournaments load through the services, are idempotent, and show through the API."""

from __future__ import annotations

import pytest

from scoring.models import HandSubmission, Match
from tournaments.demo import demo_tournaments_load
from tournaments.models import Event, Registration, Standing

pytestmark = pytest.mark.django_db


def test_demo_is_idempotent_and_complete(api):
    first = demo_tournaments_load()
    assert len(first) == 6
    counts = (Event.objects.count(), Standing.objects.count())
    second = demo_tournaments_load()
    assert all(line.endswith("kept") for line in second[1:])
    assert (Event.objects.count(), Standing.objects.count()) == counts
    swiss = Event.objects.get(name="Autumn Swiss")
    assert swiss.status == "finished"
    assert swiss.rounds.count() == 5
    body = api.get(f"/api/events/{swiss.pk}/standings/").json()
    assert body["stale"] is False
    assert len(body["rows"]) == 16
    assert body["rows"][0]["values"]["hands_won"] > 0
    ko = Event.objects.get(name="Winter Knockout")
    bracket = api.get(f"/api/events/{ko.pk}/bracket/").json()
    assert ko.status == "running"
    assert bracket["champion"] is None
    assert bracket["ready"]
    league = Event.objects.get(name="Thursday League")
    table = api.get(f"/api/events/{league.pk}/standings/").json()
    assert table["rows"]
    assert table["rows"][0]["values"]["events"] >= 1
    player = body["rows"][0]["player"]
    ratings = api.get(f"/api/players/{player}/ratings/").json()
    assert ratings["current"][0]["games"] == 5


def test_demo_hands_are_played_through_scoring_services():
    demo_tournaments_load()
    hands = HandSubmission.objects.filter(hand__game__match__event__club__slug="knock-demo-club")
    assert hands.exists()
    assert not hands.exclude(status="confirmed").exists()
    for sub in hands.select_related("hand__game__match"):
        assert {"scored", "formula", "knocker", "defender"} <= set(sub.result)
        assert sub.submitted_by_player_id
        assert sub.confirmed_by_player_id
        assert sub.submitted_by_player_id != sub.confirmed_by_player_id


def test_demo_has_every_kind_of_event_and_unplayed_results():
    """Every kind of event exists, a running one has a dropped player (their open match a
    walkover), and a league night has a forfeited table."""
    demo_tournaments_load()
    demo = Event.objects.filter(club__slug="knock-demo-club")
    kinds = set(demo.values_list("kind", flat=True))
    assert kinds >= set(Event.Kind.values) - {Event.Kind.CLUB_NIGHT}  # scoring's demo adds one
    for kind in (Event.Kind.ROUND_ROBIN, Event.Kind.DOUBLE_ELIMINATION, Event.Kind.LEAGUE):
        assert demo.get(kind=kind).status == Event.Status.RUNNING
    dropped = Registration.objects.get(status=Registration.Status.DROPPED)
    assert dropped.event.status == Event.Status.RUNNING
    assert dropped.dropped_after_round == 2
    walkover = Match.objects.get(event=dropped.event, decision=Match.Decision.WALKOVER)
    assert dropped.player_id in set(walkover.seats.values_list("player_id", flat=True))
    assert walkover.winner_id != dropped.player_id
    assert Match.objects.filter(event=dropped.event, status=Match.Status.SCHEDULED).exists()
    forfeited = Match.objects.get(event__league__name="Thursday League", decision="walkover")
    assert forfeited.summary["unplayed"] == "forfeit"
    assert not HandSubmission.objects.filter(hand__game__match=forfeited).exists()
    double = demo.get(kind=Event.Kind.DOUBLE_ELIMINATION)
    played = Match.objects.filter(event=double, status=Match.Status.FINISHED)
    assert played.count() == 3  # the first round and the losers' bracket match
    assert Match.objects.filter(event=double, status=Match.Status.SCHEDULED).count() == 1
