"""Signing in and signing up (a director's first step), through Django's test client."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from clubs.models import Club
from tests.clubs.factories import PASSWORD, UserFactory
from tests.clubs.helpers import field_error, page_client

pytestmark = pytest.mark.django_db

User = get_user_model()
STRONG = "gin-rummy-Knock-77"


def _signup(client: Client, **overrides: str) -> Any:
    data = {"username": "mina", "email": "", "password1": STRONG, "password2": STRONG}
    return client.post("/accounts/signup/", {**data, **overrides})


# -- sign-in ------------------------------------------------------------------------------------


def test_sign_in_page():
    UserFactory(username="dee")
    assert Client().get("/accounts/login/").status_code == 200
    response = Client().post("/accounts/login/", {"username": "dee", "password": PASSWORD})
    assert response.status_code == 302
    bad = Client().post("/accounts/login/", {"username": "dee", "password": "nope"})
    assert bad.status_code == 200
    assert "error" in bad.content.decode()


# -- sign-up ------------------------------------------------------------------------------------


def test_signing_up_signs_the_new_director_in_and_sends_them_to_start_a_club():
    client = page_client()
    r = _signup(client, email="mina@example.org")
    assert r.status_code == 302
    assert r["Location"] == "/clubs/new/"
    user = User.objects.get(username="mina")
    assert user.email == "mina@example.org"
    assert user.check_password(STRONG)
    assert not user.is_staff
    assert not user.is_superuser
    assert client.session["_auth_user_id"] == str(user.pk)
    page = client.get("/clubs/new/")
    assert page.status_code == 200  # signed in: no detour through the sign-in page
    assert "Welcome, mina. Start your club next." in page.content.decode()
    r = client.post("/clubs/new/", {"name": "Mapo Gin", "rating_period_days": "30"})
    assert r.status_code == 302
    assert Club.objects.get(name="Mapo Gin").roles.filter(user=user, role="admin").exists()


def test_the_email_is_optional_and_a_signed_in_user_is_not_asked_again():
    client = page_client()
    assert _signup(client).status_code == 302
    assert User.objects.get(username="mina").email == ""
    r = client.get("/accounts/signup/")
    assert r.status_code == 302
    assert r["Location"] == "/clubs/new/"


def test_a_taken_username_is_refused_at_the_field_whatever_its_case():
    UserFactory(username="mina")
    r = _signup(page_client(), username="Mina")
    assert r.status_code == 400
    assert field_error(r.content.decode(), "id_username") == (
        "The username Mina is taken; choose another."
    )
    assert User.objects.filter(username__iexact="mina").count() == 1
    assert "_auth_user_id" not in r.wsgi_request.session


def test_a_weak_password_is_refused_with_djangos_validators():
    for password, reason in [
        ("short1", "This password is too short. It must contain at least 8 characters."),
        ("password", "This password is too common."),
        ("12345678901", "This password is entirely numeric."),
        ("mina-knock", "The password is too similar to the username."),
    ]:
        r = _signup(page_client(), username="mina-knock", password1=password, password2=password)
        assert r.status_code == 400, password
        assert reason in field_error(r.content.decode(), "id_password1"), password
    assert not User.objects.filter(username="mina-knock").exists()


def test_the_two_passwords_must_match_and_a_bad_username_is_refused():
    r = _signup(page_client(), password2=STRONG + "x")
    assert r.status_code == 400
    assert field_error(r.content.decode(), "id_password2") == "The two passwords differ."
    r = _signup(page_client(), username="mina kim")
    assert r.status_code == 400
    assert field_error(r.content.decode(), "id_username")
    r = _signup(page_client(), email="not-an-email")
    assert r.status_code == 400
    assert field_error(r.content.decode(), "id_email")
    assert not User.objects.exists()


def test_sign_up_needs_the_csrf_token_and_is_linked_from_sign_in_and_home():
    client = Client(enforce_csrf_checks=True)
    page = client.get("/accounts/signup/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="csrfmiddlewaretoken"' in html
    assert 'autocomplete="new-password"' in html
    assert "This password is too common." not in html  # the rules are listed, not errors
    assert _signup(client).status_code == 403  # no token
    assert not User.objects.exists()
    for url in ("/accounts/login/", "/"):
        assert 'href="/accounts/signup/"' in client.get(url).content.decode(), url


def test_the_sign_up_page_speaks_korean():
    UserFactory(username="mina")
    with translation.override("ko"):
        html = page_client().get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
        assert "<h1>계정 만들기</h1>" in html
        client = page_client()
        data = {"username": "mina", "password1": STRONG, "password2": STRONG}
        r = client.post("/accounts/signup/", data, HTTP_ACCEPT_LANGUAGE="ko")
        assert field_error(r.content.decode(), "id_username") == (
            "사용자 이름 mina는 이미 쓰이고 있습니다. 다른 이름을 고르세요."
        )
