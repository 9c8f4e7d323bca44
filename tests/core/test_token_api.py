"""API tokens: made with a username and password, shown once, kept only as digests.

POST /api/auth/token/ makes a new token each time; GET lists yours (never a key); DELETE revokes
the one sent (or all). DRF's old tokens (40 hex, in clear) are moved to digests by a migration
and keep working; no key is left in the database or in a backup of it.
"""

from __future__ import annotations

import hashlib
import importlib
import re
import sqlite3
import subprocess
import tarfile
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from core import services
from core.backups import backup_create
from core.models import ApiToken
from core.services import api_token_create

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase"
MOVE = importlib.import_module("core.migrations.0003_apitoken_from_drf")
OLD_KEY = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"  # a DRF key, as DRF made them


@pytest.fixture
def dana() -> User:
    return User.objects.create_user("dana", password=PASSWORD)


def _ask(name: str | None = None) -> Any:
    body = {"username": "dana", "password": PASSWORD}
    if name is not None:
        body["name"] = name
    return APIClient().post("/api/auth/token/", body, format="json")


def _client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _signs_in(key: str) -> bool:
    answer = _client(key).get("/api/auth/token/")
    assert answer.status_code in (200, 401), answer.content
    return answer.status_code == 200


def _every_row() -> str:
    """Every row of every table of the database, as text."""
    dump = []
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f"SELECT * FROM {quote(table)}")
            dump.append(f"{table}: {cursor.fetchall()!r}")
    return "\n".join(dump)


def _make_drf_table(keys: dict[str, User]) -> None:
    """``authtoken_token`` as DRF's migrations left it, holding ``keys`` in clear."""
    quote = connection.ops.quote_name
    when = "timestamp with time zone" if connection.vendor == "postgresql" else "datetime"
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE authtoken_token ({quote('key')} varchar(40) NOT NULL PRIMARY KEY, "
            f"{quote('created')} {when} NOT NULL, "
            f"{quote('user_id')} integer NOT NULL UNIQUE REFERENCES auth_user (id))"
        )
        for key, user in keys.items():
            cursor.execute(
                "INSERT INTO authtoken_token VALUES (%s, %s, %s)",
                [key, timezone.now() - timedelta(days=30), user.pk],
            )
        cursor.execute(
            "INSERT INTO django_migrations (app, name, applied) VALUES (%s, %s, %s)",
            ["authtoken", "0001_initial", timezone.now()],
        )


def _move() -> int:
    moved: int = MOVE.move_drf_tokens(apps, SimpleNamespace(connection=connection))
    return moved


def test_a_token_is_shown_once_and_only_its_digest_is_kept(dana):
    response = _ask(name="scoreboard laptop")
    assert response.status_code == 200
    body = response.json()
    key = body["token"]
    assert re.fullmatch(r"[0-9a-f]{40}", key)  # the shape DRF's keys had: clients need no change
    assert body == {
        "token": key,
        "username": "dana",
        "prefix": key[:8],
        "name": "scoreboard laptop",
    }
    token = ApiToken.objects.get(user=dana)
    assert token.digest == hashlib.sha256(key.encode()).hexdigest()
    assert key not in _every_row()
    # Asking again makes another token (the first cannot be shown again); both work.
    again = _ask().json()["token"]
    assert again != key
    assert ApiToken.objects.filter(user=dana).count() == 2
    assert _signs_in(key)
    assert _signs_in(again)
    created = _client(again).post("/api/clubs/", {"name": "Token Club"}, format="json")
    assert created.status_code == 201, created.content
    assert key not in _every_row()
    assert again not in _every_row()


@pytest.mark.parametrize(
    "body",
    [
        {"username": "dana", "password": "wrong"},
        {"username": "nobody", "password": PASSWORD},
        {"username": "dana"},
        {},
        {"username": "dana", "password": PASSWORD, "name": "x" * 101},
    ],
)
def test_a_wrong_or_missing_password_is_400_and_makes_no_token(dana, body):
    response = APIClient().post("/api/auth/token/", body, format="json")
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_an_inactive_account_gets_no_token_and_its_tokens_stop_working(dana):
    key = _ask().json()["token"]
    dana.is_active = False
    dana.save()
    response = _ask()
    assert response.status_code == 400
    assert response.json() == {"detail": "Wrong username or password."}
    assert not _signs_in(key)


