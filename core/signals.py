"""The worker's heartbeat: a thread in the worker's main process, never a queued task.

Health must not depend on the queue: a task queued behind ~900 standings rebuilds (the demo's
first load) would make /healthz report a live worker as dead for minutes. So the worker's main
process starts a small daemon thread the moment it is ready; it records the heartbeat every
``KNOCK_WORKER_HEARTBEAT_INTERVAL`` seconds, whatever the pool is busy with. When the main
process dies (even by SIGKILL) the thread dies with it, and /healthz turns red once the last beat
is older than ``KNOCK_WORKER_HEARTBEAT_MAX_AGE`` (15 s). A clean shutdown removes the row at once.

A beat also says the worker can use its broker: the thread beats only while the worker's consumer
holds a broker connection and has not had to reconnect since the last beat. A worker that lost
its broker (Redis gone, the SQLite broker locked: the consumer drops its connection and retries)
stops beating, and /healthz turns red within ``KNOCK_WORKER_HEARTBEAT_MAX_AGE`` even though the
process is alive; it beats again at the first interval after the consumer is back.

The thread closes its database connection after every beat: the prefork pool may fork a new
child at any moment, and a child must never inherit (and later close) an open connection.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Any

from celery.signals import worker_ready, worker_shutdown
from django.conf import settings
from django.db import connection

from core.services import worker_heartbeat_forget, worker_heartbeat_record

logger = logging.getLogger(__name__)

_stop = threading.Event()
_hostname: list[str] = []


def _beat(hostname: str) -> None:
    try:
        worker_heartbeat_record(hostname=hostname)
    except Exception:  # the database may be restarting; the next beat tries again
        logger.warning("worker heartbeat not recorded", exc_info=True)
    finally:
        connection.close()


def consumer_connected(consumer: Any, restarts_before: int | None) -> tuple[bool, int | None]:
    """Whether ``consumer`` (Celery's worker consumer) can use its broker now, and its restart
    count to compare with at the next beat.

    Connected means it holds a broker connection and has not restarted (Celery restarts the
    consumer after every connection error) since ``restarts_before``. Something that is not a
    consumer (a test's sender) counts as connected.
    """
    if consumer is None or not hasattr(consumer, "restart_count"):
        return True, None
    restarts = int(consumer.restart_count)
    steady = restarts_before is None or restarts == restarts_before
    return getattr(consumer, "connection", None) is not None and steady, restarts


def _run(hostname: str, interval: float, consumer: Any) -> None:
    _, restarts = consumer_connected(consumer, None)
    lost = False
    while not _stop.wait(interval):
        connected, restarts = consumer_connected(consumer, restarts)
        if connected:
            if lost:
                logger.warning("worker %s: the broker is back; beating again", hostname)
            lost = False
            _beat(hostname)
        elif not lost:
            lost = True
            logger.warning("worker %s cannot use its broker: no heartbeat until it can", hostname)


@worker_ready.connect
def _worker_ready(sender: Any = None, **_: Any) -> None:
    hostname = str(getattr(sender, "hostname", None) or "worker")
    _beat(hostname)
    _stop.clear()
    _hostname[:] = [hostname]
    interval = float(settings.KNOCK_WORKER_HEARTBEAT_INTERVAL)
    threading.Thread(
        target=_run, args=(hostname, interval, sender), name="knock-heartbeat", daemon=True
    ).start()


@worker_shutdown.connect
def _worker_shutdown(**_: Any) -> None:
    _stop.set()
    # The main thread's connection may have been opened before the database restarted (a sweep
    # run on reconnect): no request cycle ever checks it here, so start from a fresh one.
    with contextlib.suppress(Exception):
        connection.close()
    for hostname in _hostname:
        try:
            worker_heartbeat_forget(hostname=hostname)
        except Exception:
            logger.warning("worker heartbeat not removed", exc_info=True)
        finally:
            connection.close()
