"""The embedded broker's transport: kombu's SQLAlchemy transport (SQLite), polled as a worker needs.

kombu polls a database broker: when a poll finds nothing to take, the worker sleeps
``polling_interval`` (a second by default) before it looks again. A worker whose processes are all
busy (one task each: ``CELERY_WORKER_PREFETCH_MULTIPLIER`` is 1) also finds nothing to take, so it
slept that second however soon its tasks ended: a two-process worker took at most two tasks a
second, and after ``make run`` a first result's standings waited behind the demo's ratings for half
a minute. :class:`EmbeddedTransport` sleeps ``busy_interval`` (a fiftieth of a second, no query:
it only waits for its own tasks to end) while its processes are full, and ``polling_interval``
(a quarter of a second, one small query a look) while the queue is empty, so a task sent to an idle
worker starts within a quarter of a second and a busy worker takes the next one as soon as it can.

``config.celery_app`` makes it the transport of ``sqla+`` broker URLs. Redis delivers by push and is
not affected.
"""

from __future__ import annotations

from queue import Empty
from time import monotonic, sleep
from typing import Any

from kombu.transport import sqlalchemy


class EmbeddedTransport(sqlalchemy.Transport):
    """kombu's SQLAlchemy transport that waits briefly while its worker is full."""

    polling_interval = 0.25
    busy_interval = 0.02

    def drain_events(self, connection: Any, timeout: Any = None) -> None:  # type: ignore[override]
        """kombu's loop (``virtual.Transport.drain_events``) with the wait chosen per look.

        (kombu's two base classes declare this method differently; this is the virtual one's.)"""
        started = monotonic()
        assert self.cycle is not None  # made by the transport's constructor
        get = self.cycle.get
        while True:
            try:
                get(self._deliver, timeout=timeout)
            except Empty:
                if timeout is not None and monotonic() - started >= timeout:
                    raise TimeoutError() from None
                wait = self.busy_interval if self.full() else self.polling_interval
                sleep(min(wait, timeout) if timeout else wait)
            else:
                return

    def full(self) -> bool:
        """Whether a consuming channel may take no more messages until it acknowledges one."""
        return any(
            channel._consumers and not channel.qos.can_consume() for channel in self.channels
        )
