"""A worker bootstep that tells the apps when the consumer is back after losing the broker.

Celery restarts the consumer's steps every time its connection to the broker is lost and made
again, but sends no signal for it. :class:`AnnounceReconnect` sends :data:`consumer_reconnected`
on every start after the first (the first is ``worker_ready``), so an app can finish work whose
prompt was lost with the broker as soon as the broker is back (``tournaments.tasks`` sweeps).
No Django import here: the Celery app adds this step before Django is set up.
"""

from __future__ import annotations

from typing import Any

from celery import bootsteps
from celery.utils.dispatch import Signal

consumer_reconnected = Signal(name="consumer_reconnected")


class AnnounceReconnect(bootsteps.StartStopStep):
    """Send :data:`consumer_reconnected` each time the consumer starts again."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.starts = 0

    def start(self, parent: Any) -> None:
        self.starts += 1
        if self.starts > 1:
            consumer_reconnected.send(sender=self, consumer=parent)
