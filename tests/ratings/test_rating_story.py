"""A player's story: rating history dated by the matches that moved it, the chart and the
table beside it, and match history with opponents and margins."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from ratings.models import Rating, RatingHistory
from ratings.selectors import player_ratings
from ratings.services import ratings_update_for_match
from scoring.models import Game, Match, Seat
from tests.tournaments.helpers import play
from tournaments.services import (
    event_create,
    ratings_update_for_event,
    registration_create,
)

pytestmark = pytest.mark.django_db


def _match(event, players):
    match = Match.objects.create(event=event, rules=event.rules)
    Seat.objects.bulk_create(
        [Seat(match=match, player=p, position=k) for k, p in enumerate(players)]
    )
    Game.objects.create(match=match, number=1)
    return match


def _played(event, a, b, *, winner, when, margin=30):
    m = play(_match(event, [a, b]), winner=winner.pk, margin=margin)
    m.finished_at = when
    m.summary = {"games_won": [1, 0] if winner == a else [0, 1], "margins": [margin]}
    m.save(update_fields=["finished_at", "summary"])
    return m


@pytest.fixture
def week(club, make_players):
    club.rating_period_days = 30
    club.save()
    event = event_create(club_id=club.pk, name="Night", kind="club_night")
    players = make_players(4)
    for p in players:
        registration_create(event=event, player=p)
    start = timezone.now() - timedelta(days=2)
    a, b, c, d = players
    matches = [
        _played(event, a, b, winner=a, when=start, margin=45),
        _played(event, a, c, winner=c, when=start + timedelta(hours=1)),
        _played(event, d, a, winner=a, when=start + timedelta(hours=2)),
    ]
    return event, players, matches


def test_each_match_leaves_its_own_dated_point(week):
    _event, (a, *_), matches = week
    for m in matches:
        ratings_update_for_match(match_id=m.pk)
    rows = list(RatingHistory.objects.filter(player=a, kind=Rating.Kind.GLICKO2))
    assert len(rows) == 3
    assert {r.match_id for r in rows} == {m.pk for m in matches}
    points = player_ratings(player=a)["points"]
    assert [p.match_id for p in points] == [m.pk for m in matches]  # in the order played
    assert [p.on for p in points] == [m.finished_at.date() for m in matches]
    ratings = [round(p.rating) for p in points]
    assert ratings[0] > 1500  # won the first
    assert ratings[1] < ratings[0]  # then lost
    assert ratings[2] > ratings[1]  # then won
    assert len(set(ratings)) == 3  # not the same number three times
    current = Rating.objects.get(player=a, kind=Rating.Kind.GLICKO2)
    assert points[-1].rating == pytest.approx(current.rating)


def test_the_batch_path_writes_the_same_story(week):
    event, (a, *_), matches = week
    for m in matches:
        ratings_update_for_match(match_id=m.pk)
    one_by_one = [(p.match_id, round(p.rating, 6)) for p in player_ratings(player=a)["points"]]
    ratings_update_for_event(event=event)
    ratings_update_for_event(event=event)  # idempotent: rewritten, not added
    again = [(p.match_id, round(p.rating, 6)) for p in player_ratings(player=a)["points"]]
    assert again == one_by_one


def test_the_player_page_draws_the_chart_beside_the_table(week):
    _event, (a, b, c, _d), matches = week
    for m in matches:
        ratings_update_for_match(match_id=m.pk)
    html = Client().get(f"/players/{a.pk}/").content.decode()
    assert 'class="ch-line"' in html
    assert html.count('class="ch-dot"') == 3
    assert 'aria-describedby="rating-table-caption"' in html
    assert matches[0].finished_at.date().isoformat() in html
    assert ">+45<" in html  # the margin of the first match, won
    assert ">-30<" in html  # lost the second by 30
    assert b.name in html
    assert c.name in html
    ko = Client(HTTP_ACCEPT_LANGUAGE="ko").get(f"/players/{a.pk}/").content.decode()
    assert "경기마다 바뀐 레이팅" in ko


def test_ratings_api_dates_each_row_by_its_match(week, api):
    _event, (a, *_), matches = week
    for m in matches:
        ratings_update_for_match(match_id=m.pk)
    body = api.get(f"/api/players/{a.pk}/ratings/").json()
    played = [h["played_at"] for h in body["history"] if h["kind"] == "glicko2"]
    assert len(played) == 3
    assert played == sorted(played)
