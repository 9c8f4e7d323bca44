"""Club ratings: Glicko-2 per rating period for two players, OpenSkill for more; history kept."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ratings.algorithms import Glicko2Rating, RatedGame, rate_period
from ratings.models import Rating, RatingHistory
from ratings.selectors import club_rating_period_start
from ratings.services import ratings_update_for_match
from scoring.models import Game, Match, Seat
from tests.tournaments.helpers import play
from tournaments.services import (
    event_create,
    ratings_update_for_event,
    registration_create,
)

pytestmark = pytest.mark.django_db


def _match(event, players, *, teams=None):
    match = Match.objects.create(event=event, rules=event.rules)
    Seat.objects.bulk_create(
        [
            Seat(match=match, player=p, position=k, team=teams[k] if teams else None)
            for k, p in enumerate(players)
        ]
    )
    Game.objects.create(match=match, number=1)
    return match


@pytest.fixture
def night(club, make_players):
    event = event_create(club_id=club.pk, name="Night", kind="club_night")
    players = make_players(4)
    for p in players:
        registration_create(event=event, player=p)
    return event, players


def test_glicko_rates_the_period_from_its_start(night, api):
    event, (a, b, c, _) = night
    m1 = play(_match(event, [a, b]), winner=a.pk)
    ratings_update_for_match(match_id=m1.pk)
    ratings_update_for_match(match_id=m1.pk)  # idempotent
    m2 = play(_match(event, [a, c]), winner=c.pk)
    ratings_update_for_match(match_id=m2.pk)
    expected = rate_period(
        {a.pk: Glicko2Rating(), b.pk: Glicko2Rating(), c.pk: Glicko2Rating()},
        [RatedGame(a.pk, b.pk, 1.0), RatedGame(a.pk, c.pk, 0.0)],
    )
    for p in (a, b, c):
        r = Rating.objects.get(player=p, kind="glicko2")
        assert r.rating == pytest.approx(expected[p.pk].rating)
        assert r.deviation == pytest.approx(expected[p.pk].rd)
        assert r.base_rating == 1500.0
    assert RatingHistory.objects.filter(player=a).count() == 2
    body = api.get(f"/api/players/{a.pk}/ratings/").json()
    assert body["current"][0]["kind"] == "glicko2"
    assert body["current"][0]["games"] == 2
    assert [h["match"] for h in body["history"]] == [m1.pk, m2.pk]


def test_next_period_starts_from_the_closed_one(night, club):
    event, (a, b, _, _) = night
    m1 = play(_match(event, [a, b]), winner=a.pk)
    ratings_update_for_match(match_id=m1.pk)
    closed = Rating.objects.get(player=a, kind="glicko2").rating
    m2 = play(_match(event, [a, b]), winner=b.pk)
    later = timezone.now() + timedelta(days=club.rating_period_days)
    Match.objects.filter(pk=m2.pk).update(finished_at=later)
    ratings_update_for_match(match_id=m2.pk)
    r = Rating.objects.get(player=a, kind="glicko2")
    assert r.base_rating == pytest.approx(closed)
    assert r.period_start == club_rating_period_start(club=club, day=later.date())
    assert r.rating < closed


def test_byes_and_walkovers_do_not_rate(night):
    event, (a, _, _, _) = night
    bye = Match.objects.create(
        event=event, rules=event.rules, decision="bye", status="finished", winner=a
    )
    Seat.objects.create(match=bye, player=a, position=0)
    ratings_update_for_match(match_id=bye.pk)
    assert not Rating.objects.exists()


def test_openskill_for_three_players_and_teams(night):
    event, (a, b, c, d) = night
    three = _match(event, [a, b, c])
    Game.objects.filter(match=three).update(
        status="finished", result={"final_totals": [50, 120, 10]}
    )
    Match.objects.filter(pk=three.pk).update(
        status="finished", winner=b, finished_at=timezone.now()
    )
    ratings_update_for_match(match_id=three.pk)
    ratings_update_for_match(match_id=three.pk)
    mu = {r.player_id: r.rating for r in Rating.objects.filter(kind="openskill")}
    assert mu[b.pk] > mu[a.pk] > mu[c.pk]
    assert RatingHistory.objects.filter(kind="openskill").count() == 3
    teams = _match(event, [a, b, c, d], teams=[0, 1, 0, 1])
    Match.objects.filter(pk=teams.pk).update(
        status="finished", winner=a, finished_at=timezone.now()
    )
    ratings_update_for_match(match_id=teams.pk)
    after = {r.player_id: r.rating for r in Rating.objects.filter(kind="openskill")}
    assert after[a.pk] > mu[a.pk]
    assert after[c.pk] > mu[c.pk]
    assert after[b.pk] < mu[b.pk]
    assert after[d.pk] < 25


def test_event_batch_equals_match_by_match(club, make_players):
    event = event_create(club_id=club.pk, name="Batch", kind="club_night")
    players = make_players(6)
    for p in players:
        registration_create(event=event, player=p)
    matches = [
        play(_match(event, [players[i], players[j]]), winner=players[i].pk)
        for i, j in [(0, 1), (2, 3), (4, 5), (0, 2), (1, 4)]
    ]
    for m in matches:
        ratings_update_for_match(match_id=m.pk)
    one_by_one = {r.player_id: r.rating for r in Rating.objects.all()}
    Rating.objects.all().delete()
    assert ratings_update_for_event(event=event) == 6
    batch = {r.player_id: r.rating for r in Rating.objects.all()}
    assert batch == pytest.approx(one_by_one)
