"""A director's correction of a finished bracket match, through scoring's real API routes.

Scoring asks ``match_result_change_allowed`` before it stores a correction that changes a final
result and calls ``match_result_changed`` after: the next bracket match follows the new winner
while it has no hands, and the correction is refused with 409 once it has.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from ratings.models import Rating
from ratings.services import ratings_update_for_match
from scoring.models import HandSubmission, Match
from tests.tournaments.helpers import seated
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def _gin(knocker: int) -> dict[str, object]:
    """A gin against 80 deadwood: 105 points, the whole game to 100 in one hand."""
    return {"knocker": knocker, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 80}


def _bracket(director_api: APIClient, club, players) -> int:
    body = {"club": club.pk, "name": "KO", "kind": "single_elim", "confirmation": "none"}
    event = director_api.post("/api/events/", body, format="json").json()
    for k, p in enumerate(players, start=1):
        director_api.post(
            f"/api/events/{event['id']}/registrations/",
            {"player": p.pk, "seed": k, "checked_in": True},
            format="json",
        )
    assert director_api.post(f"/api/events/{event['id']}/rounds/").status_code in (200, 201, 202)
    return int(event["id"])


def _hand(api: APIClient, match: Match, entry: dict[str, object]) -> dict[str, object]:
    response = api.post(f"/api/matches/{match.pk}/hands/", entry, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def _semis_played(director_api: APIClient, event_id: int) -> tuple[Match, Match, Match]:
    semis = list(Match.objects.filter(event_id=event_id).order_by("bracket_key"))
    assert len(semis) == 2
    for semi in semis:
        _hand(director_api, semi, _gin(0))
    final = Match.objects.filter(event_id=event_id).exclude(pk__in=[s.pk for s in semis]).get()
    return semis[0], semis[1], final


def test_override_before_the_next_match_starts_moves_the_new_winner_on(
    director_api, club, make_players
):
    event_id = _bracket(director_api, club, make_players(4))
    semi, other, final = _semis_played(director_api, event_id)
    old_winner, new_winner = seated(semi)
    assert old_winner in seated(final)
    sub = HandSubmission.objects.get(hand__game__match=semi, status="confirmed")
    response = director_api.post(
        f"/api/hands/{sub.pk}/override/", {**_gin(1), "reason": "knocker misread"}, format="json"
    )
    assert response.status_code == 201, response.json()
    semi.refresh_from_db()
    other.refresh_from_db()
    assert semi.winner_id == new_winner
    assert set(seated(final)) == {new_winner, other.winner_id}
    bracket = director_api.get(f"/api/events/{event_id}/bracket/").json()
    slots = [(m["home"]["player"], m["away"]["player"]) for m in bracket["matches"]]
    assert (new_winner, other.winner_id) in slots
    ratings_update_for_match(match_id=semi.pk)  # what the task scheduled on commit runs
    rated = dict(Rating.objects.filter(player_id__in=seated(semi)).values_list("player", "rating"))
    assert rated[new_winner] > rated[old_winner]


def test_override_after_the_next_match_started_is_refused_with_409(
    director_api, club, make_players
):
    event_id = _bracket(director_api, club, make_players(4))
    semi, _other, final = _semis_played(director_api, event_id)
    players_before = seated(final)
    _hand(director_api, final, {**_gin(0), "defender_deadwood": 10})  # 35 points, still playing
    sub = HandSubmission.objects.get(hand__game__match=semi, status="confirmed")
    response = director_api.post(
        f"/api/hands/{sub.pk}/override/", {**_gin(1), "reason": "knocker misread"}, format="json"
    )
    assert response.status_code == 409, response.json()
    assert "already started" in response.json()["detail"]
    semi.refresh_from_db()
    assert semi.winner_id == players_before[0]
    assert seated(final) == players_before
    assert HandSubmission.objects.filter(hand__game__match=semi).count() == 1


def test_override_that_reopens_a_match_removes_the_next_match_until_it_is_decided(
    director_api, club, make_players
):
    event_id = _bracket(director_api, club, make_players(4))
    semi, _other, final = _semis_played(director_api, event_id)
    sub = HandSubmission.objects.get(hand__game__match=semi, status="confirmed")
    response = director_api.post(
        f"/api/hands/{sub.pk}/override/",
        {**_gin(0), "defender_deadwood": 10, "reason": "deadwood recounted"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    semi.refresh_from_db()
    assert semi.status == Match.Status.PLAYING
    assert semi.winner_id is None
    assert not Match.objects.filter(pk=final.pk).exists()
    _hand(director_api, semi, _gin(1))  # the semi ends again, the other way
    semi.refresh_from_db()
    new_final = Match.objects.get(event_id=event_id, bracket_key=final.bracket_key)
    assert semi.winner_id in seated(new_final)
    assert Event.objects.get(pk=event_id).status == Event.Status.RUNNING
