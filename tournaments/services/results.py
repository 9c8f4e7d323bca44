"""The results sequence: how a stored or corrected result tells the standings they are behind."""

from __future__ import annotations

from django.db.models import F

from core.live import live_changed
from tournaments.models import Event
from tournaments.services.work import standings_prompt_on_commit


def event_results_bump(*, event: Event) -> int:
    """Record that one of ``event``'s results changed (:func:`event_results_seq_bump`), and keep
    the new sequence number on ``event``; returns it."""
    event.results_seq = event_results_seq_bump(event_id=event.pk)
    return event.results_seq


def event_results_seq_bump(*, event_id: int) -> int:
    """Record that one of event ``event_id``'s results changed, and schedule its standings on
    commit.

    Called inside the transaction that stores or confirms a result, so the sequence moves with
    the result or not at all: the bumped sequence *is* the durable record that standings are
    due. The prompt to the worker after commit never fails the request and coalesces with one
    already queued (``standings_prompt``); the standings task rebuilds from stored results, so
    a lost or doubled message cannot make standings wrong, and the sweep re-sends any prompt
    that was lost. Returns the new sequence number.
    """
    Event.objects.filter(pk=event_id).update(results_seq=F("results_seq") + 1)
    live_changed(page="event", pk=event_id)
    seq = Event.objects.filter(pk=event_id).values_list("results_seq", flat=True).get()
    standings_prompt_on_commit(event_id=event_id)
    return int(seq)
