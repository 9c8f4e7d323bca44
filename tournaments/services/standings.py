"""Writes for standings: rebuilt whole from stored results, under the event's row lock."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.models import Event, Standing
from tournaments.selectors import league_table, standings_compute


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
            standings_seq=seq, standings_updated_at=timezone.now()
        )
    return seq
