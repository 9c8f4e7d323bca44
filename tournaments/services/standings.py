"""Writes for standings: computed whole from one consistent read of the stored results, then
stored under the event's row lock."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from core.live import live_changed
from tournaments.models import Event, Standing
from tournaments.selectors import league_table, standings_compute

logger = logging.getLogger(__name__)


@contextmanager
def _one_read() -> Iterator[None]:
    """Reads that all see one committed state of the database, without holding a write lock.

    On PostgreSQL a read-only ``REPEATABLE READ`` transaction; on SQLite a deferred
    transaction (in WAL mode its reads share one snapshot and never wait for writers, while an
    ``atomic`` block there is ``BEGIN IMMEDIATE``, the write lock). Inside a caller's
    transaction the reads are that transaction's own.
    """
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
        return
    if connection.vendor != "sqlite":
        with transaction.atomic():
            yield
        return
    with connection.cursor() as cursor:  # Django's autocommit mode: nothing else opens one
        cursor.execute("BEGIN DEFERRED")
    try:
        yield
    finally:
        if connection.connection is not None and connection.connection.in_transaction:
            with connection.cursor() as cursor:
                cursor.execute("COMMIT")  # only reads were made: ends the snapshot


def standings_recompute(*, event: Event, force: bool = False) -> int:
    """Rebuild ``event``'s standings from its stored results; return the sequence they reflect.

    The results are read in one consistent read (:func:`_one_read`) together with the
    ``results_seq`` they amount to, without locking anything: at a national open a rebuild
    takes a second or two, and every table's results commit through the event's row, so
    holding its lock (or SQLite's write lock) for the computation kept each result waiting
    (``make bench``, ``bench.national_bench``). Only storing the lines takes the event's row
    lock (``select_for_update``; on SQLite the IMMEDIATE transaction serialises writers), and
    the lines are stored only if no rebuild has stored a later count meanwhile: the stored
    rows always reflect exactly the ``standings_seq`` they carry. Results that commit during
    the computation are counted by the rebuild they prompt (``standings_prompt``). Already
    current standings are left alone unless ``force``.
    """
    with _one_read():
        event = Event.objects.get(pk=event.pk)
        seq = event.results_seq
        if not force and event.standings_seq == seq and event.standings_updated_at is not None:
            return seq
        if event.kind == Event.Kind.LEAGUE:
            lines = league_table(league=event)
        else:
            lines = standings_compute(event=event)
    with transaction.atomic():
        stored = Event.objects.select_for_update().filter(pk=event.pk)
        current = stored.values_list("standings_seq", "standings_updated_at").get()
        if current[0] > seq or (current[0] == seq and current[1] is not None and not force):
            return int(current[0])
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
        live_changed(page="event", pk=event.pk)
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
