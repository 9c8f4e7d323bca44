"""/healthz through the real URL route: down without a worker, up with a real one."""

from datetime import timedelta

import pytest
from django.utils import timezone

from core.models import WorkerHeartbeat
from core.services import beat_heartbeat_record, worker_heartbeat_record
from tests.conftest import wait_for

pytestmark = pytest.mark.django_db


def test_healthz_reports_no_worker_as_503(client):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503
    assert body["status"] == "degraded"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    assert body["workers"]["ok"] is False
    assert "no worker heartbeat" in body["workers"]["detail"]


def test_healthz_ignores_a_stale_heartbeat(client):
    worker_heartbeat_record(hostname="old@host", at=timezone.now() - timedelta(minutes=5))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["workers"]["live"] == []


def test_healthz_is_up_with_a_recent_heartbeat(client):
    worker_heartbeat_record(hostname="w1@host")
    beat_heartbeat_record(hostname="host")
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok"
    assert [w["hostname"] for w in body["workers"]["live"]] == ["w1@host"]


def test_api_health_matches_healthz(client):
    worker_heartbeat_record(hostname="w1@host")
    beat_heartbeat_record(hostname="host")
    assert client.get("/api/health/").json()["status"] == "ok"


def test_healthz_reports_an_unreachable_broker(client, settings):
    from config.celery_app import app

    old = app.conf.broker_url, app.conf.broker_write_url
    app.conf.broker_url = app.conf.broker_write_url = "redis://127.0.0.1:1/0"
    try:
        response = client.get("/healthz")
    finally:
        app.conf.broker_url, app.conf.broker_write_url = old
    assert response.status_code == 503
    assert response.json()["broker"]["ok"] is False


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_heartbeat_task_runs_on_a_real_worker(client, celery_worker_process):
    from core.tasks import heartbeat

    heartbeat.delay()
    assert wait_for(lambda: WorkerHeartbeat.objects.exists(), timeout=60)
    hostname = WorkerHeartbeat.objects.get().hostname
    assert hostname.startswith("test-")
    beat_heartbeat_record(hostname="host")
    assert client.get("/healthz").status_code == 200


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_beats_from_its_own_thread_without_any_task(celery_worker_process):
    """No task is sent: the heartbeat cannot be stuck behind a queue."""
    assert wait_for(lambda: WorkerHeartbeat.objects.exists(), timeout=60)
    first = WorkerHeartbeat.objects.get().last_seen
    assert wait_for(lambda: WorkerHeartbeat.objects.get().last_seen > first, timeout=30)


@pytest.fixture
def broker_url():
    """Point the Celery app at another broker URL for one test (restored after)."""
    from config.celery_app import app

    saved = app.conf.broker_url, app.conf.broker_write_url

    def use(url: str) -> None:
        app.conf.broker_url = app.conf.broker_write_url = url

    yield use
    app.conf.broker_url, app.conf.broker_write_url = saved


def test_healthz_reports_a_locked_sqlite_broker_within_seconds(client, broker_url, tmp_path):
    """The embedded broker locked by another process (what the broker-down drill does): opening
    the file still works, so only a write lock taken with a timeout shows it."""
    import sqlite3
    import time

    from core import selectors

    path = tmp_path / "broker.sqlite3"
    sqlite3.connect(path).close()
    broker_url(f"sqla+sqlite:///{path}")
    worker_heartbeat_record(hostname="w1@host")
    beat_heartbeat_record(hostname="host")
    assert client.get("/healthz").status_code == 200
    lock = sqlite3.connect(path, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        response = client.get("/healthz")
        took = time.monotonic() - started
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    body = response.json()
    assert response.status_code == 503
    assert body["broker"]["ok"] is False
    assert "locked" in body["broker"]["detail"]
    assert took < selectors.BROKER_PROBE_SECONDS + 2
    assert client.get("/healthz").status_code == 200


def test_healthz_does_not_hang_on_a_broker_that_never_answers(client, broker_url):
    """A Redis that accepts connections but never answers (paused, or a dead host's backlog):
    /healthz says so within seconds instead of hanging with it."""
    import socket
    import time

    from core import selectors

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)  # never accepted, never answered
        broker_url(f"redis://127.0.0.1:{silent.getsockname()[1]}/0")
        started = time.monotonic()
        response = client.get("/healthz")
        took = time.monotonic() - started
    assert response.status_code == 503
    assert response.json()["broker"]["ok"] is False
    assert took < 2 * selectors.BROKER_PROBE_SECONDS + 3


def test_a_consumer_that_lost_its_broker_is_not_connected():
    from types import SimpleNamespace

    from core.signals import consumer_connected

    up = SimpleNamespace(restart_count=0, connection=object())
    assert consumer_connected(up, None) == (True, 0)
    assert consumer_connected(up, 0) == (True, 0)
    # reconnecting: Celery dropped the connection and is making a new one
    assert consumer_connected(SimpleNamespace(restart_count=1, connection=None), 0)[0] is False
    # connected again, but it restarted since the last beat (a broker that keeps failing)
    assert consumer_connected(SimpleNamespace(restart_count=3, connection=object()), 1) == (
        False,
        3,
    )


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_stops_while_the_worker_cannot_use_its_broker(client):
    """The worker process is alive but its consumer lost the broker: no beat, /healthz red;
    the consumer back: beats again, /healthz green."""
    import threading
    import time
    from types import SimpleNamespace

    from core import signals

    consumer = SimpleNamespace(restart_count=0, connection=object())
    signals._stop.clear()
    thread = threading.Thread(target=signals._run, args=("w1@host", 0.05, consumer), daemon=True)
    thread.start()
    try:
        assert wait_for(lambda: WorkerHeartbeat.objects.exists(), timeout=10)
        consumer.connection = None  # what Celery does on a connection error, before retrying
        consumer.restart_count = 1
        time.sleep(0.3)  # a beat already under way lands before the rows are removed
        WorkerHeartbeat.objects.all().delete()
        # several intervals without a beat
        assert not wait_for(lambda: WorkerHeartbeat.objects.exists(), timeout=0.5)
        assert client.get("/healthz").status_code == 503
        consumer.connection = object()
        assert wait_for(lambda: WorkerHeartbeat.objects.exists(), timeout=10)
        assert client.get("/healthz").json()["workers"]["ok"] is True
    finally:
        signals._stop.set()
        thread.join(5)
