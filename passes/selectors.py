"""Reads for passes: what a pass shows its holder (their own match, results and standing, and of
anyone else only what the event's public pages show: a name at a table), its live version, and
the console's count of opened passes."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Max

from entries.models import Entry
from entries.selectors import entry_waiting_rank, event_mailable
from passes.models import PlayerPass
from scoring.models import Match
from tournaments.models import ELIMINATION_KINDS, Event, Registration, Round, Standing
from tournaments.selectors import BracketNext, bracket_next
from tournaments.standings_labels import TIEBREAK_LABELS


@dataclass(frozen=True, slots=True)
class CurrentMatch:
    """The holder's match now: the newest one of theirs not finished (or the latest round's)."""

    match: Match
    round_number: int | None
    table: int | None
    position: int | None  # the holder's seat, from 0 (None: a bye)
    opponents: tuple[str, ...]
    bye: bool
    finished: bool

    @property
    def seat(self) -> int | None:
        return None if self.position is None else self.position + 1


@dataclass(frozen=True, slots=True)
class PastResult:
    round_number: int | None
    table: int | None
    opponents: tuple[str, ...]
    outcome: str  # won, lost, drawn, bye, walkover, forfeit


@dataclass(frozen=True, slots=True)
class PassView:
    """Everything a pass page and ``GET /api/events/{id}/pass/`` show the holder."""

    player_pass: PlayerPass
    event: Event
    registration: Registration
    current: CurrentMatch | None
    results: tuple[PastResult, ...]
    rank: int | None
    standing: tuple[tuple[str, Any], ...] = field(default=())
    rounds_paired: int = 0
    # The holder's own pass for the playoff cut from this event, once they are in it.
    next_pass: PlayerPass | None = None
    # In a bracket, whom the holder meets next while that match is not made yet.
    bracket_next: BracketNext | None = None


def _names(match: Match, player_id: int) -> tuple[str, ...]:
    return tuple(s.player.name for s in match.seats.all() if s.player_id != player_id)


def _position(match: Match, player_id: int) -> int | None:
    for seat in match.seats.all():
        if seat.player_id == player_id:
            return seat.position
    return None


def _matches(registration: Registration) -> list[Match]:
    return list(
        Match.objects.filter(
            event_id=registration.event_id, seats__player_id=registration.player_id
        )
        .select_related("round")
        .prefetch_related("seats__player")
        .order_by("-created_at", "-pk")
    )


def _current(matches: list[Match], player_id: int) -> CurrentMatch | None:
    chosen = next((m for m in matches if m.status != Match.Status.FINISHED), None)
    if chosen is None and matches:
        latest_round = max((m.round.number for m in matches if m.round is not None), default=None)
        if latest_round is not None:
            chosen = next(
                (m for m in matches if m.round is not None and m.round.number == latest_round),
                None,
            )
    if chosen is None:
        return None
    bye = chosen.decision == Match.Decision.BYE
    position = _position(chosen, player_id)
    return CurrentMatch(
        match=chosen,
        round_number=chosen.round.number if chosen.round is not None else None,
        table=chosen.table_number,
        position=None if bye else position,
        opponents=_names(chosen, player_id),
        bye=bye,
        finished=chosen.status == Match.Status.FINISHED,
    )


def pass_current_match(*, player_pass: PlayerPass) -> CurrentMatch | None:
    """The holder's current match (see :class:`CurrentMatch`)."""
    registration = player_pass.registration
    return _current(_matches(registration), registration.player_id)


def _outcome(match: Match, player_id: int) -> str:
    if match.decision == Match.Decision.BYE:
        return "bye"
    if match.decision == Match.Decision.FORFEIT:
        return "forfeit"
    if match.winner_id is None:
        return "drawn"
    if match.winner_id == player_id:
        return "walkover" if match.decision == Match.Decision.WALKOVER else "won"
    return "lost"


def pass_next(*, registration: Registration) -> PlayerPass | None:
    """The holder's active pass for the playoff cut from ``registration``'s event (the newest,
    if several), or None: the pass points on to it."""
    return (
        PlayerPass.objects.select_related("registration__event")
        .filter(
            registration__event__playoff_of_id=registration.event_id,
            registration__player_id=registration.player_id,
            revoked_at__isnull=True,
        )
        .order_by("-registration__event_id")
        .first()
    )


def entry_pass(*, entry: Entry) -> PlayerPass | None:
    """The pass ``entry``'s link now opens (the entry has a place and its pass was issued with
    the link's nonce), or None: no place yet, or the director has reissued that pass."""
    if entry.registration_id is None or not entry.nonce:
        return None
    return (
        PlayerPass.objects.select_related("registration__event", "registration__player")
        .filter(registration_id=entry.registration_id, nonce=entry.nonce, revoked_at__isnull=True)
        .first()
    )


@dataclass(frozen=True, slots=True)
class EntryView:
    """What an entry's link shows its entrant before they have a place: their entry only."""

    entry: Entry
    event: Event
    rank: int | None  # on the waiting list, 1 moves up first
    has_pass: bool  # they have a place now: the link opens their pass


