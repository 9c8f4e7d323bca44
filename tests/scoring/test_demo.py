"""The scoring demo: a club night with finished and running tables, idempotent."""

from __future__ import annotations

import pytest
from django.db.models import Count

from scoring.demo import EVENT_NAME
from scoring.models import HandSubmission, Match
from scoring.selectors import match_detail, match_prefetched, match_state
from tournaments.demo import demo_load

pytestmark = pytest.mark.django_db


def test_demo_club_night_is_idempotent():
    first = demo_load()
    assert any("9 tables (4 finished, 5 playing)" in line for line in first)
    counts = (Match.objects.count(), HandSubmission.objects.count())
    assert "kept" in demo_load()[-1]
    assert (Match.objects.count(), HandSubmission.objects.count()) == counts
    tables = Match.objects.filter(event__name=EVENT_NAME).order_by("table_number")
    details = [
        match_detail(state=match_state(match=match_prefetched(match_id=m.pk))) for m in tables
    ]
    assert details[0]["finished"]
    assert details[0]["games"][0]["totals"] == [127, 57]  # hand 2 corrected to 25 + 32
    assert details[1]["pending"] is not None
    assert details[3]["next"]["roles"]["box"]["position"] == 2
    assert HandSubmission.objects.filter(status="superseded").count() == 1


def test_demo_club_night_has_every_entry_state():
    """A director trying the demo sees an entry waiting for them (disputed, with the reason) and
    a hand whose history shows a withdrawn entry before the confirmed one."""
    demo_load()
    night = HandSubmission.objects.filter(hand__game__match__event__name=EVENT_NAME)
    statuses = set(night.values_list("status", flat=True))
    assert {"confirmed", "pending", "disputed", "withdrawn", "superseded"} <= statuses
    disputed = night.get(status="disputed")
    assert disputed.dispute_reason
    assert disputed.hand.game.match.status == Match.Status.PLAYING
    withdrawn = night.get(status="withdrawn")
    assert withdrawn.dispute_reason  # it was disputed first, then withdrawn
    again = night.filter(hand=withdrawn.hand).exclude(pk=withdrawn.pk).get()
    assert again.status == "confirmed"


def test_demo_has_every_outcome_and_its_standings_can_be_computed():
    """What ``make run`` shows: every hand outcome, and standings that are current once a worker
    (here: the service it calls) has run, for every event including the club night."""
    from tournaments.models import Event
    from tournaments.selectors import event_standings
    from tournaments.services import standings_recompute

    demo_load()
    confirmed = HandSubmission.objects.filter(status="confirmed")
    outcomes = set(confirmed.values_list("outcome", flat=True))
    assert {"dead", "knock", "undercut", "gin", "big_gin", "rummy", "out"} <= outcomes
    tables = Match.objects.filter(event__name=EVENT_NAME)
    assert tables.filter(seats__team__isnull=False).exists()  # a partnership
    gem = tables.filter(rules__family="gem").annotate(n=Count("seats")).filter(n=3)
    assert gem.filter(status="finished").exists()  # three-player Gem
    for event in Event.objects.exclude(kind=Event.Kind.LEAGUE):
        standings_recompute(event=event)
        assert event_standings(event=event).state == "current", event.name
    night = Event.objects.get(name=EVENT_NAME)
    assert event_standings(event=night).rows  # everybody who played is counted
