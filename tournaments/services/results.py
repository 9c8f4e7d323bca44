"""The results sequence: how a stored or corrected result tells the standings they are behind."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from tournaments.models import Event


def event_results_bump(*, event: Event) -> int:
    """Record that one of ``event``'s results changed, and schedule its standings on commit.

    Called inside the transaction that stores or confirms a result, so the sequence moves with
    the result or not at all. The standings task rebuilds from stored results, so a lost or
    doubled message cannot make standings wrong; the beat sweep re-schedules any event whose
    standings are behind. Returns the new sequence number.
    """
    Event.objects.filter(pk=event.pk).update(results_seq=F("results_seq") + 1)
    event.refresh_from_db(fields=["results_seq"])
    from tournaments.tasks import event_standings_rebuild

    event_id = event.pk
    transaction.on_commit(lambda: event_standings_rebuild.delay(event_id))
    return event.results_seq
