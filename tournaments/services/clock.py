"""Writes of a round's clock: give it a length, start, pause and resume it, give one table extra
time. The arithmetic is ``competition.clock``'s; this module checks who asks (the event's
directors, by the one rule), stores the new clock, keeps it in the event's log and moves the
live versions of the event and of the round's tables, so every page of the round shows it
within one poll.

"Starts" is the director pressing *Start* on the console: pairing a round does not start its
clock, because players still walk to their tables (docs/rules.md, *The round's clock*).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import clock as arithmetic
from core.errors import ApplicationError
from core.live import live_changed
from scoring.models import Match
from tournaments.models import Event, EventLog, Round
from tournaments.permissions import user_directs_event
from tournaments.selectors.clock import round_clock

MINUTES_MAX = arithmetic.MAX_LENGTH // 60
EXTRA_MINUTES_MAX = arithmetic.MAX_EXTENSION // 60


def clock_error_message(code: str) -> str:
    """A :class:`competition.clock.ClockError`'s code in the reader's language."""
    messages = {
        "length": _("A round lasts from 1 to %(n)s minutes.") % {"n": MINUTES_MAX},
        "no_length": _("Give the round a length first."),
        "started": _("The round's clock has already started."),
        "not_started": _("The round's clock has not started."),
        "paused": _("The round's clock is already paused."),
        "not_paused": _("The round's clock is not paused."),
        "extension": _("A table's extra time is from 1 to %(n)s minutes in all.")
        % {"n": EXTRA_MINUTES_MAX},
    }
    return messages.get(code, code)


def _change(
    *,
    rnd: Round,
    user: Any,
    action: str,
    move: Callable[[arithmetic.Clock], arithmetic.Clock],
    details: dict[str, Any] | None = None,
) -> Round:
    """Apply ``move`` to the stored clock of ``rnd`` under the round's lock, and record it."""
    if not user_directs_event(user=user, event_id=rnd.event_id):
        raise ApplicationError(_("Only the event's directors may run its clock."), status=403)
    with transaction.atomic():
        event = Event.objects.get(pk=rnd.event_id)
        locked = Round.objects.select_for_update().get(pk=rnd.pk)
        if event.status == Event.Status.FINISHED:
            raise ApplicationError(_("The event is finished."), status=409)
        if locked.status in (Round.Status.QUEUED, Round.Status.FAILED):
            raise ApplicationError(_("The round is not paired yet."), status=409)
        try:
            new = move(round_clock(locked))
        except arithmetic.ClockError as exc:
            status = 400 if exc.code in ("length", "extension") else 409
            raise ApplicationError(clock_error_message(exc.code), status=status) from exc
        locked.clock_length = new.length
        locked.clock_started_at = new.started_at
        locked.clock_paused_at = new.paused_at
        locked.clock_paused_total = new.paused_total
        locked.clock_extensions = arithmetic.extensions_store(new.extensions)
        locked.clock_seq = F("clock_seq") + 1
        locked.save(
            update_fields=[
                "clock_length",
                "clock_started_at",
                "clock_paused_at",
                "clock_paused_total",
                "clock_extensions",
                "clock_seq",
            ]
        )
        locked.refresh_from_db()
        EventLog.objects.create(
            event=event,
            kind=EventLog.Kind.ROUND_CLOCK,
            round_number=locked.number,
            reason=action,
            details={"action": action, **(details or {})},
            user=user if getattr(user, "is_authenticated", False) else None,
        )
        match_ids = list(Match.objects.filter(round=locked).values_list("pk", flat=True))
        Match.objects.filter(pk__in=match_ids).update(live_seq=F("live_seq") + 1)
        live_changed(page="event", pk=event.pk)
        for match_id in match_ids:
            live_changed(page="match", pk=match_id)
    return locked


def round_clock_set(*, rnd: Round, user: Any, minutes: int | None) -> Round:
    """Give ``rnd`` a length of ``minutes`` (None: no clock; only before it started)."""
    if minutes is not None and (
        not isinstance(minutes, int) or isinstance(minutes, bool) or not 0 < minutes <= MINUTES_MAX
    ):
        raise ApplicationError(clock_error_message("length"), field="minutes")
    seconds = minutes * 60 if minutes is not None else None
    return _change(
        rnd=rnd,
        user=user,
        action="set",
        move=lambda c: arithmetic.length_set(c, seconds=seconds),
        details={"minutes": minutes},
    )


def round_clock_start(*, rnd: Round, user: Any, minutes: int | None = None) -> Round:
    """Start the clock of ``rnd`` now (giving it ``minutes`` first, when given)."""
    if minutes is not None:
        rnd = round_clock_set(rnd=rnd, user=user, minutes=minutes)
    now = timezone.now()
    return _change(rnd=rnd, user=user, action="start", move=lambda c: arithmetic.start(c, now=now))


def round_clock_pause(*, rnd: Round, user: Any) -> Round:
    """Stop the clock of ``rnd`` now; the time paused does not count."""
    now = timezone.now()
    return _change(rnd=rnd, user=user, action="pause", move=lambda c: arithmetic.pause(c, now=now))


def round_clock_resume(*, rnd: Round, user: Any) -> Round:
    """Run the clock of ``rnd`` again from now."""
    now = timezone.now()
    return _change(
        rnd=rnd, user=user, action="resume", move=lambda c: arithmetic.resume(c, now=now)
    )


def round_clock_extend(*, rnd: Round, user: Any, match_id: int, minutes: int) -> Round:
    """Give one table of ``rnd`` ``minutes`` more (negative: take back extra time given)."""
    if not isinstance(minutes, int) or isinstance(minutes, bool) or minutes == 0:
        raise ApplicationError(clock_error_message("extension"), field="minutes")
    if not Match.objects.filter(pk=match_id, round_id=rnd.pk).exists():
        raise ApplicationError(_("That table is not in this round."), field="match")
    return _change(
        rnd=rnd,
        user=user,
        action="extend",
        move=lambda c: arithmetic.extend(c, match_id=match_id, seconds=minutes * 60),
        details={"match": match_id, "minutes": minutes},
    )
