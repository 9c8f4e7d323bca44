"""The event's live version read in one raw statement: the same number the ORM's reading of the
same counters gives (the results and standings sequences, the number of rounds, the newest
match's id, a league's events' results), at every step of an event and of a league."""

from __future__ import annotations

import pytest
from django.db.models import Count, IntegerField, Max, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from scoring.models import Match
from tests.tournaments.factories import EventFactory, swiss_event
from tests.tournaments.helpers import ONE_HAND, director_knock
from tournaments.models import Event, Round
from tournaments.selectors.live import event_version
from tournaments.services import round_pair, standings_recompute

pytestmark = pytest.mark.django_db


def _orm_version(event_id: int) -> int | None:
    """The version as the selector read it before (ORM subqueries, a second query for a
    league): the reference the raw statement must match."""
    rounds = (
        Round.objects.filter(event_id=OuterRef("pk"))
        .order_by()
        .values("event_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    newest = (
        Match.objects.filter(event_id=OuterRef("pk"))
        .order_by()
        .values("event_id")
        .annotate(n=Max("pk"))
        .values("n")
    )
    zero = Value(0, output_field=IntegerField())
    row = (
        Event.objects.filter(pk=event_id)
        .annotate(
            rounds_n=Coalesce(Subquery(rounds, output_field=IntegerField()), zero),
            newest_match=Coalesce(Subquery(newest, output_field=IntegerField()), zero),
        )
        .values_list("results_seq", "standings_seq", "rounds_n", "newest_match", "kind")
        .first()
    )
    if row is None:
        return None
    results, standings, rounds_n, newest_match, kind = row
    version = int(results) + int(standings) + int(rounds_n) + int(newest_match)
    if kind == Event.Kind.LEAGUE:
        events = Event.objects.filter(league_id=event_id).aggregate(n=Sum("results_seq"))["n"]
        version += int(events or 0)
    return version


def _same(event_id: int, django_assert_num_queries) -> int:
    with django_assert_num_queries(1):
        version = event_version(event_id=event_id)
    assert version == _orm_version(event_id)
    assert version is not None
    return version


def test_the_version_is_the_orm_reading_at_every_step_in_one_query(django_assert_num_queries):
    event = swiss_event(4, rules=ONE_HAND)
    other = swiss_event(4, rules=ONE_HAND)  # another event's rows must not count
    round_pair(event=other)
    seen = [_same(event.pk, django_assert_num_queries)]
    round_pair(event=event)
    seen.append(_same(event.pk, django_assert_num_queries))
    director_knock(Match.objects.filter(event=event, decision="played").first())
    seen.append(_same(event.pk, django_assert_num_queries))
    standings_recompute(event=event)
    seen.append(_same(event.pk, django_assert_num_queries))
    Event.objects.filter(pk=event.pk).update(results_seq=7, standings_seq=5)
    seen.append(_same(event.pk, django_assert_num_queries))
    assert seen == sorted(set(seen)), seen
    assert seen[0] == 0


def test_a_league_adds_its_events_results_and_an_unknown_event_is_none(
    django_assert_num_queries,
):
    league = EventFactory(kind=Event.Kind.LEAGUE)
    empty = _same(league.pk, django_assert_num_queries)
    nights = [EventFactory(club=league.club, league=league) for _ in range(2)]
    Event.objects.filter(pk=nights[0].pk).update(results_seq=3)
    Event.objects.filter(pk=nights[1].pk).update(results_seq=4)
    assert _same(league.pk, django_assert_num_queries) == empty + 7
    # A club night's own events (none) and its league's are not added to a night's version.
    assert _same(nights[0].pk, django_assert_num_queries) == 3
    with django_assert_num_queries(1):
        assert event_version(event_id=999999) is None
    assert _orm_version(999999) is None
