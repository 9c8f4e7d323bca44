"""Writes for standings: rebuilt whole from stored results, under the event's row lock."""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tournaments.models import Event, Standing
from tournaments.selectors import league_table, standings_compute

logger = logging.getLogger(__name__)


def standings_recompute(*, event: Event, force: bool = False) -> int:
    """Rebuild ``event``'s standings from its stored results; return the sequence they reflect.

    The event row is locked (``select_for_update``; on SQLite the IMMEDIATE transaction already
    serialises writers), so two rebuilds never interleave and a result cannot commit half-way
    through one: the ``results_seq`` read under the lock is exactly what the rows reflect. Already
    current standings are left alone unless ``force``.
    """
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        seq = event.results_seq
        if not force and event.standings_seq == seq and event.standings_updated_at is not None:
            return seq
        if event.kind == Event.Kind.LEAGUE:
            lines = league_table(league=event)
        else:
            lines = standings_compute(event=event)
        Standing.objects.filter(event=event).delete()
        Standing.objects.bulk_create(
            [
                Standing(
                    event=event, player_id=line.player, rank=line.rank, values=line.values, seq=seq
                )
                for line in lines
            ]
        )
        Event.objects.filter(pk=event.pk).update(
            standings_seq=seq,
            standings_updated_at=timezone.now(),
            standings_error="",
            standings_error_seq=None,
        )
    return seq


def standings_failed(*, event: Event, error: BaseException) -> None:
    """Record that ``event``'s standings could not be rebuilt, and why (logged with the event).

    The stored standings stay as they were; readers see the error state with its reason
    instead of "updating" (``event_standings``), and the sweep does not retry until newer
    results arrive or a director asks for a rebuild.
    """
    logger.error(
        "Standings of event %s (%s) could not be computed at result %s: %r",
        event.pk,
        event.name,
        event.results_seq,
        error,
        exc_info=error,
    )
    reason = str(error) or error.__class__.__name__
    Event.objects.filter(pk=event.pk).update(
        standings_error=reason[:2000],
        standings_error_seq=F("results_seq"),
    )
