"""Celery tasks of the tournaments app: thin, idempotent wrappers that take ids and call a service.

Every task is ``acks_late`` with ``reject_on_worker_lost`` (a worker lost mid-task leaves the
message to be redelivered) and retries a bounded number of times with exponential backoff on
database errors (a lock timeout, a dropped connection). Running any of them twice is harmless:
standings are rebuilt from stored results, a pairing task does nothing once its round is no
longer queued, and ratings are recomputed from the stored matches. A message that is lost
anyway (broker down when it was sent, a worker killed on a broker without redelivery) is sent
again by :func:`work_sweep`, run by beat, by every worker as it starts and by a worker whose
consumer has just reconnected to the broker: what is due is always recorded in the database
(see ``tournaments.services.work`` and the work outbox, ``core.work``). Each task is declared
under the name the services send it by (``tournaments.services.work``).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from celery import shared_task
from celery.signals import worker_ready
from django.db import DatabaseError, connection

from core.work import work_due_done, work_due_failed, work_due_ids
from core.worker_steps import consumer_reconnected
from ratings.services import ratings_update_for_match
from tournaments.models import Event
from tournaments.services import (
    ratings_update_for_event,
    round_pair_execute,
    standings_failed,
    standings_recompute,
    work_sweep,
)
from tournaments.services.work import RATINGS_MATCH_TASK, ROUND_PAIR_TASK, STANDINGS_TASK

logger = logging.getLogger(__name__)

_RETRY = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (DatabaseError,),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 5,
}


@shared_task(name=STANDINGS_TASK, bind=True, **_RETRY)
def event_standings_rebuild(self: Any, event_id: int) -> int | None:
    """Rebuild one event's standings from its stored results; returns the sequence they reflect.

    Starting frees the event's "rebuild queued" slot, so results stored from now on prompt one
    more rebuild. A failure other than a passing database error is stored on the event (shown
    as the standings' error state) instead of being retried for ever.
    """
    started = Event.objects.filter(pk=event_id).update(standings_queued_at=None)
    event = Event.objects.filter(pk=event_id).first() if started else None
    if event is None:
        return None
    try:
        return standings_recompute(event=event)
    except DatabaseError as exc:
        if self.request.retries < self.max_retries:
            raise
        standings_failed(event=event, error=exc)
    except Exception as exc:
        standings_failed(event=event, error=exc)
    return None


@shared_task(name="tournaments.standings_sweep", **_RETRY)
def standings_sweep() -> dict[str, int]:
    """Prompt whatever is due and not being done: standings, queued pairings, ratings.

    The name is kept from when it swept standings only, so beat schedules stored on disk keep
    working.
    """
    return work_sweep()


@shared_task(name=ROUND_PAIR_TASK, **_RETRY)
def round_pair_task(round_id: int) -> str | None:
    """Pair a queued round (big Swiss fields); returns the round's status afterwards.

    Paired or failed (the reason stored on the round), the work is done: its rows go.
    """
    ids = work_due_ids(task=ROUND_PAIR_TASK, key=round_id)
    rnd = round_pair_execute(round_id=round_id)
    work_due_done(task=ROUND_PAIR_TASK, key=round_id, ids=ids)
    return rnd.status if rnd is not None else None


@shared_task(name=RATINGS_MATCH_TASK, bind=True, **_RETRY)
def ratings_update_task(
    self: Any, match_id: int | None = None, event_id: int | None = None
) -> None:
    """Update club ratings after one finished match, or for a whole event at once.

    The match's work rows (``WorkDue``) seen at the start are deleted once the update is done;
    a failure keeps them, with the reason, for the sweep.
    """
    if match_id is not None:
        task = RATINGS_MATCH_TASK
        ids = work_due_ids(task=task, key=match_id)
        try:
            ratings_update_for_match(match_id=match_id)
        except Exception as exc:
            if not isinstance(exc, DatabaseError) or self.request.retries >= self.max_retries:
                logger.exception("Ratings after match %s could not be updated.", match_id)
                work_due_failed(task=task, key=match_id, ids=ids, error=repr(exc))
            raise
        work_due_done(task=task, key=match_id, ids=ids)
    if event_id is not None:
        event = Event.objects.filter(pk=event_id).first()
        if event is not None:
            ratings_update_for_event(event=event)


_sweep_running = threading.Lock()


def work_sweep_soon(delay: float = 2.0) -> bool:
    """Sweep in a thread of the worker's main process, ``delay`` seconds from now.

    Called when the consumer has connected to the broker again: the short delay lets a broker
    that flaps (the consumer reconnecting every few seconds) settle, and only one such sweep
    runs at a time. Returns whether one was started.
    """
    if not _sweep_running.acquire(blocking=False):
        return False

    def run() -> None:
        try:
            time.sleep(delay)
            work_sweep()
        except Exception:
            logger.warning("The sweep after a reconnection failed; beat's sweep follows.")
        finally:
            connection.close()
            _sweep_running.release()

    threading.Thread(target=run, name="knock-sweep-after-reconnect", daemon=True).start()
    return True


@consumer_reconnected.connect
def _sweep_after_reconnect(**_: Any) -> None:
    """The worker is back on the broker: send again what was lost while it was away."""
    work_sweep_soon()


@worker_ready.connect
def _sweep_on_worker_start(sender: Any = None, **_: Any) -> None:
    """A worker that starts finishes whatever was left due while no worker (or broker) ran."""

    try:
        work_sweep()
    except Exception:
        logger.exception("The start-up sweep failed; beat's sweep will run in a minute.")
