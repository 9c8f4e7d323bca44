"""Reads of a round's clock: what the console, the projector, the round and match pages and a
player's pass show (the arithmetic is ``competition.clock``'s)."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from competition import clock as arithmetic
from scoring.models import Match
from scoring.organiser import RoundClock
from tournaments.models import Event, Round


def round_clock(rnd: Round) -> arithmetic.Clock:
    """The stored clock of ``rnd`` as a value of the pure module."""
    return arithmetic.Clock(
        length=rnd.clock_length,
        started_at=rnd.clock_started_at,
        paused_at=rnd.clock_paused_at,
        paused_total=int(rnd.clock_paused_total or 0),
        extensions=arithmetic.extensions_read(rnd.clock_extensions),
    )


ClockView = RoundClock
"""A round's clock as a page shows it (scoring's value, so its match page shows it too)."""


def round_clock_state(
    *, rnd: Round, match_id: int | None = None, now: datetime | None = None
) -> ClockView | None:
    """The clock of ``rnd`` (for table ``match_id`` with its extra time), None without a length."""
    clock = round_clock(rnd)
    if clock.length is None:
        return None
    now = now or timezone.now()
    left = arithmetic.remaining(clock, now=now, match_id=match_id) or 0.0
    at = arithmetic.at_time(clock, now=now, match_id=match_id)
    return ClockView(
        round_number=rnd.number,
        phase=arithmetic.phase(clock, now=now).value,
        length=clock.length,
        remaining=int(left + 0.999),
        deadline=arithmetic.deadline(clock, match_id=match_id),
        extension=clock.extension(match_id),
        at_time=at,
        match_id=match_id,
    )


def event_clock_state(
    *, event: Event, match_id: int | None = None, now: datetime | None = None
) -> ClockView | None:
    """The clock of the event's latest round (None: no round, or no clock)."""
    rnd = Round.objects.filter(event=event).order_by("-number").first()
    return round_clock_state(rnd=rnd, match_id=match_id, now=now) if rnd is not None else None


def match_clock_state(*, match: Match, now: datetime | None = None) -> ClockView | None:
    """The clock of ``match``'s round for that table (None: no round, or no clock)."""
    if match.round_id is None:
        return None
    rnd = Round.objects.filter(pk=match.round_id).first()
    return round_clock_state(rnd=rnd, match_id=match.pk, now=now) if rnd is not None else None


def round_tables_after_time(*, rnd: Round, now: datetime | None = None) -> list[Match]:
    """The tables of ``rnd`` still playing after their time (extra time counted), by table."""
    clock = round_clock(rnd)
    if clock.length is None or clock.started_at is None:
        return []
    now = now or timezone.now()
    open_matches = (
        Match.objects.filter(round=rnd, decision=Match.Decision.PLAYED)
        .exclude(status=Match.Status.FINISHED)
        .order_by("table_number", "id")
    )
    return [m for m in open_matches if arithmetic.at_time(clock, now=now, match_id=m.pk)]
