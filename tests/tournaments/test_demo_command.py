"""``manage.py demo`` loads the demo data and is idempotent."""

import pytest
from django.apps import apps
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def _counts() -> dict[str, int]:
    return {
        m._meta.label: m.objects.count()
        for m in apps.get_models()
        if m._meta.app_label in {"auth", "core", "scoring", "tournaments"}
        and m._meta.label != "core.WorkerHeartbeat"
    }


def test_demo_is_idempotent(capsys):
    call_command("demo")
    first = _counts()
    assert first["auth.User"] == 1
    assert first["tournaments.Event"] == 9  # every kind of event
    call_command("demo")
    assert _counts() == first
    assert "director" in capsys.readouterr().out
