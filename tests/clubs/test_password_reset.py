"""Getting back in (issue 26, point 11): Django's password reset, mailed through Django's email
framework (locmem in tests), in both languages, telling nobody which addresses have accounts."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import translation

from tests.clubs.factories import UserFactory

pytestmark = pytest.mark.django_db

User = get_user_model()
NEW = "fresh-Knock-password-42"


def _ask(email: str, client: Client | None = None, **headers: Any) -> Any:
    return (client or Client()).post("/accounts/password_reset/", {"email": email}, **headers)


def _link(message: Any) -> str:
    found = re.search(r"https?://[^/\s]+(/accounts/password_reset/[^\s]+/)", message.body)
    assert found, message.body
    return found.group(1)


def test_the_sign_in_page_links_to_the_reset():
    html = Client().get("/accounts/login/").content.decode()
    assert 'href="/accounts/password_reset/"' in html


def test_the_mailed_link_sets_a_new_password_once():
    mina: Any = UserFactory(username="mina", email="mina@example.org")
    r = _ask("MINA@example.org")
    assert r.status_code == 302
    assert r["Location"] == "/accounts/password_reset/done/"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["mina@example.org"]
    assert "mina" in message.body
    client = Client()
    page = client.get(_link(message), follow=True)
    assert page.status_code == 200
    assert 'name="new_password1"' in page.content.decode()
    set_url = page.redirect_chain[-1][0]
    r = client.post(set_url, {"new_password1": NEW, "new_password2": NEW})
    assert r.status_code == 302
    assert r["Location"] == "/accounts/password_reset/complete/"
    assert "Your new password is set" in client.get(r["Location"]).content.decode()
    mina.refresh_from_db()
    assert mina.check_password(NEW)
    signed_in = Client().post("/accounts/login/", {"username": "mina", "password": NEW})
    assert signed_in.status_code == 302
    assert signed_in["Location"] == "/me/"
    # The link works once.
    again = Client().get(_link(message), follow=True).content.decode()
    assert 'id="reset-invalid"' in again


def test_a_weak_new_password_is_refused_and_nothing_changes():
    mina: Any = UserFactory(username="mina", email="mina@example.org")
    _ask("mina@example.org")
    client = Client()
    page = client.get(_link(mail.outbox[0]), follow=True)
    r = client.post(page.redirect_chain[-1][0], {"new_password1": "123", "new_password2": "123"})
    assert r.status_code == 200
    assert "too short" in r.content.decode()
    mina.refresh_from_db()
    assert not mina.check_password("123")


def test_an_unknown_address_gets_the_same_answer_and_no_mail():
    UserFactory(username="mina", email="mina@example.org")
    known = _ask("mina@example.org")
    unknown = _ask("nobody@example.org")
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert [m.to for m in mail.outbox] == [["mina@example.org"]]


def test_an_address_gets_a_few_mails_an_hour_and_the_page_answers_the_same():
    UserFactory(username="mina", email="mina@example.org")
    answers = {(_ask("mina@example.org").status_code) for _ in range(5)}
    assert answers == {302}
    assert len(mail.outbox) == 3


def test_the_reset_pages_speak_korean():
    UserFactory(username="mina", email="mina@example.org")
    with translation.override("ko"):
        html = Client().get("/accounts/password_reset/", HTTP_ACCEPT_LANGUAGE="ko").content
        assert "비밀번호 찾기" in html.decode()
        client = Client()
        r = _ask("mina@example.org", client, HTTP_ACCEPT_LANGUAGE="ko", follow=True)
        assert "메일을 확인하세요" in r.content.decode()
        assert "새 비밀번호" in mail.outbox[0].body
        bad = (
            Client()
            .get("/accounts/password_reset/MQ/bad-token/", HTTP_ACCEPT_LANGUAGE="ko")
            .content.decode()
        )
        assert "이 링크는 쓸 수 없습니다" in bad


def test_mail_goes_to_files_under_var_by_default_and_smtp_in_production():
    from config.settings import base

    assert base.EMAIL_BACKEND == "django.core.mail.backends.filebased.EmailBackend"
    assert base.EMAIL_FILE_PATH == base.VAR_DIR / "mail"
    code = (
        "from django.conf import settings as s; "
        "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, s.EMAIL_USE_TLS,"
        " s.DEFAULT_FROM_EMAIL, sep='|')"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": "x" * 60,
        "ALLOWED_HOSTS": "knock.example.org",
        "DATABASE_URL": "postgres://u@127.0.0.1:5432/knock",
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
        "KNOCK_VAR_DIR": str(settings.VAR_DIR),
        "DEFAULT_FROM_EMAIL": "knock@example.org",
    }
    cwd = str(settings.BASE_DIR)
    run = [sys.executable, "-c", "import django; django.setup(); " + code]
    by_url = subprocess.run(
        run,
        env={**env, "EMAIL_URL": "smtp+tls://mail-user:secret@smtp.example.org:587"},
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )
    assert by_url.stdout.strip().split("|") == [
        "django.core.mail.backends.smtp.EmailBackend",
        "smtp.example.org",
        "587",
        "mail-user",
        "True",
        "knock@example.org",
    ], by_url.stderr
    by_host = subprocess.run(
        run,
        env={**env, "EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "2525", "EMAIL_USE_TLS": "0"},
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )
    assert by_host.stdout.strip().split("|") == [
        "django.core.mail.backends.smtp.EmailBackend",
        "smtp.example.org",
        "2525",
        "",
        "False",
        "knock@example.org",
    ], by_host.stderr
