"""Celery tasks of the tournaments app: thin, idempotent wrappers that take ids and call a service.

Every task is ``acks_late`` (a worker lost mid-task leaves the message to be redelivered) and
retries a bounded number of times with exponential backoff on database errors (a lock timeout,
a dropped connection). Running any of them twice is harmless: standings are rebuilt from stored
results, a pairing task does nothing once its round is no longer queued, and ratings are
recomputed from the stored matches.
"""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError
from django.db.models import F

from tournaments.models import Event

_RETRY = {
    "acks_late": True,
    "autoretry_for": (DatabaseError,),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 5,
}


@shared_task(name="tournaments.event_standings_rebuild", **_RETRY)
def event_standings_rebuild(event_id: int) -> int | None:
    """Rebuild one event's standings from its stored results; returns the sequence they reflect."""
    from tournaments.services import standings_recompute

    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return None
    return standings_recompute(event=event)


@shared_task(name="tournaments.standings_sweep", **_RETRY)
def standings_sweep() -> int:
    """Re-schedule every event whose standings are behind its results (lost messages heal here)."""
    behind = list(
        Event.objects.filter(standings_seq__lt=F("results_seq")).values_list("pk", flat=True)
    )
    for event_id in behind:
        event_standings_rebuild.delay(event_id)
    return len(behind)


@shared_task(name="tournaments.round_pair", **_RETRY)
def round_pair_task(round_id: int) -> str | None:
    """Pair a queued round (big Swiss fields); returns the round's status afterwards."""
    from tournaments.services import round_pair_execute

    rnd = round_pair_execute(round_id=round_id)
    return rnd.status if rnd is not None else None


@shared_task(name="tournaments.ratings_update", **_RETRY)
def ratings_update_task(match_id: int | None = None, event_id: int | None = None) -> None:
    """Update club ratings after one finished match, or for a whole event at once."""
    from tournaments.services import ratings_update_for_event, ratings_update_for_match

    if match_id is not None:
        ratings_update_for_match(match_id=match_id)
    if event_id is not None:
        event = Event.objects.filter(pk=event_id).first()
        if event is not None:
            ratings_update_for_event(event=event)
