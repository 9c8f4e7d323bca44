"""The work outbox sends tasks by their Celery names, never fails its caller, and keeps what it
could not send due."""

from __future__ import annotations

from typing import Any

import pytest
from celery import current_app, shared_task
from django.utils import timezone

from core.models import WorkDue
from core.work import task_send, work_due_add, work_due_sweep
from tests.conftest import broker_unreachable

pytestmark = pytest.mark.django_db


@shared_task(name="tests.core.outbox_probe")
def outbox_probe(key: int) -> int:
    return key


def test_a_registered_task_is_sent_through_the_task_itself(monkeypatch):
    sent: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        outbox_probe, "apply_async", lambda args=(), kwargs=None, **_: sent.append(args)
    )
    assert task_send("tests.core.outbox_probe", 7)
    assert sent == [(7,)]


def test_a_task_this_process_does_not_know_is_sent_by_name(monkeypatch):
    sent: list[tuple[str, Any]] = []

    def send_task(name: str, args: Any = None, kwargs: Any = None, **_: Any) -> None:
        sent.append((name, args))

    monkeypatch.setattr(current_app, "send_task", send_task)
    assert task_send("elsewhere.some_task", 3)
    assert sent == [("elsewhere.some_task", (3,))]


def test_work_that_cannot_be_sent_stays_due_and_the_sweep_sends_it(
    monkeypatch, django_capture_on_commit_callbacks
):
    with broker_unreachable(), django_capture_on_commit_callbacks(execute=True):
        work_due_add(task="tests.core.outbox_probe", key=5)
    row = WorkDue.objects.get()
    assert (row.task, row.key, row.sent_at) == ("tests.core.outbox_probe", 5, None)
    sent: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        outbox_probe, "apply_async", lambda args=(), kwargs=None, **_: sent.append(args)
    )
    assert work_due_sweep(now=timezone.now()) == 1
    assert sent == [(5,)]
    row.refresh_from_db()
    assert row.sent_at is not None
    assert row.attempts == 1
