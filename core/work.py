"""The work outbox: prompting background tasks without ever failing a request, and the sweep
that prompts again whatever is still due whatever the broker or the worker did meanwhile.

An app records work due as a :class:`~core.models.WorkDue` row (the name of the Celery task
that does it, and the id that task takes) in the transaction that stores its cause; the task
deletes its rows once done (:func:`work_due_done`). A message to the broker is only a prompt,
sent after commit by :func:`task_send`, which never raises: with the broker unreachable the
request still answers its normal 2xx and the work waits in the database.
:func:`work_due_sweep` sends a prompt again for every row whose prompt could not be sent, or
was sent more than ``KNOCK_WORK_RESEND_AFTER`` seconds ago and is still not done.

Tasks are sent by name through Celery (``celery.signature``): core imports no app's tasks. In
a process that has the task registered (every process that loaded the apps), the signature
sends through the task itself, with its options; otherwise through ``send_task``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from celery import signature
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from core.models import WorkDue

logger = logging.getLogger(__name__)


def task_send(name: str, /, *args: Any, **kwargs: Any) -> bool:
    """Send the task called ``name`` to the broker now; ``False`` (logged) if it cannot be sent.

    Never raises: the work it prompts is recorded in the database, and the sweep sends it again.
    ``retry=False`` so an unreachable broker costs a request one failed connection attempt
    (``CELERY_BROKER_CONNECTION_TIMEOUT`` at most), not kombu's retry loop.
    """
    try:
        signature(name, args=args, kwargs=kwargs).apply_async(retry=False)
    except Exception as exc:  # any broker or transport failure: the sweep resends
        logger.warning(
            "Could not send %s%r to the broker (%s); the sweep will send it again.",
            name,
            args or kwargs,
            exc,
        )
        return False
    return True


def work_resend_after() -> timedelta:
    """How long a prompt may go unanswered before the sweep sends it again."""
    return timedelta(seconds=int(getattr(settings, "KNOCK_WORK_RESEND_AFTER", 90)))


def work_due_add(*, task: str, key: int) -> None:
    """Record that task ``task`` is due for ``key`` in the current transaction, and prompt it
    after commit."""
    WorkDue.objects.create(task=task, key=key, sent_at=timezone.now())
    transaction.on_commit(lambda: work_due_send(task=task, key=key))


def work_due_ids(*, task: str, key: int) -> list[int]:
    """The rows of work ``task``/``key`` due now (a task reads them before it starts, and deletes
    only those once done: rows added meanwhile stay due)."""
    return list(WorkDue.objects.filter(task=task, key=key).values_list("pk", flat=True))


def work_due_done(*, task: str, key: int, ids: list[int]) -> None:
    """Delete the work rows ``ids`` a task has just carried out (rows added since stay due)."""
    WorkDue.objects.filter(task=task, key=key, pk__in=ids).delete()


def work_due_failed(*, task: str, key: int, ids: list[int], error: str) -> None:
    """Keep the rows of failed work with the reason; the sweep retries with a growing delay."""
    WorkDue.objects.filter(task=task, key=key, pk__in=ids).update(error=error[:2000])


def work_due_send(*, task: str, key: int) -> bool:
    """Prompt ``task`` for ``key``; if it cannot be sent, mark the rows unsent so the next sweep
    (or a worker's start) sends them at once. Never raises."""
    try:
        if task_send(task, key):
            return True
        WorkDue.objects.filter(task=task, key=key).update(sent_at=None)
    except Exception:
        logger.exception("Work %s %s not sent; the sweep will send it.", task, key)
    return False


def work_due_sweep(*, now: datetime | None = None) -> int:
    """Send a prompt for every work due whose prompt is missing or old; returns how many.

    Failed work (rows with an error) waits longer after each attempt, up to about an hour,
    instead of failing every minute.
    """
    now = now or timezone.now()
    resend_after = work_resend_after()
    stale = now - resend_after
    due: dict[tuple[str, int], list[WorkDue]] = {}
    for row in WorkDue.objects.filter(Q(sent_at__isnull=True) | Q(sent_at__lt=stale)):
        due.setdefault((row.task, row.key), []).append(row)
    sent = 0
    for (task, key), rows in due.items():
        attempts = max(r.attempts for r in rows)
        wait = resend_after * (2 ** min(attempts, 5)) if any(r.error for r in rows) else None
        last = max((r.sent_at for r in rows if r.sent_at), default=None)
        if wait is not None and last is not None and last > now - wait:
            continue
        WorkDue.objects.filter(pk__in=[r.pk for r in rows]).update(
            sent_at=now, attempts=F("attempts") + 1
        )
        sent += work_due_send(task=task, key=key)
    return sent
