"""The worker's heartbeat: a thread in the worker's main process, never a queued task.

Health must not depend on the queue: a task queued behind ~900 standings rebuilds (the demo's
first load) would make /healthz report a live worker as dead for minutes. So the worker's main
process starts a small daemon thread the moment it is ready; it records the heartbeat every
``KNOCK_WORKER_HEARTBEAT_INTERVAL`` seconds, whatever the pool is busy with. When the main
process dies (even by SIGKILL) the thread dies with it, and /healthz turns red once the last beat
is older than ``KNOCK_WORKER_HEARTBEAT_MAX_AGE`` (15 s). A clean shutdown removes the row at once.

The thread closes its database connection after every beat: the prefork pool may fork a new
child at any moment, and a child must never inherit (and later close) an open connection.
"""

from __future__ import annotations

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


def _run(hostname: str, interval: float) -> None:
    while not _stop.wait(interval):
        _beat(hostname)


@worker_ready.connect
def _worker_ready(sender: Any = None, **_: Any) -> None:
    hostname = str(getattr(sender, "hostname", None) or "worker")
    _beat(hostname)
    _stop.clear()
    _hostname[:] = [hostname]
    interval = float(settings.KNOCK_WORKER_HEARTBEAT_INTERVAL)
    threading.Thread(
        target=_run, args=(hostname, interval), name="knock-heartbeat", daemon=True
    ).start()


@worker_shutdown.connect
def _worker_shutdown(**_: Any) -> None:
    _stop.set()
    for hostname in _hostname:
        try:
            worker_heartbeat_forget(hostname=hostname)
        except Exception:
            logger.warning("worker heartbeat not removed", exc_info=True)
        finally:
            connection.close()
