"""Celery beat's scheduler, made to reconnect after the broker was away.

Stock beat keeps one producer for its whole life. When the broker goes away (Redis restarted, the
SQLite broker locked past its timeout), every later send fails with "channel disconnected", even
long after the broker is back: the sweeps that finish lost work would never run again until
someone restarted beat. This scheduler drops its connection and producer when a send fails, so
the next tick connects afresh; the failed entry is sent again at its next due time.

It also records every tick (at most every ``RECORD_EVERY`` seconds) in the heartbeat table, as
``beat@<host>``: /healthz reports beat dead once that row is older than
``KNOCK_BEAT_HEARTBEAT_MAX_AGE``, instead of a dead beat going unnoticed for as long as it lasts.
"""

from __future__ import annotations

import logging
import math
import socket
import time
from typing import Any

from celery.beat import PersistentScheduler, SchedulingError

logger = logging.getLogger(__name__)


# Beat ticks at least every 20 s (its shortest entry); one write per this many seconds is enough.
RECORD_EVERY = 5.0


class ReconnectingScheduler(PersistentScheduler):
    _alive_recorded: float = -math.inf

    def tick(self, *args: Any, **kwargs: Any) -> float:
        """Record that beat is alive, then run the due entries as stock beat does."""
        self._record_alive()
        return float(super().tick(*args, **kwargs))

    def _record_alive(self) -> None:
        now = time.monotonic()
        if now - self._alive_recorded < RECORD_EVERY:
            return
        # Imported here: the scheduler class is loaded by name before Django's apps are ready.
        from django.db import close_old_connections

        from core.services import beat_heartbeat_record

        # Beat lives outside any request: drop a connection that broke (a database restart)
        # or grew old, as a request would, so the next write connects afresh.
        close_old_connections()
        try:
            beat_heartbeat_record(hostname=socket.gethostname())
        except Exception:  # the database away: health shows beat stale; the ticks go on
            logger.warning("beat: could not record its heartbeat", exc_info=True)
            return
        self._alive_recorded = now

    def apply_async(self, entry: Any, producer: Any = None, advance: bool = True, **kwargs: Any):
        try:
            return super().apply_async(entry, producer=producer, advance=advance, **kwargs)
        except SchedulingError:
            self._forget_connection()
            raise

    def _forget_connection(self) -> None:
        self.__dict__.pop("producer", None)
        connection = self.__dict__.pop("connection", None)
        if connection is not None:
            try:
                connection.release()
            except Exception:  # already broken: nothing more to release
                logger.debug("beat: releasing a broken connection failed", exc_info=True)
        logger.warning("beat: the broker connection failed; reconnecting at the next tick")
