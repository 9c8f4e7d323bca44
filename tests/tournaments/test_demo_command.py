"""``manage.py demo`` loads the demo data and is idempotent."""

import pytest
from django.apps import apps
from django.core.management import call_command

from entries.demo import OPEN_EVENT
from entries.models import Entry
from passes.models import PlayerPass
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def _counts() -> dict[str, int]:
    return {
        m._meta.label: m.objects.count()
        for m in apps.get_models()
        if m._meta.app_label in {"auth", "core", "scoring", "tournaments", "entries", "passes"}
        and m._meta.label != "core.WorkerHeartbeat"
    }


def test_demo_is_idempotent(capsys):
    call_command("demo")
    first = _counts()
    assert first["auth.User"] == 1
    assert first["tournaments.Event"] == 10  # every kind of event, and one taking entries
    out = capsys.readouterr().out
    call_command("demo")
    assert _counts() == first
    again = capsys.readouterr().out
    assert "director" in again
    # The open event: a cap, four registered, one waiting, one awaiting approval; every
    # registered player holds a pass, and the report gives one to open (the same on each run).
    event = Event.objects.get(name=OPEN_EVENT)
    statuses = sorted(Entry.objects.filter(event=event).values_list("status", flat=True))
    assert statuses == ["accepted"] * 4 + ["pending", "waiting"]
    held = PlayerPass.objects.filter(registration__event=event, revoked_at__isnull=True)
    assert held.count() == 4
    link = next(line for line in out.splitlines() if "/p/#" in line)
    assert link in again
