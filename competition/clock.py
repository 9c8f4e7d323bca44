"""The round's clock: pure arithmetic, no Django, no database.

A director may give a round a length. The clock does not run while the round is only paired:
players still look for their tables. It starts when the director presses *Start* on the
console (``start``), may be paused and resumed (the time paused does not count), and one table
may be given extra time (a ruling took minutes: ``extend``). At time a table's clock reads zero
and stays there (``at_time``); "time" means: finish the hand being played
(docs/rules.md, *The round's clock*).

Everything is a value: a :class:`Clock` and an instant in, a new :class:`Clock` or a number out,
so the services store what these functions return and the pages show what they compute. Times
are aware ``datetime`` values; durations are whole seconds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum
from types import MappingProxyType

MAX_LENGTH = 24 * 60 * 60
"""The longest round a director may set (a day), in seconds."""

MAX_EXTENSION = 4 * 60 * 60
"""The most extra time one table may be given in total (four hours), in seconds."""


class Phase(StrEnum):
    """Where a round's clock is."""

    UNSET = "unset"  # no length: the round has no clock
    READY = "ready"  # a length, not started
    RUNNING = "running"
    PAUSED = "paused"
    TIME = "time"  # running, and the round's own time is up (a table may have extra time)


class ClockError(ValueError):
    """A move the clock cannot make; ``code`` says which (the services word it)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _frozen(extensions: Mapping[int, int]) -> Mapping[int, int]:
    return MappingProxyType(dict(extensions))


@dataclass(frozen=True, slots=True)
class Clock:
    """One round's clock as stored: its length, when it started, when it was paused (None while
    it runs), how long it has been paused before, and each table's extra seconds by match id."""

    length: int | None = None
    started_at: datetime | None = None
    paused_at: datetime | None = None
    paused_total: int = 0
    extensions: Mapping[int, int] = field(default_factory=lambda: _frozen({}))

    def extension(self, match_id: int | None) -> int:
        """The extra seconds of one table (0 for the round as a whole, ``match_id=None``)."""
        if match_id is None:
            return 0
        return int(self.extensions.get(match_id, 0))


def elapsed(clock: Clock, *, now: datetime) -> float:
    """Seconds the clock has run: not while paused, never below zero, 0 before it starts."""
    if clock.started_at is None:
        return 0.0
    until = clock.paused_at if clock.paused_at is not None else now
    return max(0.0, (until - clock.started_at).total_seconds() - clock.paused_total)


def remaining(clock: Clock, *, now: datetime, match_id: int | None = None) -> float | None:
    """Seconds left for the round (or one table with its extra time), never below zero; None
    when the round has no length."""
    if clock.length is None:
        return None
    total = clock.length + clock.extension(match_id)
    return max(0.0, total - elapsed(clock, now=now))


def deadline(clock: Clock, *, match_id: int | None = None) -> datetime | None:
    """When time is up for the round (or one table), while the clock runs; None when it has no
    length, has not started, or is paused (a paused clock has no deadline, only a remainder)."""
    if clock.length is None or clock.started_at is None or clock.paused_at is not None:
        return None
    seconds = clock.paused_total + clock.length + clock.extension(match_id)
    return clock.started_at + timedelta(seconds=seconds)


def at_time(clock: Clock, *, now: datetime, match_id: int | None = None) -> bool:
    """True once the clock has started and the round's (or the table's) time is used up."""
    left = remaining(clock, now=now, match_id=match_id)
    return clock.started_at is not None and left is not None and left <= 0


def phase(clock: Clock, *, now: datetime) -> Phase:
    """Where the round's clock is now (a table's own extra time does not change it)."""
    if clock.length is None:
        return Phase.UNSET
    if clock.started_at is None:
        return Phase.READY
    if clock.paused_at is not None:
        return Phase.PAUSED
    if at_time(clock, now=now):
        return Phase.TIME
    return Phase.RUNNING


def length_set(clock: Clock, *, seconds: int | None) -> Clock:
    """The clock with a new length (None: no clock), before or after it started: a running
    clock keeps its time used, so a longer length gives time back."""
    if seconds is not None and not 0 < seconds <= MAX_LENGTH:
        raise ClockError("length")
    if seconds is None and clock.started_at is not None:
        raise ClockError("started")
    return replace(clock, length=seconds)


def start(clock: Clock, *, now: datetime) -> Clock:
    """The clock started at ``now`` (it needs a length, and starts once)."""
    if clock.length is None:
        raise ClockError("no_length")
    if clock.started_at is not None:
        raise ClockError("started")
    return replace(clock, started_at=now, paused_at=None, paused_total=0)


def pause(clock: Clock, *, now: datetime) -> Clock:
    """The clock stopped at ``now`` (a running clock only; one at time is still running: its
    tables with extra time go on)."""
    if clock.started_at is None:
        raise ClockError("not_started")
    if clock.paused_at is not None:
        raise ClockError("paused")
    return replace(clock, paused_at=max(now, clock.started_at))


def resume(clock: Clock, *, now: datetime) -> Clock:
    """The clock running again from ``now``: the pause is added to the time paused."""
    if clock.paused_at is None:
        raise ClockError("not_paused")
    paused = max(0, math.ceil((now - clock.paused_at).total_seconds()))
    return replace(clock, paused_at=None, paused_total=clock.paused_total + paused)


def extend(clock: Clock, *, match_id: int, seconds: int) -> Clock:
    """One table given ``seconds`` more (a ruling took time); a negative number takes back time
    given, never below none. A round without a length has nothing to extend."""
    if clock.length is None:
        raise ClockError("no_length")
    if seconds == 0:
        raise ClockError("extension")
    total = clock.extension(match_id) + seconds
    if total < 0 or total > MAX_EXTENSION:
        raise ClockError("extension")
    extensions = dict(clock.extensions)
    if total:
        extensions[match_id] = total
    else:
        extensions.pop(match_id, None)
    return replace(clock, extensions=_frozen(extensions))


def extensions_read(stored: object) -> dict[int, int]:
    """Stored extensions (JSON: ``{"<match id>": seconds}``) as match id to seconds; anything
    unreadable (a row typed into the admin) is left out, never raised."""
    out: dict[int, int] = {}
    if not isinstance(stored, Mapping):
        return out
    for key, value in stored.items():
        try:
            match_id, seconds = int(key), int(value)
        except (TypeError, ValueError, OverflowError):
            continue
        if seconds > 0:
            out[match_id] = seconds
    return out


def extensions_store(extensions: Mapping[int, int]) -> dict[str, int]:
    """Extensions as the JSON column keeps them (string keys, sorted)."""
    return {str(k): int(v) for k, v in sorted(extensions.items())}