def test_the_list_shows_prefixes_and_use_never_keys(dana):
    first = _ask(name="laptop").json()["token"]
    second = _ask(name="script").json()["token"]
    answer = _client(second).get("/api/auth/token/")
    assert answer.status_code == 200
    listed = answer.json()
    assert [(t["prefix"], t["name"], t["current"]) for t in listed] == [
        (second[:8], "script", True),
        (first[:8], "laptop", False),
    ]
    assert listed[0]["last_used"] is not None
    assert listed[1]["last_used"] is None
    assert first not in answer.content.decode()
    assert second not in answer.content.decode()
    assert APIClient().get("/api/auth/token/").status_code == 403


def test_last_used_is_written_once_in_a_while_not_on_every_request(dana):
    key = _ask().json()["token"]
    assert _signs_in(key)
    token = ApiToken.objects.get()
    used = token.last_used
    assert used is not None
    assert _signs_in(key)
    assert ApiToken.objects.get().last_used == used
    ApiToken.objects.update(last_used=used - services.TOKEN_TOUCH_EVERY)
    assert _signs_in(key)
    touched = ApiToken.objects.get().last_used
    assert touched is not None
    assert touched > used - services.TOKEN_TOUCH_EVERY


def test_a_revoked_token_is_refused_with_401_and_the_others_keep_working(dana):
    revoked, kept = _ask().json()["token"], _ask().json()["token"]
    client = _client(revoked)
    assert client.delete("/api/auth/token/").status_code == 204
    assert list(ApiToken.objects.values_list("prefix", flat=True)) == [kept[:8]]
    refused = client.post("/api/clubs/", {"name": "Late Club"}, format="json")
    assert refused.status_code == 401
    assert refused["WWW-Authenticate"] == "Token"
    assert refused.json() == {
        "detail": "This API token is not valid: it was revoked, or never existed."
    }
    assert client.delete("/api/auth/token/").status_code == 401
    assert _signs_in(kept)


def test_all_revokes_every_token_and_a_bad_all_revokes_none(dana):
    keys = [_ask().json()["token"] for _ in range(3)]
    client = _client(keys[0])
    bad = client.delete("/api/auth/token/?all=perhaps")
    assert bad.status_code == 400
    assert ApiToken.objects.count() == 3
    assert client.delete("/api/auth/token/?all=true").status_code == 204
    assert not ApiToken.objects.exists()
    assert not any(_signs_in(key) for key in keys)


def test_a_session_revokes_every_token_of_its_account(dana):
    keys = [_ask().json()["token"] for _ in range(2)]
    other = User.objects.create_user("eve", password=PASSWORD)
    _made, eves = api_token_create(user=other)
    client = APIClient()
    client.force_login(dana)
    assert client.delete("/api/auth/token/").status_code == 204
    assert not any(_signs_in(key) for key in keys)
    assert _signs_in(eves)


def test_without_signing_in_delete_is_refused_as_before():
    assert APIClient().delete("/api/auth/token/").status_code == 403
    assert _client("0" * 40).delete("/api/auth/token/").status_code == 401


def test_making_one_too_many_revokes_the_one_unused_longest(dana, monkeypatch):
    monkeypatch.setattr(services, "TOKENS_PER_USER", 2)
    old, used = _ask().json()["token"], _ask().json()["token"]
    ApiToken.objects.filter(prefix=old[:8]).update(created=timezone.now() - timedelta(days=2))
    ApiToken.objects.filter(prefix=used[:8]).update(
        created=timezone.now() - timedelta(days=3), last_used=timezone.now() - timedelta(hours=1)
    )
    new = _ask().json()["token"]
    assert [_signs_in(key) for key in (old, used, new)] == [False, True, True]


