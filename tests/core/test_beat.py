"""Beat after a broker outage: a failed send drops the broken connection, the next one works.

Stock beat kept its first producer forever and failed every later send with "channel
disconnected" once the broker had been away, so the sweeps never ran again.
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


def test_a_send_on_a_dead_connection_fails_once_then_beat_reconnects(scheduler):
    app.control.purge()
    entry = ScheduleEntry(name="heartbeat", task="core.tasks.heartbeat", app=app)
    broken = scheduler.producer
    broken.channel.close()  # the broker went away under beat: its channel is gone
    with pytest.raises(SchedulingError):
        scheduler.apply_async(entry, producer=broken)
    assert "producer" not in scheduler.__dict__
    assert "connection" not in scheduler.__dict__
    result = scheduler.apply_async(entry, producer=scheduler.producer)  # a new connection
    assert result.id
    with app.connection_for_read() as conn:
        queued = conn.default_channel.queue_declare("celery", passive=True).message_count
    assert queued == 1
    app.control.purge()
