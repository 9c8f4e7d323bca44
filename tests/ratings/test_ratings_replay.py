"""OpenSkill ratings follow corrections: a corrected, re-opened or late-rated multi-player match
leaves the club's OpenSkill ratings and history equal to a fresh replay of the stored results in
(finished_at, id) order, and running the rating task again changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from ratings.algorithms import RatingState, rate_multiplayer
from ratings.models import Rating, RatingHistory
from ratings.services import ratings_openskill_rebuild, ratings_update_for_match
from scoring.models import Game, Match
from tests.tournaments.helpers import finished_match
from tournaments.services import (
    event_create,
    event_results_bump,
    match_finished,
    match_result_changed,
    registration_create,
)
from tournaments.tasks import ratings_update_task

pytestmark = pytest.mark.django_db

T0 = timezone.now() - timedelta(days=1)


@pytest.fixture
def night(club, make_players):
    event = event_create(club_id=club.pk, name="Night", kind="club_night")
    players = make_players(5)
    for p in players:
        registration_create(event=event, player=p)
    return event, players


def _correct(match, *, winner=None, winner_team=None, totals=None, reopen=False):
    """What scoring's director override does: store the change, then call the two hooks."""
    with transaction.atomic():
        if totals is not None:
            Game.objects.filter(match=match).update(result={"final_totals": totals})
        if reopen:
            Match.objects.filter(pk=match.pk).update(
                status=Match.Status.PLAYING, winner=None, winner_team=None, finished_at=None
            )
        else:
            Match.objects.filter(pk=match.pk).update(winner=winner, winner_team=winner_team)
        match.refresh_from_db()
        event_results_bump(event=match.event)
        match_result_changed(match=match)
        if not reopen:
            match_finished(match=match)  # schedules ratings_update_task on commit


def _ratings():
    return {
        r.player_id: (r.rating, r.deviation, r.games)
        for r in Rating.objects.filter(kind=Rating.Kind.OPENSKILL)
    }


def _history():
    return sorted(
        (h.match_id, h.player_id, h.rating, h.deviation)
        for h in RatingHistory.objects.filter(kind=Rating.Kind.OPENSKILL)
    )


def _replay(games):
    """A fresh replay by hand: ``games`` as (sides of player ids, ranks), in order."""
    state: dict[int, RatingState] = {}
    count: dict[int, int] = {}
    for sides, ranks in games:
        before = [[state.get(pid, RatingState()) for pid in side] for side in sides]
        for side, after in zip(sides, rate_multiplayer(before, ranks), strict=True):
            for pid, s in zip(side, after, strict=True):
                state[pid] = s
                count[pid] = count.get(pid, 0) + 1
    return {pid: (s.mu, s.sigma, count[pid]) for pid, s in state.items()}


def _fresh(matches):
    """Ratings from nothing: every OpenSkill row dropped and each match rated once, in order."""
    Rating.objects.filter(kind=Rating.Kind.OPENSKILL).delete()
    RatingHistory.objects.filter(kind=Rating.Kind.OPENSKILL).delete()
    for m in matches:
        ratings_update_for_match(match_id=m.pk)
    return _ratings(), _history()


def test_three_box_winner_corrected_equals_a_fresh_replay(night):
    event, (a, b, c, d, e) = night
    m1 = finished_match(event, [a, b, c], at=T0, winner=a, totals=[120, 60, 30])
    m2 = finished_match(
        event, [a, b, c, d], at=T0 + timedelta(hours=1), winner_team=1, teams=[0, 1, 0, 1]
    )
    m3 = finished_match(
        event, [b, c, e], at=T0 + timedelta(hours=2), winner=e, totals=[10, 40, 110]
    )
    for m in (m1, m2, m3):
        ratings_update_task(match_id=m.pk)
    ids = lambda *ps: [[p.pk] for p in ps]  # noqa: E731
    team = [[a.pk, c.pk], [b.pk, d.pk]]
    assert _ratings() == _replay(
        [(ids(a, b, c), [1, 2, 3]), (team, [2, 1]), (ids(b, c, e), [3, 2, 1])]
    )
    before = _history()

    _correct(m1, winner=c, totals=[60, 30, 120])  # c won the box, a came second
    ratings_update_task(match_id=m1.pk)  # what match_finished scheduled on commit

    expected = _replay([(ids(a, b, c), [2, 3, 1]), (team, [2, 1]), (ids(b, c, e), [3, 2, 1])])
    assert _ratings() == expected
    assert _ratings()[c.pk][0] > _ratings()[a.pk][0]
    after = _history()
    assert after != before
    assert len(after) == 3 + 4 + 3  # one row per player of each match: the old ones replaced
    assert [(mid, pid) for mid, pid, *_ in after] == [(mid, pid) for mid, pid, *_ in before]
    # Each player's history after their last match is their current rating.
    last = {pid: (mu, sigma) for _, pid, mu, sigma in sorted(after)}
    assert last == {pid: v[:2] for pid, v in expected.items()}

    stamps = dict(RatingHistory.objects.values_list("pk", "created_at"))
    ratings_update_task(match_id=m1.pk)  # twice: nothing changes
    assert ratings_openskill_rebuild(club=event.club) == 0
    assert _ratings() == expected
    assert _history() == after
    assert dict(RatingHistory.objects.values_list("pk", "created_at")) == stamps

    assert _fresh([m1, m2, m3]) == (expected, after)