def test_a_drf_token_made_before_the_upgrade_still_signs_in(dana):
    eve = User.objects.create_user("eve", password=PASSWORD)
    eves_old = "0123456789abcdef0123456789abcdef01234567"
    _make_drf_table({OLD_KEY: dana, eves_old: eve})
    assert OLD_KEY in _every_row()
    assert _move() == 2
    moved = ApiToken.objects.get(user=dana)
    assert moved.prefix == OLD_KEY[:8]
    assert moved.created < timezone.now() - timedelta(days=29)
    assert "authtoken_token" not in connection.introspection.table_names()
    assert OLD_KEY not in _every_row()
    assert eves_old not in _every_row()
    assert "authtoken" not in _every_row()  # its migration records went with the table
    signed = _client(OLD_KEY)
    assert signed.get("/api/auth/token/").json()[0]["prefix"] == OLD_KEY[:8]
    assert signed.post("/api/clubs/", {"name": "Old Key Club"}, format="json").status_code == 201
    assert _signs_in(eves_old)
    assert signed.delete("/api/auth/token/").status_code == 204
    assert not _signs_in(OLD_KEY)


def test_the_move_does_nothing_on_a_site_that_never_had_drf_tokens(dana):
    before = _every_row()
    assert _move() == 0
    assert _every_row() == before


def _backup_bytes(tmp_path: Any) -> bytes:
    """The database as a backup holds it: SQLite's copy, or PostgreSQL's dump as text (Knock's
    own dumps are compressed, so searching them would prove nothing)."""
    if connection.vendor == "sqlite":
        path = backup_create(directory=tmp_path)
        with tarfile.open(path) as archive:
            names = archive.getnames()
            payload = archive.extractfile(names[-1])
            assert payload is not None
            data = payload.read()
        assert data.startswith(b"SQLite format 3\x00")
        copy = tmp_path / "copy.sqlite3"
        copy.write_bytes(data)
        with sqlite3.connect(copy) as check:
            assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return data
    db = connection.settings_dict
    dumped = subprocess.run(
        [
            "pg_dump",
            "--format=plain",
            f"--host={db.get('HOST') or '127.0.0.1'}",
            f"--port={db.get('PORT') or 5432}",
            f"--username={db.get('USER') or 'postgres'}",
            db["NAME"],
        ],
        capture_output=True,
        check=True,
    )
    assert b"core_apitoken" in dumped.stdout
    return dumped.stdout


@pytest.mark.django_db(transaction=True)
def test_a_backup_holds_no_key_new_or_moved(dana, tmp_path):
    _make_drf_table({OLD_KEY: dana})
    assert OLD_KEY.encode() in _backup_bytes(tmp_path / "before")  # the test can see a key
    assert _move() == 1
    key = _ask().json()["token"]
    data = _backup_bytes(tmp_path / "after")
    assert OLD_KEY.encode() not in data
    assert key.encode() not in data
    assert hashlib.sha256(key.encode()).hexdigest().encode() in data
    assert _signs_in(OLD_KEY)
    assert _signs_in(key)


def test_staff_make_a_token_for_an_account_in_the_admin_and_see_it_once(dana):
    staff = User.objects.create_superuser("boss", password=PASSWORD)
    client = APIClient()
    client.force_login(staff)
    made = client.post("/admin/core/apitoken/add/", {"user": dana.pk, "name": "kiosk"}, follow=True)
    assert made.status_code == 200
    token = ApiToken.objects.get(user=dana)
    shown = re.findall(r"\b[0-9a-f]{40}\b", made.content.decode())
    assert len(shown) == 1
    key = shown[0]
    assert token.digest == hashlib.sha256(key.encode()).hexdigest()
    assert token.name == "kiosk"
    assert _signs_in(key)
    assert key not in _every_row()
    listed = client.get("/admin/core/apitoken/").content.decode()
    assert token.prefix in listed
    assert key not in listed
    assert key not in client.get(f"/admin/core/apitoken/{token.pk}/change/").content.decode()
