"""The results sequence: how a stored or corrected result tells the standings they are behind."""

from __future__ import annotations

from django.db.models import Case, F, PositiveBigIntegerField, When

from core.live import live_changed
from tournaments.models import Event
from tournaments.services.work import standings_prompt_on_commit


def event_results_bump(*, event: Event) -> int:
    """Record that one of ``event``'s results changed (:func:`event_results_seq_bump`), and keep
    the new sequence number on ``event``; returns it."""
    event.results_seq = event_results_seq_bump(event_id=event.pk)
    return event.results_seq


def event_results_seq_bump(*, event_id: int, counted: bool = True) -> int:
    """Record that one of event ``event_id``'s results changed, and schedule its standings on
    commit.

    Called inside the transaction that stores or confirms a result, so the sequence moves with
    the result or not at all: the bumped sequence *is* the durable record that standings are
    due. The prompt to the worker after commit never fails the request and coalesces with one
    already queued (``standings_prompt``); the standings task rebuilds from stored results, so
    a lost or doubled message cannot make standings wrong, and the sweep re-sends any prompt
    that was lost. Returns the new sequence number.

    A change that is not ``counted`` (a hand of a match still in play: standings count final
    results only, ``event_results_snapshot``) leaves current standings current: their
    sequence moves with the results' in the same statement, so no rebuild is due for it (at a
    national open, one rebuild per finished match instead of one per hand entered or
    confirmed). Standings already behind stay behind, and the rebuild due counts this change
    too, as before.
    """
    bumped = F("results_seq") + 1
    if counted:
        Event.objects.filter(pk=event_id).update(results_seq=bumped)
    else:
        along = Case(
            When(standings_seq=F("results_seq"), then=F("standings_seq") + 1),
            default=F("standings_seq"),
            output_field=PositiveBigIntegerField(),
        )
        Event.objects.filter(pk=event_id).update(results_seq=bumped, standings_seq=along)
    live_changed(page="event", pk=event_id)
    seq, standings = (
        Event.objects.filter(pk=event_id).values_list("results_seq", "standings_seq").get()
    )
    if standings < seq:
        standings_prompt_on_commit(event_id=event_id)
    return int(seq)
