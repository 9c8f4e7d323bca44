"""The event page's live version: what spectators' pages poll to know the page changed.

No new bookkeeping: the results sequence moves with every stored, confirmed, disputed or
withdrawn result (``event_results_bump``), the standings sequence with every rebuild of the
standings by the worker, the number of rounds with each round started (and each round's clock
sequence with every change of its clock), and the newest match's
id with every table started or paired. Each of them grows, so their sum does (it may step back
only when a director's correction removes the newest bracket match; clients compare versions
for equality, never order). A league adds its events' results sequences (its table is built
from them).

One statement (a league's events' sum included), read by primary key and indexed subqueries.
It is the most frequent request of a club night (every open page polls it every 2 s), so its
SQL is written once per process instead of being compiled by the ORM on every poll, which
cost about three times the query itself.
"""

from __future__ import annotations

from functools import cache

from django.db import connections, router
from django.db.models import Model

from scoring.models import Match
from tournaments.models import Event, Round


def _column(model: type[Model], name: str) -> str:
    field = model._meta.get_field(name)
    column = getattr(field, "column", None)
    assert isinstance(column, str), name
    return column


@cache
def _sql(alias: str) -> str:
    """The statement for one database (its quoting; the names come from the models)."""
    q = connections[alias].ops.quote_name
    event, rounds, match = (
        q(Event._meta.db_table),
        q(Round._meta.db_table),
        q(Match._meta.db_table),
    )
    pk = q(_column(Event, "id"))
    round_event = q(_column(Round, "event"))
    match_event = q(_column(Match, "event"))
    match_pk = q(_column(Match, "id"))
    league = q(_column(Event, "league"))
    results = q(_column(Event, "results_seq"))
    standings = q(_column(Event, "standings_seq"))
    kind = q(_column(Event, "kind"))
    clock_seq = q(_column(Round, "clock_seq"))
    return (
        f"SELECT e.{results}, e.{standings}, "
        f"(SELECT COUNT(*) + COALESCE(SUM(r.{clock_seq}), 0) FROM {rounds} r "
        f"WHERE r.{round_event} = e.{pk}), "
        f"(SELECT MAX(m.{match_pk}) FROM {match} m WHERE m.{match_event} = e.{pk}), "
        f"CASE WHEN e.{kind} = %s THEN "
        f"(SELECT SUM(c.{results}) FROM {event} c WHERE c.{league} = e.{pk}) END "
        f"FROM {event} e WHERE e.{pk} = %s"
    )


def event_version(*, event_id: int) -> int | None:
    """The event's live version (None: no such event)."""
    alias = router.db_for_read(Event)
    with connections[alias].cursor() as cursor:
        cursor.execute(_sql(alias), [str(Event.Kind.LEAGUE), event_id])
        row = cursor.fetchone()
    if row is None:
        return None
    results, standings, rounds_n, newest_match, league_results = row
    return (
        int(results)
        + int(standings)
        + int(rounds_n or 0)
        + int(newest_match or 0)
        + int(league_results or 0)
    )
