"""Beat after a broker outage: a failed send drops the broken connection, the next one works.

Stock beat keeps its first producer forever and fails every later send (with "channel
disconnected" on the SQLite broker) once the broker was away, so the sweeps never ran again.
"""

from __future__ import annotations

import pytest
from celery.beat import ScheduleEntry, SchedulingError

from config.celery_app import app
from core.beat import ReconnectingScheduler


@pytest.fixture
def scheduler(tmp_path):
    s = ReconnectingScheduler(app=app, schedule_filename=str(tmp_path / "schedule"))
    yield s
    s.close()


@pytest.mark.broker  # purges and counts the queue: no other process may send meanwhile
def test_a_send_on_a_dead_connection_fails_once_then_beat_reconnects(scheduler):
    from kombu import Connection

    app.control.purge()
    entry = ScheduleEntry(name="heartbeat", task="core.tasks.heartbeat", app=app)
    # The connection beat holds points at a broker that went away (nothing listens there).
    gone = Connection("redis://127.0.0.1:1/0", connect_timeout=1)
    scheduler.__dict__["connection"] = gone
    scheduler.__dict__["producer"] = scheduler.Producer(gone, auto_declare=False)
    with pytest.raises(SchedulingError):
        scheduler.apply_async(entry, producer=scheduler.producer, retry=False)
    assert "producer" not in scheduler.__dict__
    assert "connection" not in scheduler.__dict__
    result = scheduler.apply_async(entry, producer=scheduler.producer)  # a new connection
    assert result.id
    with app.connection_for_read() as conn:
        queued = conn.default_channel.queue_declare("celery", passive=True).message_count
    assert queued == 1
    app.control.purge()
