"""Celery beat's scheduler, made to reconnect after the broker was away.

Stock beat keeps one producer for its whole life. When the broker goes away (Redis restarted, the
SQLite broker locked past its timeout), every later send fails with "channel disconnected", even
long after the broker is back: the sweeps that finish lost work would never run again until
someone restarted beat. This scheduler drops its connection and producer when a send fails, so
the next tick connects afresh; the failed entry is sent again at its next due time.
"""

from __future__ import annotations

import logging
from typing import Any

from celery.beat import PersistentScheduler, SchedulingError

logger = logging.getLogger(__name__)


class ReconnectingScheduler(PersistentScheduler):
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
