"""Who may make an account (issue 26, point 11): ``KNOCK_SIGNUP`` = open | invitation | closed."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from clubs.models import ClubRole, RoleInvitation
from clubs.services import club_role_invite, role_invitation_accept
from tests.clubs.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

User = get_user_model()
STRONG = "gin-rummy-Knock-77"


def _signup(username: str = "mina", **extra: str) -> Any:
    data = {"username": username, "email": "", "password1": STRONG, "password2": STRONG, **extra}
    return Client().post("/accounts/signup/", data)


def _invite(username: str) -> RoleInvitation:
    club = ClubFactory(name="Mapo Gin")
    return club_role_invite(club=club, username=username, role="director", invited_by=None)


def test_open_is_the_default_and_anyone_signs_up(settings):
    from config.settings import base

    assert base.KNOCK_SIGNUP == "open"
    r = _signup()
    assert r.status_code == 302
    assert r["Location"] == "/clubs/new/"
    assert User.objects.filter(username="mina").exists()
    assert 'href="/accounts/signup/"' in Client().get("/accounts/login/").content.decode()


def test_closed_takes_no_account_and_says_so(settings):
    settings.KNOCK_SIGNUP = "closed"
    _invite("mina")  # not even an invited name
    page = Client().get("/accounts/signup/")
    assert page.status_code == 403
    assert "This site does not take new accounts" in page.content.decode()
    r = _signup()
    assert r.status_code == 403
    assert not User.objects.exists()
    assert 'href="/accounts/signup/"' not in Client().get("/accounts/login/").content.decode()
    with translation.override("ko"):
        html = Client().get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
        assert "이 사이트는 새 계정을 받지 않습니다" in html


def test_invitation_takes_only_a_name_with_a_pending_invitation(settings):
    settings.KNOCK_SIGNUP = "invitation"
    page = Client().get("/accounts/signup/").content.decode()
    assert 'id="signup-by-invitation"' in page
    r = _signup("stranger")
    assert r.status_code == 400
    assert "Accounts here are by invitation" in r.content.decode()
    assert not User.objects.exists()
    invitation = _invite("Mina")
    client = Client()
    data = {"username": "mina", "email": "", "password1": STRONG, "password2": STRONG}
    r = client.post("/accounts/signup/", data)
    assert r.status_code == 302
    assert r["Location"] == "/me/"
    mina = User.objects.get(username="mina")
    html = client.get("/me/").content.decode()
    assert "Mapo Gin invites you to be director." in html
    assert not ClubRole.objects.filter(user=mina).exists()  # still only an invitation
    role_invitation_accept(invitation_id=invitation.pk, user=mina)
    assert ClubRole.objects.filter(user=mina, role="director").exists()


def test_invitation_refuses_an_answered_invitation_and_a_taken_name(settings):
    settings.KNOCK_SIGNUP = "invitation"
    dora = UserFactory(username="dora")
    invitation = _invite("dora")
    role_invitation_accept(invitation_id=invitation.pk, user=dora)
    assert _signup("DORA").status_code == 400  # taken (any case)
    _invite("zed")
    invitation = RoleInvitation.objects.get(username="zed")
    invitation.delete()  # declined or withdrawn: no longer a way in
    assert _signup("zed").status_code == 400
    assert list(User.objects.values_list("username", flat=True)) == ["dora"]


def test_an_unknown_mode_is_refused_at_start(monkeypatch):
    import subprocess
    import sys

    from django.conf import settings as django_settings

    env = {
        "KNOCK_SIGNUP": "sometimes",
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "PATH": "/usr/bin:/bin",
        "KNOCK_VAR_DIR": str(django_settings.VAR_DIR),
    }
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env=env,
        capture_output=True,
        text=True,
        cwd=str(django_settings.BASE_DIR),
        timeout=60,
    )
    assert done.returncode != 0
    assert "KNOCK_SIGNUP is open, invitation or closed" in done.stderr