def test_partnership_winner_corrected_equals_a_fresh_replay(night):
    event, (a, b, c, d, e) = night
    m1 = finished_match(event, [a, b, c, d], at=T0, winner_team=0, teams=[0, 1, 0, 1])
    m2 = finished_match(event, [a, d, e], at=T0 + timedelta(hours=1), winner=d, totals=[5, 100, 50])
    for m in (m1, m2):
        ratings_update_for_match(match_id=m.pk)
    won_by_0 = _ratings()

    _correct(m1, winner_team=1)
    ratings_update_task(match_id=m1.pk)
    ratings_update_task(match_id=m1.pk)

    team = [[a.pk, c.pk], [b.pk, d.pk]]
    expected = _replay([(team, [2, 1]), ([[a.pk], [d.pk], [e.pk]], [3, 1, 2])])
    assert _ratings() == expected
    assert _ratings()[b.pk][0] > won_by_0[b.pk][0]
    assert _ratings()[a.pk][0] < won_by_0[a.pk][0]
    corrected = _history()
    assert _fresh([m1, m2]) == (expected, corrected)


def test_reopened_match_is_taken_out_by_the_correction_hook(night):
    event, (a, b, c, _, e) = night
    m1 = finished_match(event, [a, b, e], at=T0, winner=e, totals=[10, 20, 100])
    m2 = finished_match(
        event, [a, b, c], at=T0 + timedelta(hours=1), winner=a, totals=[100, 20, 50]
    )
    for m in (m1, m2):
        ratings_update_for_match(match_id=m.pk)
    assert e.pk in _ratings()

    _correct(m1, reopen=True)  # ratings_withdraw_match rebuilds at once, in the transaction

    assert _ratings() == _replay([([[a.pk], [b.pk], [c.pk]], [1, 3, 2])])
    assert e.pk not in _ratings()  # their only rated match no longer counts
    assert not RatingHistory.objects.filter(match=m1).exists()
    ratings_update_task(match_id=m1.pk)  # the task for a match no longer final: nothing more
    assert _ratings() == _replay([([[a.pk], [b.pk], [c.pk]], [1, 3, 2])])


def test_an_older_match_rated_late_is_replayed_in_order(night):
    event, (a, b, c, *_) = night
    m1 = finished_match(event, [a, b, c], at=T0, winner=a, totals=[100, 50, 20])
    m2 = finished_match(
        event, [a, b, c], at=T0 + timedelta(hours=1), winner=b, totals=[20, 100, 50]
    )
    ratings_update_task(match_id=m2.pk)  # the later match's task ran first
    ratings_update_task(match_id=m1.pk)
    ids = [[a.pk], [b.pk], [c.pk]]
    assert _ratings() == _replay([(ids, [1, 2, 3]), (ids, [3, 1, 2])])


def test_the_rebuild_reads_a_constant_number_of_queries(night, django_assert_max_num_queries):
    event, players = night
    for k in range(40):
        trio = [players[(k + j) % 5] for j in range(3)]
        finished_match(event, trio, at=T0 + timedelta(minutes=k), winner=trio[k % 3])
    ratings_openskill_rebuild(club=event.club)
    with django_assert_max_num_queries(12):
        assert ratings_openskill_rebuild(club=event.club) == 0
    assert RatingHistory.objects.filter(kind=Rating.Kind.OPENSKILL).count() == 120
    assert sum(g for _, _, g in _ratings().values()) == 120
