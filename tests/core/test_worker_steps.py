"""The consumer bootstep that announces a reconnection, and the sweep it sets off."""

from __future__ import annotations

import socket
import threading
from typing import Any
from unittest import mock

import pytest
from kombu import Connection, Consumer, Exchange, Producer, Queue

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


def test_the_embedded_broker_looks_again_soon_while_its_worker_is_full(tmp_path: Any) -> None:
    """A full worker takes its next task a fiftieth of a second after finishing one, not after
    kombu's default second (then at most two tasks a second reached a two-process worker); an
    idle one looks four times a second."""
    from core.broker import EmbeddedTransport

    sleeps: list[float] = []
    # A connection of its own: the app's transport options are the configured broker's (Redis's
    # would reach SQLAlchemy's create_engine); the alias is what config.celery_app sets.
    with Connection(f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}") as conn:
        transport = conn.transport
        assert isinstance(transport, EmbeddedTransport)
        channel = conn.default_channel
        queue = Queue("knock-test", exchange=Exchange("knock-test"), routing_key="knock-test")
        queue(channel).declare()
        taken: list[Any] = []
        consumer = Consumer(channel, [queue], callbacks=[lambda body, m: taken.append(m)])
        consumer.qos(prefetch_count=1)
        with consumer, mock.patch("core.broker.sleep", sleeps.append):
            Producer(channel).publish({"n": 1}, exchange=queue.exchange, routing_key="knock-test")
            Producer(channel).publish({"n": 2}, exchange=queue.exchange, routing_key="knock-test")
            conn.drain_events(timeout=5)
            assert len(taken) == 1
            assert not sleeps
            assert transport.full()  # one unacknowledged message: the worker is full
            with pytest.raises(socket.timeout):
                conn.drain_events(timeout=0.05)
            assert sleeps
            assert set(sleeps) == {transport.busy_interval}
            taken[0].ack()
            conn.drain_events(timeout=5)  # the second, at once
            taken[1].ack()
            sleeps.clear()
            with pytest.raises(socket.timeout):
                conn.drain_events(timeout=0.05)  # empty queue: the idle wait (cut to the timeout)
            assert sleeps
            assert set(sleeps) == {0.05}
    assert EmbeddedTransport.busy_interval <= 0.02
    assert EmbeddedTransport.polling_interval <= 0.25
