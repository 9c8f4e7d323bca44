"""POST /api/auth/token/ exchanges a username and password for a token; DELETE revokes it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def dana() -> User:
    return User.objects.create_user("dana", password="a-long-pass-phrase")


def test_a_token_is_given_for_the_right_password_and_works(dana):
    client = APIClient()
    response = client.post(
        "/api/auth/token/", {"username": "dana", "password": "a-long-pass-phrase"}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert body == {"token": Token.objects.get(user=dana).key, "username": "dana"}
    again = client.post(
        "/api/auth/token/", {"username": "dana", "password": "a-long-pass-phrase"}, format="json"
    )
    assert again.json()["token"] == body["token"]  # one token per user until revoked
    signed = APIClient()
    signed.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    created = signed.post("/api/clubs/", {"name": "Token Club"}, format="json")
    assert created.status_code == 201, created.content


@pytest.mark.parametrize(
    "body",
    [
        {"username": "dana", "password": "wrong"},
        {"username": "nobody", "password": "a-long-pass-phrase"},
        {"username": "dana"},
        {},
    ],
)
def test_a_wrong_or_missing_password_is_400_and_makes_no_token(dana, body):
    response = APIClient().post("/api/auth/token/", body, format="json")
    assert response.status_code == 400
    assert not Token.objects.exists()


def test_an_inactive_account_gets_no_token(dana):
    dana.is_active = False
    dana.save()
    response = APIClient().post(
        "/api/auth/token/", {"username": "dana", "password": "a-long-pass-phrase"}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "Wrong username or password."}


def test_delete_revokes_the_token(dana):
    key = Token.objects.create(user=dana).key
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.delete("/api/auth/token/").status_code == 204
    assert not Token.objects.filter(user=dana).exists()
    # the revoked token no longer signs anyone in
    assert client.post("/api/clubs/", {"name": "Late Club"}, format="json").status_code in (
        401,
        403,
    )
    assert client.delete("/api/auth/token/").status_code in (401, 403)


def test_delete_without_signing_in_is_refused():
    assert APIClient().delete("/api/auth/token/").status_code in (401, 403)
