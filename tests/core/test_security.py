"""Site-wide safety: keys, debug, sign-in lockout, bad input as a clear 4xx, no account oracle,
the demo on production settings."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from config.settings.base import embedded_secret_key
from core.parsers import json_depth_exceeds
from core.parsing import parse_ascii_int
from tests.clubs.factories import PASSWORD, ClubFactory, ClubRoleFactory, UserFactory

ROOT = Path(__file__).resolve().parents[2]


# -- keys and debug ---------------------------------------------------------------------------


def test_the_embedded_key_is_made_once_private_and_reused(tmp_path):
    key = embedded_secret_key(tmp_path)
    path = tmp_path / "secret_key"
    assert len(key) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert embedded_secret_key(tmp_path) == key
    other = tmp_path / "other"
    other.mkdir()
    assert embedded_secret_key(other) != key


def _settings_of(module: str, env: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "KNOCK_DEBUG")}
    return subprocess.run(
        [
            sys.executable,
            "-c",
            f"import django; django.setup(); from django.conf import settings; {code}",
        ],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": module, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    result = _settings_of(
        "config.settings.production",
        {
            "KNOCK_VAR_DIR": str(tmp_path),
            "DATABASE_URL": "postgres://knock@127.0.0.1:5432/knock",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
            "ALLOWED_HOSTS": "knock.example",
        },
        "print(settings.SECRET_KEY)",
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr
    assert not (tmp_path / "secret_key").exists()


def test_make_run_settings_keep_debug_off_unless_asked(tmp_path):
    off = _settings_of(
        "config.settings.local", {"KNOCK_VAR_DIR": str(tmp_path)}, "print(settings.DEBUG)"
    )
    assert off.stdout.strip() == "False", off.stderr
    on = _settings_of(
        "config.settings.local",
        {"KNOCK_VAR_DIR": str(tmp_path), "KNOCK_DEBUG": "1"},
        "print(settings.DEBUG)",
    )
    assert on.stdout.strip() == "True", on.stderr
    key = _settings_of(
        "config.settings.local", {"KNOCK_VAR_DIR": str(tmp_path)}, "print(settings.SECRET_KEY)"
    )
    assert key.stdout.strip() == (tmp_path / "secret_key").read_text().strip()
    assert "knock-local-development-key" not in key.stdout


# -- sign-in lockout ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_sign_in_locks_the_account_from_that_address_after_repeated_failures(settings):
    settings.AXES_FAILURE_LIMIT = 3
    UserFactory(username="mina")
    client = Client()
    for _ in range(3):
        response = client.post("/accounts/login/", {"username": "mina", "password": "wrong"})
    response = client.post("/accounts/login/", {"username": "mina", "password": PASSWORD})
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert "locked" in response.content.decode()
    assert "_auth_user_id" not in client.session
    # the same account from another address still signs in: nobody can lock the director out
    other = Client(REMOTE_ADDR="10.1.1.1")
    response = other.post("/accounts/login/", {"username": "mina", "password": PASSWORD})
    assert response.status_code == 302
    assert "_auth_user_id" in other.session


@pytest.mark.django_db
def test_another_account_on_the_same_address_still_signs_in(settings):
    settings.AXES_FAILURE_LIMIT = 3
    UserFactory(username="nam")
    client = Client(REMOTE_ADDR="10.2.2.2")
    for name in ("a", "b", "c"):
        client.post("/accounts/login/", {"username": name, "password": "wrong"})
    for _ in range(3):
        client.post("/accounts/login/", {"username": "a", "password": "wrong"})
    assert client.post("/accounts/login/", {"username": "a", "password": "x"}).status_code == 429
    response = client.post("/accounts/login/", {"username": "nam", "password": PASSWORD})
    assert response.status_code == 302


@pytest.mark.django_db
def test_the_admin_is_for_staff_only():
    user = UserFactory(username="plain")
    client = Client()
    client.force_login(user)
    response = client.get("/admin/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
    staff = UserFactory(username="keeper", is_staff=True)
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("12", 12), (" 7 ", 7), ("²", None), ("١٢", None), ("1e3", None), ("-3", None), ("", None)],
)
def test_integers_are_ascii_digits_only(text, expected):
    assert parse_ascii_int(text) == expected


def test_json_depth_is_measured_outside_strings():
    assert json_depth_exceeds("[" * 21 + "]" * 21, 20)
    assert not json_depth_exceeds('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[["}', 20)


@pytest.mark.django_db
def test_deep_json_is_a_400_and_huge_json_a_413(settings):
    client = Client()
    deep = "[" * 50_000 + "]" * 50_000
    response = client.post("/api/matches/", deep, content_type="application/json")
    assert response.status_code == 400
    assert "nested too deeply" in response.json()["detail"]
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = client.post(
        "/api/matches/", '{"a": "' + "x" * 2000 + '"}', content_type="application/json"
    )
    assert response.status_code == 413
    assert response.json() == {"detail": "The request body is too large."}


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["²", "١", "1.5", "x"])
def test_non_ascii_digits_in_query_strings_are_a_400(value):
    for path in ("/api/players/", "/api/events/"):
        response = Client().get(path, {"club": value})
        assert response.status_code == 400, (path, response.content)
        assert "club" in response.json()


# -- no account oracle ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_role_grants_answer_the_same_for_unknown_and_inactive_names():
    club = ClubFactory()
    admin = UserFactory(username="boss")
    ClubRoleFactory(club=club, user=admin, role="admin")
    UserFactory(username="sleeper", is_active=False)
    client = Client()
    client.force_login(admin)
    answers = []
    for name in ("nobody-at-all", "sleeper"):
        response = client.post(
            f"/api/clubs/{club.pk}/roles/",
            {"username": name, "role": "director"},
            content_type="application/json",
        )
        body = response.json()
        answers.append((response.status_code, sorted(body), body["username"] == name))
    assert answers[0] == answers[1]
    assert answers[0][0] == 201


# -- the demo on production settings ------------------------------------------------------------


@pytest.mark.django_db
def test_the_demo_refuses_production_settings_unless_forced(monkeypatch, capsys):
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "config.settings.production")
    with pytest.raises(CommandError, match="production settings"):
        call_command("demo")
    assert not get_user_model().objects.exists()
    call_command("demo", "--force")
    director = get_user_model().objects.get(username="director")
    assert not director.check_password("knock-demo")
    assert "knock-demo" not in capsys.readouterr().out