def entry_view(*, entry: Entry) -> EntryView:
    entry = Entry.objects.select_related("event").get(pk=entry.pk)
    return EntryView(
        entry=entry,
        event=entry.event,
        rank=entry_waiting_rank(entry=entry),
        has_pass=entry_pass(entry=entry) is not None,
    )


def entry_version(*, entry: Entry) -> int:
    """The live version of an entry's page: it moves when its status or its place on the
    waiting list changes (someone ahead withdrew or moved up), or it gets its pass."""
    view = entry_view(entry=entry)
    state = repr((view.entry.status, view.rank, view.has_pass, view.entry.registration_id))
    return int(hashlib.sha256(state.encode()).hexdigest()[:13], 16)


def pass_view(*, player_pass: PlayerPass) -> PassView:
    """What ``player_pass`` shows its holder."""
    registration = player_pass.registration
    event = registration.event
    matches = _matches(registration)
    pid = registration.player_id
    results = tuple(
        PastResult(
            round_number=m.round.number if m.round is not None else None,
            table=m.table_number,
            opponents=_names(m, pid),
            outcome=_outcome(m, pid),
        )
        for m in reversed(matches)
        if m.status == Match.Status.FINISHED
    )
    row = Standing.objects.filter(event=event, player_id=pid).first()
    standing: tuple[tuple[str, Any], ...] = ()
    if row is not None:
        standing = tuple(
            (str(TIEBREAK_LABELS[name]), value)
            for name, value in (row.values or {}).items()
            if name in TIEBREAK_LABELS
        )
    paired = (
        Round.objects.filter(event=event)
        .exclude(status__in=[Round.Status.QUEUED, Round.Status.FAILED])
        .aggregate(n=Max("number"))["n"]
        or 0
    )
    current = _current(matches, pid)
    waiting = registration.status != Registration.Status.DROPPED and (
        current is None or (current.finished and not current.bye)
    )
    return PassView(
        player_pass=player_pass,
        event=event,
        registration=registration,
        current=current,
        results=results,
        rank=row.rank if row is not None else None,
        standing=standing,
        rounds_paired=paired,
        next_pass=pass_next(registration=registration),
        bracket_next=bracket_next(event=event, player_id=pid) if waiting else None,
    )


def pass_version(*, player_pass: PlayerPass) -> int:
    """The pass page's live version: it moves when anything the holder sees may have changed
    (their registration, the event's rounds, their match, their own standing).

    While a round of a Swiss, round robin or league is in play the event's results and standings
    move with every other table (six results a second at 1,000 tables), and a version moving
    with them would send every pass to draw itself again at every poll. The pass then moves
    with the holder's own row of the standings (their points and tie-breaks, so their own
    result shows once counted; their rank is as of that drawing) and follows the whole table
    again once no round is in play. A bracket's pass follows every result: another table
    decides the holder's next opponent.

    ``player_pass`` is as just read, with its registration and event (``held_pass`` reads the
    three in one query, which this does not repeat).
    """
    registration = player_pass.registration
    event = registration.event
    held: dict[str, Any] = {
        "revoked_at": player_pass.revoked_at,
        "status": registration.status,
        "results_seq": event.results_seq,
        "standings_seq": event.standings_seq,
        "event_status": event.status,
    }
    event_id, player_id = registration.event_id, registration.player_id
    rounds = list(Round.objects.filter(event_id=event_id).values_list("number", "status"))
    open_matches = list(
        Match.objects.filter(event_id=event_id, seats__player_id=player_id)
        .order_by("-pk")
        .values_list("pk", "status", "live_seq")[:2]
    )
    further: Any
    in_play = any(status == Round.Status.PAIRED for _, status in rounds)
    if in_play and event.kind not in ELIMINATION_KINDS:
        # a round in play: the holder's own standing, not the whole table's (and no playoff
        # is cut from an event while its rounds are being played)
        held.pop("results_seq")
        held.pop("standings_seq")
        further = (
            Standing.objects.filter(event_id=event_id, player_id=player_id)
            .values_list("values", flat=True)
            .first()
        )
    else:
        following = pass_next(registration=registration)
        further = following and following.pk
    state = repr((held, rounds, open_matches, further))
    return int(hashlib.sha256(state.encode()).hexdigest()[:13], 16)


def passes_opened_count(*, event: Event) -> tuple[int, int]:
    """(passes opened, passes held) among the event's players still in it."""
    active = PlayerPass.objects.filter(registration__event=event, revoked_at__isnull=True).exclude(
        registration__status=Registration.Status.DROPPED
    )
    return active.exclude(opened_at__isnull=True).count(), active.count()


def passes_withdrawn(*, event: Event) -> list[tuple[str, Any]]:
    """Who dropped out with their pass, and when (the console lists them)."""
    return [
        (name, at)
        for name, at in PlayerPass.objects.filter(
            registration__event=event, withdrew_at__isnull=False
        )
        .order_by("withdrew_at")
        .values_list("registration__player__name", "withdrew_at")
    ]


def passes_mailable(*, event_id: int) -> bool:
    """Whether any pass holder of the event may have an address to mail (an entry with an
    email, theirs or, in a playoff, the one they made for the event it was cut from)."""
    return event_mailable(event_id=event_id)
