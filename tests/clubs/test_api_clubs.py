"""Clubs, roles and players through the real API routes, with permissions."""

from __future__ import annotations

import pytest

from clubs.models import ClubRole

pytestmark = pytest.mark.django_db


def test_anyone_creates_a_club_and_becomes_its_admin(api, stranger):
    assert api.post("/api/clubs/", {"name": "Gin House"}, format="json").status_code in (401, 403)
    api.force_authenticate(stranger)
    r = api.post("/api/clubs/", {"name": "Gin House", "rating_period_days": 7}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["slug"] == "gin-house"
    assert ClubRole.objects.filter(user=stranger, role="admin", club_id=r.json()["id"]).exists()
    page = api.get(f"/api/clubs/{r.json()['id']}/").json()
    assert page["can_manage"] is True
    assert page["rating_period_days"] == 7
    again = api.post("/api/clubs/", {"name": "Gin House"}, format="json")
    assert again.status_code == 409
    assert again.json()["field"] == "slug"
    listing = api.get("/api/clubs/").json()
    assert listing["count"] == 1


def test_only_admins_grant_roles(api, club, admin_user, director, stranger):
    api.force_authenticate(director)
    body = {"username": stranger.username, "role": "director"}
    assert api.post(f"/api/clubs/{club.pk}/roles/", body, format="json").status_code == 403
    api.force_authenticate(admin_user)
    r = api.post(f"/api/clubs/{club.pk}/roles/", body, format="json")
    assert r.status_code == 201
    assert r.json()["status"] == "pending"
    # An invitation: the role counts only once the invited account accepts it.
    assert not ClubRole.objects.filter(club=club, user=stranger, role="director").exists()
    api.force_authenticate(stranger)
    accepted = api.post(f"/api/me/invitations/{r.json()['id']}/accept/")
    assert accepted.status_code == 200
    assert ClubRole.objects.filter(club=club, user=stranger, role="director").exists()


def test_players_need_no_account_and_only_directors_add_them(api, club, director, stranger):
    api.force_authenticate(stranger)
    body = {"club": club.pk, "name": "Guest Kim", "is_guest": True}
    assert api.post("/api/players/", body, format="json").status_code == 403
    api.force_authenticate(director)
    r = api.post("/api/players/", body, format="json")
    assert r.status_code == 201
    assert r.json()["is_guest"] is True
    assert api.post("/api/players/", body, format="json").status_code == 409
    api.force_authenticate(None)
    assert api.get(f"/api/players/?club={club.pk}").json()["count"] == 1
    assert api.get(f"/api/players/{r.json()['id']}/").json()["name"] == "Guest Kim"
