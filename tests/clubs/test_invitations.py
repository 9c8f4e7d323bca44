"""Club roles by invitation (issue 26, point 10): granting answers the same whether or not an
account holds the name, and the role counts only once its holder accepts it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from clubs.models import ClubRole, RoleInvitation
from clubs.permissions import user_can_manage_club
from clubs.services import club_role_invite, role_invitation_accept
from core.errors import ApplicationError
from tests.clubs.factories import ClubFactory, ClubRoleFactory, UserFactory

pytestmark = pytest.mark.django_db


def _api(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _page(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def club() -> Any:
    return ClubFactory(name="Mapo Gin", slug="mapo-gin")


@pytest.fixture
def admin(club: Any) -> Any:
    user = UserFactory(username="boss")
    ClubRoleFactory(club=club, user=user, role="admin")
    return user


def _grant(admin: Any, club: Any, name: str, role: str = "director") -> Any:
    return _api(admin).post(
        f"/api/clubs/{club.pk}/roles/", {"username": name, "role": role}, format="json"
    )


def _shape(response: Any, name: str) -> tuple[int, dict[str, Any]]:
    """The answer with what differs between any two requests (the row's id, the time) and the
    name itself taken out."""
    body = dict(response.json())
    assert isinstance(body.pop("id"), int)
    assert body.pop("created_at")
    assert body.pop("username") == name
    return response.status_code, body


# -- the grant is no account oracle ---------------------------------------------------------------


def test_the_api_grant_answers_the_same_for_an_existing_and_a_missing_username(club, admin):
    UserFactory(username="dora")
    known = _grant(admin, club, "dora")
    unknown = _grant(admin, club, "nobody-here")
    assert _shape(known, "dora") == _shape(unknown, "nobody-here")
    assert _shape(known, "dora") == (201, {"role": "director", "status": "pending"})
    assert set(known.json()) == set(unknown.json())
    # Both are stored alike, as pending names; neither made a role.
    assert set(RoleInvitation.objects.values_list("username", "accepted_at")) == {
        ("dora", None),
        ("nobody-here", None),
    }
    assert ClubRole.objects.filter(club=club).count() == 1


def test_the_page_grant_answers_the_same_for_an_existing_and_a_missing_username(club, admin):
    UserFactory(username="dora")
    answers = []
    for name in ("dora", "nobody-here"):
        r = _page(admin).post(
            f"/clubs/{club.slug}/roles/", {"username": name, "role": "admin"}, follow=True
        )
        messages = [str(m).replace(name, "NAME") for m in r.context["messages"]]
        answers.append((r.status_code, r.redirect_chain, messages))
    assert answers[0] == answers[1]
    assert answers[0][2] == [
        "Invitation sent to NAME to be admin of the club: it takes effect when they accept it."
    ]
    html = _page(admin).get(f"/clubs/{club.slug}/roles/").content.decode()
    assert 'id="invitations"' in html
    assert "dora" in html
    assert "nobody-here" in html


def test_the_grant_does_the_same_database_work_for_an_existing_and_a_missing_username(club, admin):
    UserFactory(username="dora")
    shapes = []
    for name in ("dora", "nobody-here"):
        with CaptureQueriesContext(connection) as queries:
            club_role_invite(club=club, username=name, role="director", invited_by=admin)
        shapes.append(
            [
                re.sub(
                    r"'[0-9-]+[ T][0-9:.+]+'", "TIME", re.sub(r'"s\d+_x\d+"', "SP", q["sql"])
                ).replace(name, "NAME")
                for q in queries.captured_queries
            ]
        )
    assert shapes[0] == shapes[1]
    assert not any("auth_user" in sql for sql in shapes[0])  # no account is looked up


def test_a_name_that_cannot_be_a_username_is_refused_for_its_form_and_nothing_is_stored(
    club, admin
):
    for bad in ("", "   ", "mina kim", "x" * 151):
        r = _grant(admin, club, bad)
        assert r.status_code == 400, bad
        assert "username" in r.json() or r.json().get("field") == "username"
    r = _grant(admin, club, "dora", role="owner")
    assert r.status_code == 400
    assert not RoleInvitation.objects.exists()


def test_inviting_twice_answers_the_same_pending_invitation(club, admin):
    first = _grant(admin, club, "dora").json()
    again = _grant(admin, club, "DORA").json()
    assert again["id"] == first["id"]
    assert RoleInvitation.objects.count() == 1


def test_only_the_clubs_admins_invite(club, admin):
    director: Any = UserFactory(username="dee")
    ClubRoleFactory(club=club, user=director, role="director")
    assert _grant(director, club, "dora").status_code == 403
    assert _api().post(
        f"/api/clubs/{club.pk}/roles/", {"username": "x", "role": "admin"}
    ).status_code in (401, 403)
    assert not RoleInvitation.objects.exists()


# -- consent ------------------------------------------------------------------------------------


def test_the_role_counts_only_once_accepted(club, admin):
    dora: Any = UserFactory(username="dora")
    invitation = _grant(admin, club, "dora", role="admin").json()
    assert not user_can_manage_club(user=dora, club=club)
    assert _api(dora).get(f"/api/clubs/{club.pk}/roles/").status_code == 403
    mine = _api(dora).get("/api/me/invitations/").json()
    assert [(i["id"], i["club"], i["role"], i["invited_by"]) for i in mine] == [
        (invitation["id"], club.pk, "admin", "boss")
    ]
    r = _api(dora).post(f"/api/me/invitations/{invitation['id']}/accept/")
    assert r.status_code == 200
    assert r.json()["role"] == "admin"
    assert r.json()["club"] == club.pk
    assert user_can_manage_club(user=dora, club=club)
    assert _api(dora).get(f"/api/clubs/{club.pk}/roles/").status_code == 200
    assert _api(dora).get("/api/me/invitations/").json() == []
    stored = RoleInvitation.objects.get(pk=invitation["id"])
    assert stored.accepted_at is not None
    assert stored.accepted_by == dora
    # Answered: it cannot be accepted or declined again.
    assert _api(dora).post(f"/api/me/invitations/{invitation['id']}/accept/").status_code == 404
    assert _api(dora).post(f"/api/me/invitations/{invitation['id']}/decline/").status_code == 404


def test_declining_removes_the_invitation_and_makes_no_role(club, admin):
    dora: Any = UserFactory(username="dora")
    invitation = _grant(admin, club, "dora").json()
    r = _api(dora).post(f"/api/me/invitations/{invitation['id']}/decline/")
    assert r.status_code == 204
    assert not RoleInvitation.objects.exists()
    assert not ClubRole.objects.filter(user=dora).exists()
    assert _api(admin).get(f"/api/clubs/{club.pk}/invitations/").json() == []


def test_nobody_else_accepts_or_declines_someone_elses_invitation(club, admin):
    UserFactory(username="dora")
    eve: Any = UserFactory(username="eve")
    invitation = _grant(admin, club, "dora", role="admin").json()
    pk = invitation["id"]
    for who in (eve, admin):
        assert _api(who).post(f"/api/me/invitations/{pk}/accept/").status_code == 404
        assert _api(who).post(f"/api/me/invitations/{pk}/decline/").status_code == 404
        assert _page(who).post(f"/me/invitations/{pk}/accept/").status_code == 404
        assert _page(who).post(f"/me/invitations/{pk}/decline/").status_code == 404
        assert _api(who).get("/api/me/invitations/").json() == []
    assert _api().post(f"/api/me/invitations/{pk}/accept/").status_code in (401, 403)
    assert Client().post(f"/me/invitations/{pk}/accept/").status_code == 302  # to sign in
    assert not ClubRole.objects.filter(user=eve).exists()
    assert RoleInvitation.objects.get(pk=pk).accepted_at is None


def test_an_inactive_account_cannot_accept(club, admin):
    sleeper: Any = UserFactory(username="sleeper", is_active=False)
    invitation = _grant(admin, club, "sleeper").json()
    with pytest.raises(ApplicationError) as caught:
        role_invitation_accept(invitation_id=invitation["id"], user=sleeper)
    assert caught.value.status == 404
    assert not ClubRole.objects.filter(user=sleeper).exists()


def test_an_account_made_later_under_the_name_sees_the_invitation(club, admin):
    invitation = _grant(admin, club, "Newcomer").json()
    late: Any = UserFactory(username="newcomer")  # any case
    html = _page(late).get("/me/").content.decode()
    assert 'id="my-invitations"' in html
    assert "Mapo Gin invites you to be director." in html
    r = _page(late).post(f"/me/invitations/{invitation['id']}/accept/", follow=True)
    assert r.status_code == 200
    assert "You are now director of Mapo Gin." in r.content.decode()
    assert ClubRole.objects.filter(club=club, user=late, role="director").exists()


def test_the_dashboard_declines_and_speaks_korean(club, admin):
    dora: Any = UserFactory(username="dora")
    invitation = _grant(admin, club, "dora").json()
    with translation.override("ko"):
        html = _page(dora).get("/me/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
        assert "초대" in html
        assert "수락" in html
        assert "Accept" not in html
        roles_page = _page(admin).get(f"/clubs/{club.slug}/roles/", HTTP_ACCEPT_LANGUAGE="ko")
        assert "수락을 기다리는 초대" in roles_page.content.decode()
    r = _page(dora).post(f"/me/invitations/{invitation['id']}/decline/", follow=True)
    assert "You declined the invitation from Mapo Gin." in r.content.decode()
    assert not RoleInvitation.objects.exists()


def test_an_admin_withdraws_a_pending_invitation(club, admin):
    dora: Any = UserFactory(username="dora")
    first = _grant(admin, club, "dora").json()
    second = _grant(admin, club, "nobody-here").json()
    listed = _api(admin).get(f"/api/clubs/{club.pk}/invitations/").json()
    assert [i["id"] for i in listed] == [first["id"], second["id"]]
    assert _api(dora).get(f"/api/clubs/{club.pk}/invitations/").status_code == 403
    assert _api(dora).delete(f"/api/clubs/{club.pk}/invitations/{first['id']}/").status_code == 403
    r = _api(admin).delete(f"/api/clubs/{club.pk}/invitations/{first['id']}/")
    assert r.status_code == 204
    page = _page(admin).post(f"/clubs/{club.slug}/invitations/{second['id']}/cancel/", follow=True)
    assert "The invitation to nobody-here is withdrawn." in page.content.decode()
    assert not RoleInvitation.objects.exists()
    assert _api(dora).post(f"/api/me/invitations/{first['id']}/accept/").status_code == 404
    assert _api(admin).delete(f"/api/clubs/{club.pk}/invitations/{first['id']}/").status_code == 404
    other = ClubFactory(slug="other")
    third = _grant(admin, club, "dora").json()
    ClubRoleFactory(club=other, user=admin, role="admin")
    # Another club's admin address cannot reach this club's invitation.
    assert (
        _api(admin).delete(f"/api/clubs/{other.pk}/invitations/{third['id']}/").status_code == 404
    )


def test_existing_role_holders_keep_their_roles(club, admin):
    director: Any = UserFactory(username="dee")
    ClubRoleFactory(club=club, user=director, role="director")
    _grant(admin, club, "dee", role="director")  # inviting a holder again changes nothing
    assert ClubRole.objects.filter(club=club, user=director, role="director").count() == 1
    roles = _api(admin).get(f"/api/clubs/{club.pk}/roles/").json()
    assert {(r["username"], r["role"]) for r in roles} == {("boss", "admin"), ("dee", "director")}


def test_the_site_admin_lists_invitations_but_cannot_accept_one(club, admin):
    root = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-1234")
    invitation = club_role_invite(club=club, username="dora", role="admin", invited_by=admin)
    client = Client()
    client.force_login(root)
    listing = client.get(reverse("admin:clubs_roleinvitation_changelist"))
    assert listing.status_code == 200
    assert "dora" in listing.content.decode()
    change = client.get(reverse("admin:clubs_roleinvitation_change", args=[invitation.pk]))
    assert change.status_code == 200
    assert 'name="accepted_at"' not in change.content.decode()
