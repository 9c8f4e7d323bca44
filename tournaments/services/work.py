"""Background consequences of results: sending them without ever failing a request, and the sweep
that finishes whatever is due whatever the broker or the worker did meanwhile.

What is due is always written in the database, in the transaction that stores the result:

- **standings**: ``Event.results_seq`` is bumped with every result; standings are due while
  ``standings_seq < results_seq``;
- **a queued pairing** and **ratings** after a finished match: a
  :class:`~tournaments.models.WorkDue` row (kind, id), deleted by the task once done.

A message to the broker is only a prompt to do it now. It is sent after commit by
:func:`task_send`, which never raises: with the broker unreachable the request still answers
its normal 2xx and the work waits in the database. :func:`work_sweep` (beat, every minute, and
each worker as it starts) sends a prompt again for everything due whose prompt could not be
sent, or was sent more than ``KNOCK_WORK_RESEND_AFTER`` seconds ago and is still not done (lost
with a broker, or with a worker killed mid-task). Every task is idempotent, so a prompt sent
twice costs a no-op.

Standings rebuilds coalesce: ``Event.standings_queued_at`` is set when a prompt is sent and
cleared when a worker starts the rebuild, so results arriving while one is queued send nothing
(it will count them) and results arriving while one runs send exactly one more.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from tournaments.models import Event, WorkDue

logger = logging.getLogger(__name__)

STANDINGS = "standings"
"""The kind under which the standings rebuild task is registered (its work is ``results_seq``)."""

_TASKS: dict[str, tuple[Any, str]] = {}


def work_task_register(*, kind: str, task: Any, arg: str) -> None:
    """Name the task that does work ``kind``, and the keyword its id goes in.

    ``tournaments.tasks`` registers its tasks when it is imported (``TournamentsConfig.ready``
    imports it in every process), so services send tasks without importing the module that
    imports them: the dependency points one way, tasks to services.
    """
    _TASKS[kind] = (task, arg)


def _work_task(kind: str) -> tuple[Any, str]:
    try:
        return _TASKS[kind]
    except KeyError:
        raise ImproperlyConfigured(f"No task is registered for work {kind!r}.") from None


def task_send(task: Any, /, *args: Any, **kwargs: Any) -> bool:
    """Send ``task`` to the broker now; ``False`` (logged) if the broker cannot take it.

    Never raises: the work it prompts is recorded in the database, and the sweep sends it again.
    ``retry=False`` so an unreachable broker costs a request one failed connection attempt
    (``CELERY_BROKER_CONNECTION_TIMEOUT`` at most), not kombu's retry loop.
    """
    try:
        task.apply_async(args=args, kwargs=kwargs, retry=False)
    except Exception as exc:  # any broker or transport failure: the sweep resends
        logger.warning(
            "Could not send %s%r to the broker (%s); the sweep will send it again.",
            task.name,
            args or kwargs,
            exc,
        )
        return False
    return True


def _resend_after() -> timedelta:
    return timedelta(seconds=int(getattr(settings, "KNOCK_WORK_RESEND_AFTER", 90)))


def standings_prompt(*, event_id: int) -> bool:
    """Send one standings rebuild for ``event_id`` unless one is already waiting for a worker.

    Called after the commit of a result (``event_results_bump``); never raises. Returns
    whether a message was sent.
    """
    try:
        task, _ = _work_task(STANDINGS)
        # A rebuild already waiting for a worker will count this result (it reads the results
        # when it starts): seen by a plain read, no UPDATE queues on the event's row lock, which
        # every table's results go through (docs/live.md).
        queued = Event.objects.filter(pk=event_id).values_list("standings_queued_at", flat=True)
        if next(iter(queued), None) is not None:
            return False
        now = timezone.now()
        claimed = Event.objects.filter(pk=event_id, standings_queued_at__isnull=True).update(
            standings_queued_at=now
        )
        if not claimed:
            return False
        if task_send(task, event_id):
            return True
        # Not sent: free the slot so the next result or the sweep tries again straight away.
        Event.objects.filter(pk=event_id, standings_queued_at=now).update(standings_queued_at=None)
    except Exception:
        logger.exception("Standings of event %s not scheduled; the sweep will do it.", event_id)
    return False


def standings_prompt_on_commit(*, event_id: int) -> None:
    """Prompt a standings rebuild once the current transaction commits (never fails it)."""
    transaction.on_commit(lambda: standings_prompt(event_id=event_id))


def work_due_add(*, kind: str, key: int) -> None:
    """Record work due for ``key`` in the current transaction and prompt its task after commit."""
    WorkDue.objects.create(kind=kind, key=key, sent_at=timezone.now())
    transaction.on_commit(lambda: _send_work(kind, key))


def work_due_done(*, kind: str, key: int, ids: list[int]) -> None:
    """Delete the work rows ``ids`` a task has just carried out (rows added since stay due)."""
    WorkDue.objects.filter(kind=kind, key=key, pk__in=ids).delete()


def work_due_failed(*, kind: str, key: int, ids: list[int], error: str) -> None:
    """Keep the rows of failed work with the reason; the sweep retries with a growing delay."""
    WorkDue.objects.filter(kind=kind, key=key, pk__in=ids).update(error=error[:2000])


def _send_work(kind: str, key: int) -> bool:
    """Prompt the task for work ``kind``/``key``; if it cannot be sent, mark the rows unsent so
    the next sweep (or a worker's start) sends them at once."""
    try:
        task, name = _work_task(kind)
        if task_send(task, **{name: key}):
            return True
        WorkDue.objects.filter(kind=kind, key=key).update(sent_at=None)
    except Exception:
        logger.exception("Work %s %s not sent; the sweep will send it.", kind, key)
    return False


def work_sweep() -> dict[str, int]:
    """Send a prompt for everything due whose prompt is missing or old; returns counts by kind.

    Run by beat every minute and by each worker as it starts. A standings rebuild that failed
    is not retried until newer results arrive (its reason is shown instead); failed work waits
    longer after each attempt.
    """
    now = timezone.now()
    stale = now - _resend_after()
    counts = {"standings": 0, "work": 0}

    behind = (
        Event.objects.filter(standings_seq__lt=F("results_seq"))
        .exclude(standings_error_seq=F("results_seq"))
        .filter(Q(standings_queued_at__isnull=True) | Q(standings_queued_at__lt=stale))
    )
    for event_id in list(behind.values_list("pk", flat=True)):
        Event.objects.filter(pk=event_id).update(standings_queued_at=None)
        counts["standings"] += standings_prompt(event_id=event_id)

    due: dict[tuple[str, int], list[WorkDue]] = {}
    for row in WorkDue.objects.filter(Q(sent_at__isnull=True) | Q(sent_at__lt=stale)):
        due.setdefault((row.kind, row.key), []).append(row)
    for (kind, key), rows in due.items():
        attempts = max(r.attempts for r in rows)
        # Failed work waits longer each time (up to an hour) instead of failing every minute.
        wait = _resend_after() * (2 ** min(attempts, 5)) if any(r.error for r in rows) else None
        last = max((r.sent_at for r in rows if r.sent_at), default=None)
        if wait is not None and last is not None and last > now - wait:
            continue
        WorkDue.objects.filter(pk__in=[r.pk for r in rows]).update(
            sent_at=now, attempts=F("attempts") + 1
        )
        counts["work"] += _send_work(kind, key)
    if any(counts.values()):
        logger.info("Sweep sent %s", counts)
    return counts
