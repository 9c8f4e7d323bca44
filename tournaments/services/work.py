"""Background consequences of results in tournaments: the standings prompt and the sweep that
finishes whatever is due whatever the broker or the worker did meanwhile.

What is due is always written in the database, in the transaction that stores the result:

- **standings**: ``Event.results_seq`` is bumped with every result; standings are due while
  ``standings_seq < results_seq``;
- **a queued pairing** and **ratings** after a finished match: a row of the work outbox
  (:class:`core.models.WorkDue`: the task's name and the id it takes), deleted by the task once
  done (``core.work``).

A message to the broker is only a prompt, sent after commit by ``core.work.task_send``, which
never raises: with the broker unreachable the request still answers its normal 2xx and the work
waits in the database. :func:`work_sweep` (beat, every minute, and each worker as it starts)
sends a prompt again for everything due whose prompt could not be sent, or was sent more than
``KNOCK_WORK_RESEND_AFTER`` seconds ago and is still not done (lost with a broker, or with a
worker killed mid-task). Every task is idempotent, so a prompt sent twice costs a no-op.

Tasks are sent by their Celery names, kept here (``tournaments.tasks`` declares its tasks under
them), so services send tasks without importing the module that defines them.

Standings rebuilds coalesce: ``Event.standings_queued_at`` is set when a prompt is sent and
cleared when a worker starts the rebuild, so results arriving while one is queued send nothing
(it will count them) and results arriving while one runs send exactly one more.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from core.work import task_send, work_due_sweep, work_resend_after
from tournaments.models import Event

logger = logging.getLogger(__name__)

# The Celery names of the tasks the services prompt. They are stored in the work outbox's rows
# and in messages waiting in the broker: a task keeps its name when its code moves.
STANDINGS_TASK = "tournaments.event_standings_rebuild"
RATINGS_MATCH_TASK = "tournaments.ratings_update"
ROUND_PAIR_TASK = "tournaments.round_pair"


def standings_prompt(*, event_id: int) -> bool:
    """Send one standings rebuild for ``event_id`` unless one is already waiting for a worker.

    Called after the commit of a result (``event_results_bump``); never raises. Returns
    whether a message was sent.
    """
    try:
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
        if task_send(STANDINGS_TASK, event_id):
            return True
        # Not sent: free the slot so the next result or the sweep tries again straight away.
        Event.objects.filter(pk=event_id, standings_queued_at=now).update(standings_queued_at=None)
    except Exception:
        logger.exception("Standings of event %s not scheduled; the sweep will do it.", event_id)
    return False


def standings_prompt_on_commit(*, event_id: int) -> None:
    """Prompt a standings rebuild once the current transaction commits (never fails it)."""
    transaction.on_commit(lambda: standings_prompt(event_id=event_id))


def work_sweep() -> dict[str, int]:
    """Send a prompt for everything due whose prompt is missing or old; returns counts by kind.

    Run by beat every minute and by each worker as it starts. A standings rebuild that failed
    is not retried until newer results arrive (its reason is shown instead); failed work waits
    longer after each attempt.
    """
    now = timezone.now()
    stale = now - work_resend_after()
    counts = {"standings": 0, "work": 0}

    behind = (
        Event.objects.filter(standings_seq__lt=F("results_seq"))
        .exclude(standings_error_seq=F("results_seq"))
        .filter(Q(standings_queued_at__isnull=True) | Q(standings_queued_at__lt=stale))
    )
    for event_id in list(behind.values_list("pk", flat=True)):
        Event.objects.filter(pk=event_id).update(standings_queued_at=None)
        counts["standings"] += standings_prompt(event_id=event_id)
    counts["work"] = work_due_sweep(now=now)
    if any(counts.values()):
        logger.info("Sweep sent %s", counts)
    return counts
