"""The event page's live version: what spectators' pages poll to know the page changed.

No new bookkeeping: the results sequence moves with every stored, confirmed, disputed or
withdrawn result (``event_results_bump``), the standings sequence with every rebuild of the
standings by the worker, the number of rounds with each round started, and the newest match's
id with every table started or paired. Each of them grows, so their sum does (it may step back
only when a director's correction removes the newest bracket match; clients compare versions
for equality, never order). A league adds its events' results sequences (its table is built
from them). One statement, read by primary key and two indexed subqueries.
"""

from __future__ import annotations

from django.db.models import Count, IntegerField, Max, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from scoring.models import Match
from tournaments.models import Event, Round


def event_version(*, event_id: int) -> int | None:
    """The event's live version (None: no such event)."""
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
