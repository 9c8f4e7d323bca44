"""Standings: computed from the results snapshot (:func:`standings_compute`), the stored ones
with their freshness (:func:`event_standings`), and a league's table aggregated from its
events (:func:`league_table`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.tiebreaks import StandingsRow, TieBreakConfig, rank
from core.errors import ApplicationError
from tournaments.models import Event, Registration, Standing
from tournaments.selectors.options import event_tiebreak_order
from tournaments.selectors.results import (
    MatchRecord,
    ResultsSnapshot,
    event_match_records,
    event_results_snapshot,
    open_play_rounds,
    option_points,
)


def _num(value: Fraction | int) -> float | int:
    f = Fraction(value)
    return int(f) if f.denominator == 1 else round(float(f), 6)


def _counts(snapshot: ResultsSnapshot) -> dict[int, dict[str, Any]]:
    """Matches played, won, drawn and lost, byes, game points, hands won and gins per player."""
    out = {
        p: {
            "played": 0,
            "won": 0,
            "drawn": 0,
            "lost": 0,
            "byes": 0,
            "game_points": 0,
            "hands_won": 0,
            "gins": 0,
        }
        for p in snapshot.players
    }
    win = Fraction(snapshot.config.win_points)
    for r in snapshot.results:
        if r.second is None and not r.played:
            out[r.first.player]["byes"] += 1
            continue
        for side in (r.first,) if r.second is None else (r.first, r.second):
            row = out[side.player]
            row["played"] += 1 if r.played else 0
            mp = Fraction(side.match_points)
            if mp == win:
                row["won"] += 1
            elif r.played and mp * 2 == win:
                row["drawn"] += 1
            else:
                row["lost"] += 1
            row["game_points"] += int(side.game_points)
            row["hands_won"] += side.hands_won
            row["gins"] += side.gins
    return out


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One computed line of standings, ready to store or to compare with the stored one."""

    player: int
    rank: int
    values: dict[str, Any]


def standings_compute(
    *, event: Event, snapshot: ResultsSnapshot | None = None
) -> list[StandingLine]:
    """The event's standings computed from scratch from stored results (nothing is stored).

    The ranking is :func:`competition.tiebreaks.rank` with the event's tie-break
    order; for grouped round robins each group is ranked on its own as well.
    """
    if snapshot is None:
        snapshot = event_results_snapshot(event=event)
    order = event_tiebreak_order(event=event)
    rows = rank(
        snapshot.players,
        snapshot.results,
        order,
        event.lots_seed,
        config=snapshot.config,
        rounds=snapshot.rounds,
    )
    counts = _counts(snapshot)
    group_of: dict[int, int] = {}
    group_rank: dict[int, int] = {}
    groups = (event.draw or {}).get("groups") or []
    if len(groups) > 1:
        for g, members in enumerate(groups, start=1):
            inside = set(members)
            sub = [
                r
                for r in snapshot.results
                if r.first.player in inside and (r.second is None or r.second.player in inside)
            ]
            for row in rank(
                sorted(inside),
                sub,
                order,
                event.lots_seed,
                config=snapshot.config,
                rounds=snapshot.rounds,
            ):
                group_of[row.player] = g
                group_rank[row.player] = row.rank
    return [_line(row, counts, snapshot, group_of, group_rank) for row in rows]


def _line(
    row: StandingsRow,
    counts: dict[int, dict[str, Any]],
    snapshot: ResultsSnapshot,
    group_of: dict[int, int],
    group_rank: dict[int, int],
) -> StandingLine:
    values: dict[str, Any] = {"match_points": _num(row.match_points)}
    for tb, v in row.tiebreaks:
        values[tb.value] = _num(v)
    values.update(counts[row.player])
    values["dropped"] = row.player in snapshot.dropped
    if row.player in group_of:
        values["group"] = group_of[row.player]
        values["group_rank"] = group_rank[row.player]
    return StandingLine(player=row.player, rank=row.rank, values=values)


PODIUM_PLACES = 3
"""The places a finished event's podium shows."""


