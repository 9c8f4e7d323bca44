"""The consumer bootstep that announces a reconnection, and the sweep it sets off."""

from __future__ import annotations

import threading
from typing import Any
from unittest import mock

import pytest

from config.celery_app import app
from core.worker_steps import AnnounceReconnect, consumer_reconnected


def test_the_step_is_part_of_every_workers_consumer() -> None:
    assert AnnounceReconnect in app.steps["consumer"]


def test_only_a_restart_is_announced_not_the_first_start() -> None:
    from tournaments import tasks  # connects the real receiver: a sweep soon after

    heard: list[Any] = []

    def listener(sender: Any = None, consumer: Any = None, **_: Any) -> None:
        heard.append(consumer)

    consumer_reconnected.connect(listener)
    # patched: the real sweep would run in a thread that outlives this test (no database here)
    with mock.patch.object(tasks, "work_sweep_soon") as sweep_soon:
        try:
            step = AnnounceReconnect(parent=mock.Mock())
            parent = object()
            step.start(parent)
            assert heard == []
            step.start(parent)
            step.start(parent)
            assert heard == [parent, parent]
        finally:
            consumer_reconnected.disconnect(listener)
    assert sweep_soon.call_count == 2


@pytest.mark.django_db(transaction=True)
def test_a_reconnection_sweeps_once_at_a_time() -> None:
    from tournaments import tasks

    release = threading.Event()
    swept = threading.Event()

    def slow_sweep() -> dict[str, int]:
        swept.set()
        release.wait(5)
        return {"standings": 0, "work": 0}

    with mock.patch.object(tasks, "work_sweep", side_effect=slow_sweep) as sweep:
        assert tasks.work_sweep_soon(delay=0)
        assert swept.wait(5)
        # A flapping broker reconnects again while the first sweep still runs: no second one.
        consumer_reconnected.send(sender=None, consumer=None)
        assert not tasks.work_sweep_soon(delay=0)
        release.set()
        for _ in range(50):
            if tasks._sweep_running.acquire(blocking=False):
                tasks._sweep_running.release()
                break
            threading.Event().wait(0.1)
        assert sweep.call_count == 1
