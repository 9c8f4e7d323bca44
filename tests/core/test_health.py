"""/healthz through the real URL route: down without a worker, up with a real one."""

from datetime import timedelta

import pytest
from django.utils import timezone

from core.models import WorkerHeartbeat
from core.services import worker_heartbeat_record
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
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok"
    assert [w["hostname"] for w in body["workers"]["live"]] == ["w1@host"]


def test_api_health_matches_healthz(client):
    worker_heartbeat_record(hostname="w1@host")
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
    assert client.get("/healthz").status_code == 200


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_beats_from_its_own_thread_without_any_task(celery_worker_process):
    """No task is sent: the heartbeat cannot be stuck behind a queue."""
    assert wait_for(lambda: WorkerHeartbeat.objects.exists(), timeout=60)
    first = WorkerHeartbeat.objects.get().last_seen
    assert wait_for(lambda: WorkerHeartbeat.objects.get().last_seen > first, timeout=30)
