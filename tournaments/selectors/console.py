"""The director's console of an event: one round's tables with their state, how many are done,
whether the next round can be paired, every round one tap away, and the event's log.

A table's state is read from stored rows only (no engine call): ``finished`` when its match is
final, ``disputed`` when an entry of it is disputed, ``waiting`` when an entry waits for the
other side's confirmation, else ``playing``. Byes, walkovers and double forfeits are decided by
the pairing and listed last. Club nights and leagues have no rounds: their console is the open
tables and the latest finished ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F

from scoring.models import HandSubmission, Match
from scoring.organiser import RoundClock
from tournaments.models import ELIMINATION_KINDS, ROUND_KINDS, Event, EventLog, Round
from tournaments.selectors.clock import round_clock_state, round_tables_after_time
from tournaments.selectors.lists import seats_with_players

PAIRED_KINDS = (Event.Kind.SWISS, Event.Kind.ROUND_ROBIN)

# Missing and disputed results first: the order the console lists tables in.
STATE_ORDER = {"disputed": 0, "waiting": 1, "playing": 2, "finished": 3, "decided": 4}


@dataclass(frozen=True, slots=True)
class ConsoleTable:
    """One table of the round: who sits there, its state, and the entry to settle if any."""

    match_id: int
    table_number: int | None
    players: tuple[str, ...]
    state: str  # playing, waiting, disputed, finished, decided (bye, walkover, forfeit)
    decision: str
    winner: str | None
    open_entry: int | None  # the pending or disputed submission a director would open


@dataclass(frozen=True, slots=True)
class ConsoleRound:
    """A round in the round list: its number, status and tables done."""

    number: int
    status: str
    finished: int
    tables: int


@dataclass(frozen=True, slots=True)
class ConsoleState:
    """Everything the console page and ``GET /api/events/{id}/console/`` show."""

    event: Event
    round: Round | None
    is_latest: bool
    tables: tuple[ConsoleTable, ...]
    finished: int
    total: int
    rounds: tuple[ConsoleRound, ...]
    can_pair: bool
    can_force: bool
    next_round: int | None
    blocked: str  # why the next round cannot be paired: a code, "" when it can
    log: tuple[EventLog, ...]
    # The round's clock (None: no length) and the tables still playing after their time.
    clock: RoundClock | None = None
    after_time: tuple[ConsoleTable, ...] = ()

    @property
    def missing(self) -> int:
        return self.total - self.finished


def _state(match: Match, open_status: str) -> str:
    if match.decision != Match.Decision.PLAYED:
        return "decided"
    if match.status == Match.Status.FINISHED:
        return "finished"
    if open_status == HandSubmission.Status.DISPUTED:
        return "disputed"
    if open_status == HandSubmission.Status.PENDING:
        return "waiting"
    return "playing"


def _tables(matches: list[Match]) -> list[ConsoleTable]:
    """The tables of ``matches`` in console order, their open entries read in one query."""
    open_entries: dict[int, tuple[str, int | None]] = {}
    rows = (
        HandSubmission.objects.filter(
            hand__game__match__in=[m.pk for m in matches if m.status != Match.Status.FINISHED],
            status__in=[HandSubmission.Status.PENDING, HandSubmission.Status.DISPUTED],
        )
        .order_by("hand__game__match_id", "id")
        .values_list("hand__game__match_id", "status", "pk")
    )
    for match_id, status, pk in rows:
        # A disputed entry outweighs a pending one at the same table.
        if match_id not in open_entries or status == HandSubmission.Status.DISPUTED:
            open_entries[match_id] = (status, pk)
    out = []
    for m in matches:
        seats = sorted(m.seats.all(), key=lambda s: s.position)
        names = {s.player_id: s.player.name for s in seats}
        status, entry = open_entries.get(m.pk, ("", None))
        out.append(
            ConsoleTable(
                match_id=m.pk,
                table_number=m.table_number,
                players=tuple(s.player.name for s in seats),
                state=_state(m, status),
                decision=m.decision,
                winner=names.get(m.winner_id) if m.winner_id else None,
                open_entry=entry,
            )
        )
    out.sort(key=lambda t: (STATE_ORDER[t.state], t.table_number or 10**6, t.match_id))
    return out


def _rounds(event: Event) -> tuple[ConsoleRound, ...]:
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    counts: dict[int, list[int]] = {r.pk: [0, 0] for r in rounds}
    for round_id, status in Match.objects.filter(
        round__event=event, decision=Match.Decision.PLAYED
    ).values_list("round_id", "status"):
        counts[round_id][1] += 1
        counts[round_id][0] += status == Match.Status.FINISHED
    return tuple(ConsoleRound(r.number, r.status, counts[r.pk][0], counts[r.pk][1]) for r in rounds)


def _blocked(event: Event, latest: Round | None, missing: int, rounds_done: int) -> str:
    """Why the next round cannot be paired now (a code the page and API word), or ""."""
    if event.status == Event.Status.FINISHED:
        return "event_finished"
    if event.kind in ELIMINATION_KINDS:
        return "bracket_drawn" if latest is not None else ""
    if latest is not None and latest.status == Round.Status.QUEUED:
        return "pairing"
    if latest is not None and latest.status == Round.Status.FAILED:
        return "pairing_failed"
    if missing:
        return "results_missing"
    if (
        event.kind == Event.Kind.SWISS
        and event.rounds_planned
        and rounds_done >= event.rounds_planned
    ):
        return "all_rounds_paired"
    return ""


def event_console(*, event: Event, round_number: int | None = None) -> ConsoleState:
    """The console of ``event`` at round ``round_number`` (the latest round when None).

    Raises ``Round.DoesNotExist`` for a round the event does not have.
    """
    log = tuple(
        EventLog.objects.filter(event=event).select_related("user").order_by("-created_at", "-id")
    )
    if event.kind not in ROUND_KINDS:
        matches = list(
            Match.objects.filter(event=event)
            .prefetch_related(seats_with_players())
            .order_by("status", "-created_at", "-id")[:60]
        )
        tables = _tables(matches)
        played = [t for t in tables if t.state != "decided"]
        done = sum(t.state == "finished" for t in played)
        return ConsoleState(
            event=event,
            round=None,
            is_latest=True,
            tables=tuple(tables),
            finished=done,
            total=len(played),
            rounds=(),
            can_pair=False,
            can_force=False,
            next_round=None,
            blocked="no_rounds",
            log=log,
        )
    rounds = _rounds(event)
    latest = Round.objects.filter(event=event).order_by("-number").first() if rounds else None
    if round_number is None or (latest is not None and round_number == latest.number):
        rnd = latest
    else:
        rnd = Round.objects.get(event=event, number=round_number)
    matches = (
        list(
            Match.objects.filter(round=rnd)
            .prefetch_related(seats_with_players())
            .order_by(F("table_number").asc(nulls_last=True), "id")
        )
        if rnd is not None
        else []
    )
    tables = _tables(matches)
    played = [t for t in tables if t.state != "decided"]
    done = sum(t.state == "finished" for t in played)
    clock = round_clock_state(rnd=rnd) if rnd is not None else None
    after_time: tuple[ConsoleTable, ...] = ()
    if clock is not None and rnd is not None:
        late = {m.pk for m in round_tables_after_time(rnd=rnd)}
        after_time = tuple(
            sorted(
                (t for t in played if t.match_id in late),
                key=lambda t: (t.table_number or 10**6, t.match_id),
            )
        )
    latest_missing = next((r.tables - r.finished for r in rounds[-1:]), 0)
    blocked = _blocked(event, latest, latest_missing, len(rounds))
    return ConsoleState(
        event=event,
        round=rnd,
        is_latest=rnd is None or rnd == latest,
        tables=tuple(tables),
        finished=done,
        total=len(played),
        rounds=rounds,
        can_pair=blocked == "",
        can_force=blocked == "results_missing" and event.kind in PAIRED_KINDS,
        next_round=(latest.number + 1 if latest else 1) if event.kind in PAIRED_KINDS else None,
        blocked=blocked,
        log=log,
        clock=clock,
        after_time=after_time,
    )
