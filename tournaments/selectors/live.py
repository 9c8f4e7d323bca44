"""The event page's live version: what spectators' pages poll to know the page changed.

No new bookkeeping: the results sequence moves with every stored, confirmed, disputed or
withdrawn result and every round paired (``event_results_bump``), and the standings sequence
with every rebuild of the standings by the worker. Both only grow, so their sum only grows; a
league adds its events' results sequences (its table is built from them).
"""

from __future__ import annotations

from django.db.models import Sum

from tournaments.models import Event


def event_version(*, event_id: int) -> int | None:
    """The event's live version (None: no such event); one indexed read (two for a league)."""
    row = (
        Event.objects.filter(pk=event_id)
        .values_list("results_seq", "standings_seq", "kind")
        .first()
    )
    if row is None:
        return None
    results, standings, kind = row
    version = int(results) + int(standings)
    if kind == Event.Kind.LEAGUE:
        events = Event.objects.filter(league_id=event_id).aggregate(n=Sum("results_seq"))["n"]
        version += int(events or 0)
    return version