@dataclass(frozen=True, slots=True)
class EventStandings:
    """Stored standings with their freshness: ``as_of`` results sequence, ``stale`` if behind."""

    event: Event
    rows: list[Standing]
    as_of: int
    results_seq: int
    stale: bool
    updated_at: Any
    error: str = ""

    @property
    def state(self) -> str:
        """``"error"`` (the latest results could not be counted), ``"updating"`` or
        ``"current"``."""
        if self.error:
            return "error"
        return "updating" if self.stale else "current"

    @property
    def updated_today(self) -> bool:
        """Whether the standings were last counted today (local time): the page then shows
        only the time, "Updated 14:32"."""
        if self.updated_at is None:
            return False
        return bool(timezone.localdate(self.updated_at) == timezone.localdate())

    def podium(self) -> list[Standing]:
        """The places a finished event celebrates: every line ranked first, second or third
        (players tied on every tie-break share a place, so a podium may hold more than three),
        best first; dropped players keep their place. Empty while the event is not finished."""
        if self.event.status != Event.Status.FINISHED:
            return []
        return [row for row in self.rows if row.rank <= PODIUM_PLACES]


def event_standings(*, event: Event) -> EventStandings:
    """The stored standings: current, marked "updating, as of result ``as_of``", or, when the
    rebuild for the latest results failed, marked with why (``error``, in the reader's language).

    A league's table is aggregated from its events on the fly instead (see :func:`league_table`).
    """
    event.refresh_from_db(
        fields=[
            "results_seq",
            "standings_seq",
            "standings_updated_at",
            "standings_error",
            "standings_error_seq",
        ]
    )
    rows = list(Standing.objects.filter(event=event).select_related("player").order_by("rank"))
    stale = event.standings_seq < event.results_seq
    error = ""
    if stale and event.standings_error and event.standings_error_seq == event.results_seq:
        error = _("Standings could not be computed: %(reason)s; the director has been told.") % {
            "reason": event.standings_error
        }
    return EventStandings(
        event=event,
        rows=rows,
        as_of=event.standings_seq,
        results_seq=event.results_seq,
        stale=stale,
        updated_at=event.standings_updated_at,
        error=error,
    )


def league_table(*, league: Event) -> list[StandingLine]:
    """A league's table: every finished match of its events, ranked as one club night would be.

    Each match counts once, tables of three or more players included (a win for the winner, a
    loss for the others, margins as game points: see :func:`event_results_snapshot`); the
    league's own tie-break order applies (default: game points, lots). Players are everyone
    registered in the league or any of its events.
    """
    if league.kind != Event.Kind.LEAGUE:
        raise ApplicationError(_("Only a league has a league table."), status=400)
    events = list(Event.objects.filter(league=league))
    records: list[tuple[int, MatchRecord]] = []
    players: set[int] = set(
        Registration.objects.filter(Q(event=league) | Q(event__league=league)).values_list(
            "player_id", flat=True
        )
    )
    for ev in events:
        records.extend((ev.pk, r) for r in event_match_records(event=ev, finished_only=True))
    win = option_points(league, "win_points")
    results = open_play_rounds((rec for _ev_id, rec in records), players, league)
    dropped = frozenset(
        Registration.objects.filter(event=league, status=Registration.Status.DROPPED).values_list(
            "player_id", flat=True
        )
    )
    snapshot = ResultsSnapshot(
        players=tuple(sorted(players)),
        results=tuple(results),
        rounds=None,
        dropped=dropped,
        config=TieBreakConfig(win_points=win),
    )
    lines = standings_compute(event=league, snapshot=snapshot)
    played_in: dict[int, set[int]] = defaultdict(set)
    for ev_id, rec in records:
        for pid in rec.players:
            played_in[pid].add(ev_id)
    for line in lines:
        line.values["events"] = len(played_in.get(line.player, ()))
    return lines


def league_results_seq(*, league: Event) -> int:
    """The sum of the league's events' result sequences: it moves whenever any result does."""
    total = Event.objects.filter(league=league).values_list("results_seq", flat=True)
    return sum(total)
