"""/healthz knows when beat is dead (beat records each tick: core.beat), and answers a load
balancer's probe by address over plain HTTP (core.middleware.HealthCheckMiddleware)."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from celery.beat import PersistentScheduler
from django.db import OperationalError
from django.test import override_settings
from django.utils import timezone

from core.models import BEAT_HOSTNAME_PREFIX, WorkerHeartbeat
from core.services import beat_heartbeat_record, worker_heartbeat_record

pytestmark = pytest.mark.django_db


def test_healthz_is_503_while_beat_has_never_ticked(client):
    worker_heartbeat_record(hostname="w1@host")
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503
    assert body["workers"]["ok"] is True
    assert body["beat"] == {
        "ok": False,
        "detail": "beat has never ticked (start exactly one celery beat)",
        "last_seen": None,
    }


def test_healthz_is_503_once_beats_last_tick_is_stale(client, settings):
    worker_heartbeat_record(hostname="w1@host")
    late = settings.KNOCK_BEAT_HEARTBEAT_MAX_AGE + 5
    beat_heartbeat_record(hostname="host", at=timezone.now() - timedelta(seconds=late))
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503
    assert body["beat"]["ok"] is False
    assert body["beat"]["detail"].startswith("stale: beat's last tick was")
    assert body["beat"]["last_seen"] is not None


def test_healthz_is_200_with_a_recent_tick_and_beat_is_no_worker(client):
    beat_heartbeat_record(hostname="host")
    alone = client.get("/healthz").json()
    # beat's own row does not pass for a worker
    assert alone["workers"]["ok"] is False
    assert alone["workers"]["live"] == []
    assert alone["beat"]["ok"] is True
    worker_heartbeat_record(hostname="w1@host")
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    assert [w["hostname"] for w in response.json()["workers"]["live"]] == ["w1@host"]
    assert client.get("/api/health/").json()["beat"]["ok"] is True


# -- beat's scheduler records its ticks ----------------------------------------------------------


@pytest.fixture
def scheduler(monkeypatch, tmp_path):
    """core.beat's scheduler, stock beat's tick replaced (it would send the schedule's tasks).

    Its tests run outside a test transaction (``transaction=True``), as beat does: before each
    record it closes a connection that is inside a transaction it did not open."""
    from config.celery_app import app
    from core.beat import ReconnectingScheduler

    ticks: list[int] = []

    def stock_tick(self, *args, **kwargs):
        ticks.append(1)
        return 7.5

    monkeypatch.setattr(PersistentScheduler, "tick", stock_tick)
    made = ReconnectingScheduler(app=app, lazy=True, schedule_filename=str(tmp_path / "schedule"))
    made.ticks = ticks
    return made


@pytest.mark.django_db(transaction=True)
def test_every_tick_records_that_beat_is_alive(scheduler):
    assert scheduler.tick() == 7.5
    row = WorkerHeartbeat.objects.get()
    assert row.hostname.startswith(BEAT_HOSTNAME_PREFIX)
    first = row.last_seen
    # a second tick at once does not write again (one write per RECORD_EVERY seconds) ...
    assert scheduler.tick() == 7.5
    assert WorkerHeartbeat.objects.get().last_seen == first
    assert scheduler.ticks == [1, 1]
    # ... and one later does
    scheduler._alive_recorded -= 60
    scheduler.tick()
    assert WorkerHeartbeat.objects.get().last_seen > first


@pytest.mark.django_db(transaction=True)
def test_a_tick_goes_on_when_the_database_is_away(scheduler, monkeypatch, caplog):
    def away(**kwargs):
        raise OperationalError("the database is restarting")

    monkeypatch.setattr("core.services.beat_heartbeat_record", away)
    with caplog.at_level(logging.WARNING, logger="core.beat"):
        assert scheduler.tick() == 7.5
    assert scheduler.ticks == [1]
    assert "could not record its heartbeat" in caplog.text
    assert not WorkerHeartbeat.objects.exists()
    # the next tick tries again (nothing was recorded, so nothing is throttled)
    monkeypatch.undo()
    monkeypatch.setattr(PersistentScheduler, "tick", lambda self, *a, **k: 7.5)
    scheduler.tick()
    assert WorkerHeartbeat.objects.filter(hostname__startswith=BEAT_HOSTNAME_PREFIX).exists()


# -- a load balancer's probe ---------------------------------------------------------------------


@override_settings(ALLOWED_HOSTS=["knock.example.org"], SECURE_SSL_REDIRECT=True)
def test_healthz_answers_a_probe_by_address_over_plain_http(client):
    worker_heartbeat_record(hostname="w1@host")
    beat_heartbeat_record(hostname="host")
    probe = client.get("/healthz", HTTP_HOST="10.0.0.5")
    assert probe.status_code == 200
    assert probe.json()["status"] == "ok"
    assert "no-cache" in probe["Cache-Control"]
    assert client.head("/healthz", HTTP_HOST="10.0.0.5").status_code == 200
    # only the health check: the rest of the site still checks the host and redirects
    assert client.get("/api/clubs/", HTTP_HOST="10.0.0.5").status_code == 400
    page = client.get("/clubs/", HTTP_HOST="knock.example.org")
    assert page.status_code == 301
    assert page["Location"] == "https://knock.example.org/clubs/"
    # a write to the health path is no probe: it goes the normal way (and is refused there)
    assert client.post("/healthz", HTTP_HOST="10.0.0.5").status_code == 400
