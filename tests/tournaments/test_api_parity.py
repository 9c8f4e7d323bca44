"""What the director pages do, the API does too: each page action's endpoint through the real
routes, with its validation errors and permissions, and the one rule of who directs an event.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import URLPattern, URLResolver
from rest_framework.test import APIClient

from clubs.models import Club, ClubRole, Player
from engine.gem import DeckMap
from engine.rules import find_rules
from scoring.models import Match
from scoring.permissions import Actor
from scoring.selectors import event_is_director
from scoring.services import match_start
from tests.clubs.factories import ClubFactory, ClubRoleFactory, PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory
from tournaments.models import Event, Registration
from tournaments.permissions import user_can_manage_event
from tournaments.selectors.terms import event_terms

pytestmark = pytest.mark.django_db


def _as(user: Any) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _refused(response: Any) -> bool:
    """Anonymous: 401 or 403 (session auth answers 403); signed in without the role: 403."""
    return response.status_code in (401, 403)


# -- every page action has an endpoint ------------------------------------------------------------

# Page route name -> the API that does the same ("" for pages that are not an action).
PAGE_TO_API: dict[str, str] = {
    # tournaments/page_urls.py
    "login": "",  # session sign-in; the API takes a session or a token
    "logout": "",
    "signup": "",  # accounts are created on the page only; the API signs in with them
    # getting back in by mail is a page journey (Django's own views)
    "password_reset": "",
    "password_reset_done": "",
    "password_reset_confirm": "",
    "password_reset_complete": "",
    "invitation-accept": "POST /api/me/invitations/{id}/accept/",
    "invitation-decline": "POST /api/me/invitations/{id}/decline/",
    "club-invitation-cancel": "DELETE /api/clubs/{id}/invitations/{invitation_id}/",
    "home-feed": "GET /api/clubs/ and GET /api/events/",
    "club-list": "GET /api/clubs/",
    "club-create": "POST /api/clubs/",
    "club-detail": "GET /api/clubs/{id}/",
    "club-edit": "PATCH /api/clubs/{id}/",
    "club-gem-deck": "PUT|DELETE /api/clubs/{id}/gem-deck/",
    "club-players": "GET /api/players/?club={id}",
    "club-player-add": "POST /api/players/",
    "club-player-paste": "POST /api/clubs/{id}/players/bulk/",
    "club-player-edit": "PATCH /api/players/{id}/",
    "club-roles": "GET|POST /api/clubs/{id}/roles/",
    "club-role-revoke": "DELETE /api/clubs/{id}/roles/{role_id}/",
    "event-create": "POST /api/events/",
    "event-rules-fields": "GET /api/rule-presets/",
    "event-edit": "PATCH /api/events/{id}/",
    "event-detail": "GET /api/events/{id}/",
    "event-standings": "GET /api/events/{id}/standings/",
    "event-round": "GET /api/events/{id}/rounds/{number}/",
    "event-live": "GET /api/events/{id}/version/ and GET /api/events/{id}/standings/",
    "event-pair": "POST /api/events/{id}/rounds/",
    "event-console": "GET /api/events/{id}/console/",
    "match-close-as-it-stands-page": "POST /api/events/{id}/matches/{id}/close-as-it-stands/",
    "dashboard": "GET /api/me/ and GET /api/me/invitations/",
    "round-repair": "POST /api/events/{id}/rounds/{number}/repair/",
    "registration-add": "POST /api/events/{id}/registrations/",
    "registration-bulk": "POST /api/events/{id}/registrations/bulk/",
    "registration-paste": "POST /api/events/{id}/registrations/paste/",
    "registration-checkin-all": "POST /api/events/{id}/registrations/checkin-all/",
    "registration-checkin": "POST /api/events/{id}/registrations/{rid}/checkin/",
    "registration-drop": "POST /api/events/{id}/registrations/{rid}/drop/",
    "forbidden-add": "POST /api/events/{id}/forbidden-pairings/",
    "event-match-start": "POST /api/matches/",
    "checkin-open": "POST /api/checkin/",  # the token in the body, as the page posts it
    "checkin": "POST /api/checkin/{token}/",
    "player-detail": "GET /api/players/{id}/ and GET /api/players/{id}/ratings/",
    "round-print": "GET /api/events/{id}/rounds/{number}/print/",
    "round-wall-sheet": "GET /api/events/{id}/rounds/{number}/wall-sheet/",
    "round-clock-run": "POST /api/events/{id}/rounds/{number}/clock/",
    "event-checkin-codes": "GET /api/events/{id}/checkin-codes/",
    "event-export": (
        "GET /api/events/{id}/standings/export/ and GET /api/events/{id}/results/export/"
    ),
    # the projector shows the event page's data: its pairings, standings and bracket
    "event-projector": "GET /api/events/{id}/rounds/ and GET /api/events/{id}/standings/",
    "event-projector-slides": "GET /api/events/{id}/standings/ and GET /api/events/{id}/bracket/",
    # entries/page_urls.py (online entry)
    "event-enter": "POST /api/events/{id}/enter/",
    "event-entries": "GET /api/events/{id}/entries/",
    "event-entries-settings": "GET|POST /api/events/{id}/entries/settings/",
    "event-entry-action": (
        "POST /api/events/{id}/entries/{entry_id}/approve/ and "
        "POST /api/events/{id}/entries/{entry_id}/refuse/ and "
        "POST /api/events/{id}/entries/{entry_id}/waitlist/ and "
        "POST /api/events/{id}/entries/{entry_id}/withdraw/ and "
        "POST /api/events/{id}/entries/{entry_id}/merge/"
    ),
    # scoring/page_urls.py
    "match-detail": "GET /api/matches/{id}/",
    "match-live": "GET /api/matches/{id}/version/ and GET /api/matches/{id}/",
    "match-hand-submit": "POST /api/matches/{id}/hands/",
    "match-scoresheet-page": "GET|POST /api/matches/{id}/scoresheet/",
    "match-submission": "GET /api/matches/{id}/hands/",
    "match-submission-confirm": "POST /api/hands/{id}/confirm/",
    "match-submission-withdraw": "POST /api/hands/{id}/withdraw/",
    "match-submission-dispute": "POST /api/hands/{id}/dispute/",
    "match-link": "GET /api/matches/{id}/",  # following a link: the API sends it as a header
    "match-link-open": "GET /api/matches/{id}/",
    "match-links": "GET /api/matches/{id}/links/ and POST /api/matches/{id}/links/reissue/",
    "event-disputes": "GET /api/events/{id}/disputes/",
    "event-import": "POST /api/imports/",
    "import-example": "",  # a static example file
}


def _names(patterns: list[URLPattern | URLResolver]) -> set[str]:
    return {p.name for p in patterns if isinstance(p, URLPattern) and p.name}


def test_every_page_route_is_mapped_to_an_endpoint_in_the_schema(api):
    from entries import page_urls as entry_pages
    from scoring import page_urls as scoring_pages
    from tournaments import page_urls as tournament_pages

    pages = (
        _names(tournament_pages.urlpatterns)
        | _names(entry_pages.urlpatterns)
        | _names(scoring_pages.urlpatterns)
    )
    unmapped = sorted(pages - set(PAGE_TO_API))
    assert not unmapped, f"page routes without an API counterpart listed here: {unmapped}"
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    documented = {re.sub(r"\{[^}]+\}", "{id}", p) for p in schema}
    for page, target in PAGE_TO_API.items():
        for part in target.split(" and "):
            if not part:
                continue
            path = re.sub(r"\{[^}]+\}", "{id}", part.split(" ", 1)[1].split("?")[0])
            assert path in documented, f"{page}: {path} is not in the schema"


# -- PATCH /api/clubs/{id}/ -----------------------------------------------------------------------


def test_an_admin_edits_the_club_and_left_out_fields_keep_their_value(club, admin_user):
    club.description = "Tuesdays"
    club.save()
    r = _as(admin_user).patch(
        f"/api/clubs/{club.pk}/", {"name": "Gin Palace", "rating_period_days": 7}, format="json"
    )
    assert r.status_code == 200, r.json()
    body = r.json()
    assert body["name"] == "Gin Palace"
    assert body["slug"] == club.slug  # not given: unchanged
    assert body["description"] == "Tuesdays"
    assert body["rating_period_days"] == 7
    club.refresh_from_db()
    assert (club.name, club.rating_period_days) == ("Gin Palace", 7)
    r = _as(admin_user).patch(f"/api/clubs/{club.pk}/", {"slug": "gin-palace"}, format="json")
    assert r.status_code == 200
    assert r.json()["slug"] == "gin-palace"


def test_club_edit_errors_name_the_field(club, admin_user):
    client = _as(admin_user)
    r = client.patch(f"/api/clubs/{club.pk}/", {"rating_period_days": 0}, format="json")
    assert r.status_code == 400
    assert "rating_period_days" in r.json()
    r = client.patch(f"/api/clubs/{club.pk}/", {"name": "  "}, format="json")
    assert r.status_code == 400
    assert "name" in r.json()
    r = client.patch(f"/api/clubs/{club.pk}/", {"slug": "new"}, format="json")
    assert r.status_code == 400
    assert r.json()["field"] == "slug"
    other = ClubFactory(slug="taken")
    r = client.patch(f"/api/clubs/{club.pk}/", {"slug": other.slug}, format="json")
    assert r.status_code == 409
    assert r.json()["field"] == "slug"
    club.refresh_from_db()
    assert club.slug != "taken"


def test_creating_a_club_at_a_reserved_address_is_refused_like_the_page(stranger):
    r = _as(stranger).post("/api/clubs/", {"name": "New"}, format="json")
    assert r.status_code == 400
    assert r.json()["field"] == "slug"
    assert not Club.objects.filter(slug="new").exists()


def test_only_club_admins_edit_the_club(club, director, stranger):
    body = {"name": "Hijacked"}
    assert _as(director).patch(f"/api/clubs/{club.pk}/", body, format="json").status_code == 403
    assert _as(stranger).patch(f"/api/clubs/{club.pk}/", body, format="json").status_code == 403
    assert _refused(_as(None).patch(f"/api/clubs/{club.pk}/", body, format="json"))
    club.refresh_from_db()
    assert club.name != "Hijacked"


# -- /api/clubs/{id}/gem-deck/ --------------------------------------------------------------------


def _deck() -> dict[str, Any]:
    gems = ["ruby", "emerald", "sapphire", "diamond", "pearl", "topaz", "opal", "jade"]
    mapping: dict[str, Any] = {}
    for suit in "SHDC":
        for i, rank in enumerate("A23456789TJQK"):
            card = f"{rank}{suit}"
            mapping[card] = [gems[i % 8], gems[(i + 1) % 8]] if rank == "K" else gems[i % 8]
    return mapping


def test_an_admin_sets_reads_and_removes_the_gem_deck_map(club, admin_user):
    deck = _deck()
    sent = {("as" if card == "AS" else card): gems for card, gems in deck.items()}
    r = _as(admin_user).put(
        f"/api/clubs/{club.pk}/gem-deck/", {"gem_deck_map": sent}, format="json"
    )
    assert r.status_code == 200, r.json()
    club.refresh_from_db()
    assert club.gem_deck_map == deck  # card notation made canonical, as the page stores it
    assert len(DeckMap.from_mapping(club.gem_deck_map).names) == 8
    assert _as(None).get(f"/api/clubs/{club.pk}/gem-deck/").json() == {"gem_deck_map": deck}
    r = _as(admin_user).delete(f"/api/clubs/{club.pk}/gem-deck/")
    assert r.status_code == 204
    club.refresh_from_db()
    assert club.gem_deck_map == {}


def test_a_wrong_gem_deck_map_is_refused_at_the_field(club, admin_user):
    client = _as(admin_user)
    short = dict(_deck())
    del short["KC"]
    r = client.put(f"/api/clubs/{club.pk}/gem-deck/", {"gem_deck_map": short}, format="json")
    assert r.status_code == 400
    assert r.json()["field"] == "gem_deck_map"
    assert "KC" in r.json()["detail"]
    bad = {**_deck(), "1S": "ruby"}
    r = client.put(f"/api/clubs/{club.pk}/gem-deck/", {"gem_deck_map": bad}, format="json")
    assert r.status_code == 400
    assert "gem_deck_map" in r.json()
    r = client.put(f"/api/clubs/{club.pk}/gem-deck/", {"gem_deck_map": "AS ruby"}, format="json")
    assert r.status_code == 400
    assert "gem_deck_map" in r.json()
    club.refresh_from_db()
    assert club.gem_deck_map == {}


def test_only_club_admins_change_the_gem_deck_map(club, director, stranger):
    url, body = f"/api/clubs/{club.pk}/gem-deck/", {"gem_deck_map": _deck()}
    assert _as(director).put(url, body, format="json").status_code == 403
    assert _as(stranger).delete(url).status_code == 403
    assert _refused(_as(None).put(url, body, format="json"))
    assert _refused(_as(None).delete(url))


# -- /api/clubs/{id}/roles/ -----------------------------------------------------------------------


def test_an_admin_lists_grants_and_revokes_roles(club, admin_user, director, stranger):
    client = _as(admin_user)
    roles = client.get(f"/api/clubs/{club.pk}/roles/").json()
    assert {(r["username"], r["role"]) for r in roles} == {
        (admin_user.username, "admin"),
        (director.username, "director"),
    }
    r = client.post(
        f"/api/clubs/{club.pk}/roles/",
        {"username": stranger.username, "role": "admin"},
        format="json",
    )
    assert r.status_code == 201
    invited = r.json()
    assert invited["username"] == stranger.username
    assert invited["role"] == "admin"
    assert invited["status"] == "pending"
    assert not ClubRole.objects.filter(club=club, user=stranger).exists()
    r = _as(stranger).post(f"/api/me/invitations/{invited['id']}/accept/")
    assert r.status_code == 200
    granted = r.json()
    assert granted["role"] == "admin"
    r = client.delete(f"/api/clubs/{club.pk}/roles/{granted['id']}/")
    assert r.status_code == 204
    assert not ClubRole.objects.filter(club=club, user=stranger).exists()


def test_role_errors_name_the_field(club, admin_user):
    client = _as(admin_user)
    r = client.post(
        f"/api/clubs/{club.pk}/roles/",
        {"username": admin_user.username, "role": "owner"},
        format="json",
    )
    assert r.status_code == 400
    assert "role" in r.json()
    last = ClubRole.objects.get(club=club, user=admin_user, role="admin")
    r = client.delete(f"/api/clubs/{club.pk}/roles/{last.pk}/")
    assert r.status_code == 409
    assert r.json()["field"] == "role"
    assert ClubRole.objects.filter(pk=last.pk).exists()
    elsewhere = ClubRoleFactory(club=ClubFactory(), role="director")
    assert client.delete(f"/api/clubs/{club.pk}/roles/{elsewhere.pk}/").status_code == 404


def test_only_club_admins_see_and_revoke_roles(club, admin_user, director, stranger):
    role = ClubRole.objects.get(club=club, user=admin_user)
    for user in (director, stranger):
        assert _as(user).get(f"/api/clubs/{club.pk}/roles/").status_code == 403
        assert _as(user).delete(f"/api/clubs/{club.pk}/roles/{role.pk}/").status_code == 403
    assert _refused(_as(None).get(f"/api/clubs/{club.pk}/roles/"))
    assert _refused(_as(None).delete(f"/api/clubs/{club.pk}/roles/{role.pk}/"))
    assert ClubRole.objects.filter(pk=role.pk).exists()


# -- POST /api/clubs/{id}/players/bulk/ -----------------------------------------------------------


def test_a_director_pastes_many_players_and_duplicates_are_reported(club, director):
    PlayerFactory(club=club, name="Ann")
    url = f"/api/clubs/{club.pk}/players/bulk/"
    pasted = "Ann\nBen\n\n  Cleo  \nben\n"
    r = _as(director).post(url, {"names": pasted, "is_guest": True}, format="json")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert [p["name"] for p in body["created"]] == ["Ben", "Cleo"]
    assert all(p["is_guest"] and p["club"] == club.pk for p in body["created"])
    assert body["skipped"] == ["Ann"]
    assert Player.objects.filter(club=club).count() == 3
    r = _as(director).post(url, {"names": ["ann", "Cleo"]}, format="json")
    assert r.status_code == 200
    assert r.json() == {"created": [], "skipped": ["ann", "Cleo"]}


def test_pasting_players_errors_name_the_field(club, director):
    url = f"/api/clubs/{club.pk}/players/bulk/"
    for names in ("", "\n  \n", [], ["x" * 121], 7, [1, 2]):
        r = _as(director).post(url, {"names": names}, format="json")
        assert r.status_code == 400, names
        assert "names" in r.json(), r.json()
    r = _as(director).post(url, {}, format="json")
    assert r.status_code == 400
    assert "names" in r.json()
    assert not Player.objects.filter(club=club).exists()


def test_only_the_clubs_admins_and_directors_paste_players(club, admin_user, stranger):
    url = f"/api/clubs/{club.pk}/players/bulk/"
    other_director = ClubRoleFactory(club=ClubFactory(), role="director").user
    for user in (stranger, other_director):
        assert _as(user).post(url, {"names": "Zed"}, format="json").status_code == 403
    assert _refused(_as(None).post(url, {"names": "Zed"}, format="json"))
    assert not Player.objects.filter(club=club).exists()
    assert _as(admin_user).post(url, {"names": "Zed"}, format="json").status_code == 201


# -- PATCH /api/players/{id}/ ---------------------------------------------------------------------


def test_a_director_renames_a_player_and_changes_the_guest_flag_and_family(club, director):
    player = PlayerFactory(club=club, name="Ann", is_guest=True, family="Lee")
    url = f"/api/players/{player.pk}/"
    r = _as(director).patch(url, {"name": "Ann Lee"}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["name"] == "Ann Lee"
    assert r.json()["is_guest"] is True
    assert r.json()["family"] == "Lee"
    r = _as(director).patch(url, {"is_guest": False, "family": ""}, format="json")
    assert r.status_code == 200
    player.refresh_from_db()
    assert (player.name, player.is_guest, player.family) == ("Ann Lee", False, "")


def test_player_edit_errors_name_the_field(club, director):
    PlayerFactory(club=club, name="Ben")
    player = PlayerFactory(club=club, name="Ann")
    url = f"/api/players/{player.pk}/"
    r = _as(director).patch(url, {"name": "Ben"}, format="json")
    assert r.status_code == 409
    assert r.json()["field"] == "name"
    r = _as(director).patch(url, {"name": " "}, format="json")
    assert r.status_code == 400
    assert "name" in r.json()
    r = _as(director).patch(url, {"family": "x" * 61}, format="json")
    assert r.status_code == 400
    assert "family" in r.json()
    player.refresh_from_db()
    assert player.name == "Ann"


def test_only_the_players_club_edits_a_player(club, stranger):
    player = PlayerFactory(club=club, name="Ann")
    other_director = ClubRoleFactory(club=ClubFactory(), role="director").user
    url = f"/api/players/{player.pk}/"
    for user in (stranger, other_director):
        assert _as(user).patch(url, {"name": "X"}, format="json").status_code == 403
    assert _refused(_as(None).patch(url, {"name": "X"}, format="json"))
    player.refresh_from_db()
    assert player.name == "Ann"


# -- PATCH /api/events/{id}/ ----------------------------------------------------------------------


def _event(**kwargs: Any) -> Event:
    """An event made by the factory, typed (and read back, so ``club`` is not loaded)."""
    return Event.objects.get(pk=EventFactory(**kwargs).pk)


def _swiss(club: Club) -> Event:
    return _event(
        club=club,
        kind=Event.Kind.SWISS,
        status=Event.Status.REGISTRATION,
        rules=find_rules("classic").to_dict(),
    )


def test_a_director_changes_an_events_settings_before_play(club, director):
    event = _swiss(club)
    r = _as(director).patch(
        f"/api/events/{event.pk}/",
        {
            "name": "Renamed Swiss",
            "rules": "oklahoma",
            "match_format": {"kind": "best_of", "games": 3},
            "rounds_planned": 4,
            "tiebreaks": ["match_points", "gins", "lots"],
            "options": {"bye_points": 1},
            "starts_on": "2025-04-05",
        },
        format="json",
    )
    assert r.status_code == 200, r.json()
    body = r.json()
    assert body["name"] == "Renamed Swiss"
    assert body["rules"]["name"] == "oklahoma"
    assert body["match_format"] == {"kind": "best_of", "games": 3}
    assert body["rounds_planned"] == 4
    assert body["tiebreaks"] == ["match_points", "gins", "lots"]
    assert body["options"] == {"bye_points": 1}
    assert body["confirmation"] == event.confirmation  # not given: unchanged
    r = _as(director).patch(
        f"/api/events/{event.pk}/", {"rules": {**body["rules"], "target": 200}}, format="json"
    )
    assert r.status_code == 200
    event.refresh_from_db()
    assert event.rules["target"] == 200
    assert event.name == "Renamed Swiss"


def test_a_partial_rules_patch_changes_only_what_it_names(club, director):
    """Without ``name`` a rules object is a change to the current rules; with it, a preset."""
    event = _event(club=club, kind=Event.Kind.SWISS, rules=find_rules("oklahoma").to_dict())
    client, url = _as(director), f"/api/events/{event.pk}/"
    r = client.patch(url, {"rules": {"target": 200}}, format="json")
    assert r.status_code == 200, r.json()
    event.refresh_from_db()
    assert event.rules == find_rules("oklahoma").with_overrides(target=200).to_dict()
    r = client.patch(url, {"rules": {"gin_bonus": 30}}, format="json")
    assert r.status_code == 200, r.json()
    event.refresh_from_db()
    assert event.rules == find_rules("oklahoma").with_overrides(target=200, gin_bonus=30).to_dict()
    # Naming a preset starts from it, as at creation.
    r = client.patch(url, {"rules": {"name": "standard", "target": 150}}, format="json")
    assert r.status_code == 200, r.json()
    event.refresh_from_db()
    assert event.rules == find_rules("standard").with_overrides(target=150).to_dict()
    # A bad parameter in a partial change is refused by name; nothing changes.
    r = client.patch(url, {"rules": {"knock_limt": 5}}, format="json")
    assert r.status_code == 400
    assert r.json()["field"] == "rules"
    assert "knock_limt" in r.json()["detail"]
    event.refresh_from_db()
    assert event.rules == find_rules("standard").with_overrides(target=150).to_dict()


def test_event_creation_still_starts_from_the_standard_preset(club, director):
    r = _as(director).post(
        "/api/events/",
        {"club": club.pk, "name": "Night", "kind": "swiss", "rules": {"target": 200}},
        format="json",
    )
    assert r.status_code == 201, r.json()
    rules = r.json()["rules"]
    assert rules.pop("name") == "custom"  # a rule set of its own, on the standard values
    expected = find_rules("standard").with_overrides(target=200).to_dict()
    assert rules == {k: v for k, v in expected.items() if k != "name"}


def test_event_settings_errors_name_the_field(club, director):
    event = _swiss(club)
    client, url = _as(director), f"/api/events/{event.pk}/"
    service_errors: list[tuple[dict[str, Any], str]] = [
        ({"rules": "canasta"}, "rules"),
        ({"tiebreaks": ["coin"]}, "tiebreaks"),
        ({"options": {"bye_pts": 1}}, "options"),
        ({"match_format": {"kind": "marathon"}}, "match_format"),
    ]
    for body, field in service_errors:
        r = client.patch(url, body, format="json")
        assert r.status_code == 400, body
        assert r.json()["field"] == field, r.json()
    input_errors: list[tuple[dict[str, Any], str]] = [
        ({"rounds_planned": 0}, "rounds_planned"),
        ({"confirmation": "maybe"}, "confirmation"),
        ({"name": ""}, "name"),
        ({"rules": 5}, "rules"),
    ]
    for body, field in input_errors:
        r = client.patch(url, body, format="json")
        assert r.status_code == 400, body
        assert field in r.json(), r.json()
    event.refresh_from_db()
    assert event.rules == find_rules("classic").to_dict()


def test_rules_and_format_are_fixed_once_a_match_exists(club, director):
    event = _event(club=club, rules=find_rules("classic").to_dict())
    a, b = PlayerFactory(club=club), PlayerFactory(club=club)
    match_start(actor=Actor(user=director), event=event_terms(event=event), players=[a.pk, b.pk])
    assert Match.objects.filter(event=event).exists()
    client, url = _as(director), f"/api/events/{event.pk}/"
    r = client.patch(url, {"rules": {**event.rules, "target": 150}}, format="json")
    assert r.status_code == 409
    assert r.json()["field"] == "rules"
    r = client.patch(url, {"rules": "oklahoma"}, format="json")
    assert r.status_code == 409
    r = client.patch(url, {"match_format": {"kind": "best_of", "games": 3}}, format="json")
    assert r.status_code == 409
    assert r.json()["field"] == "match_format"
    # The same rules again and the other settings still go through.
    r = client.patch(
        url,
        {"rules": "classic", "name": "Still Tuesday", "tiebreaks": ["gins", "lots"]},
        format="json",
    )
    assert r.status_code == 200, r.json()
    event.refresh_from_db()
    assert event.name == "Still Tuesday"
    assert event.rules == find_rules("classic").to_dict()


def test_a_finished_events_settings_are_final(club, director):
    event = _event(club=club, status=Event.Status.FINISHED)
    r = _as(director).patch(f"/api/events/{event.pk}/", {"name": "Later"}, format="json")
    assert r.status_code == 409


def test_who_may_change_an_events_settings(club, admin_user, director, stranger):
    event = _swiss(club)
    url = f"/api/events/{event.pk}/"
    other_director = ClubRoleFactory(club=ClubFactory(), role="director").user
    for user in (stranger, other_director):
        assert _as(user).patch(url, {"name": "X"}, format="json").status_code == 403
    assert _refused(_as(None).patch(url, {"name": "X"}, format="json"))
    own = UserFactory()
    event.directors.add(own)
    for user in (own, admin_user, director, UserFactory(is_superuser=True)):
        assert _as(user).patch(url, {"name": f"By {user}"}, format="json").status_code == 200


# -- the rest of the event page ------------------------------------------------------------------


def test_rule_presets_are_listed_for_the_settings_form(api):
    presets = {p["name"]: p["rules"] for p in api.get("/api/rule-presets/").json()}
    assert presets["oklahoma"] == find_rules("oklahoma").to_dict()
    assert "standard" in presets


def test_a_director_registers_a_player_like_the_event_page(club, director, stranger):
    event = _swiss(club)
    player = PlayerFactory(club=club)
    url = f"/api/events/{event.pk}/registrations/"
    assert _as(stranger).post(url, {"player": player.pk}, format="json").status_code == 403
    assert _refused(_as(None).post(url, {"player": player.pk}, format="json"))
    r = _as(director).post(url, {"player": player.pk, "checked_in": True}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["status"] == "checked_in"
    r = _as(director).post(url, {"player": "someone"}, format="json")
    assert r.status_code == 400
    assert "player" in r.json()
    assert Registration.objects.filter(event=event).count() == 1


def test_a_player_of_another_club_cannot_be_registered(club, director):
    event = _swiss(club)
    outsider = PlayerFactory(club=ClubFactory(), name="Visiting Vera")
    r = _as(director).post(
        f"/api/events/{event.pk}/registrations/", {"player": outsider.pk}, format="json"
    )
    assert r.status_code == 400, r.json()
    assert r.json()["field"] == "player"
    assert r.json()["detail"] == (
        f"Visiting Vera is not on {club.name}'s player list; only the club's own players can "
        "enter its events."
    )
    assert not Registration.objects.filter(event=event).exists()


# -- who directs an event: one rule, two names ---------------------------------------------------


def test_event_is_director_and_user_can_manage_event_are_one_rule(
    club, admin_user, director, stranger, django_assert_max_num_queries
):
    event = _event(club=club)
    own = UserFactory()
    event.directors.add(own)
    other_director = ClubRoleFactory(club=ClubFactory(), role="director").user
    cases = {
        "none": (None, False),
        "anonymous": (AnonymousUser(), False),
        "stranger": (stranger, False),
        "another club's director": (other_director, False),
        "event director": (own, True),
        "club admin": (admin_user, True),
        "club director": (director, True),
        "superuser": (UserFactory(is_superuser=True), True),
    }
    # ``_event`` reads the event back without its club: the check must not load it. Scoring
    # asks with the event's terms, read before.
    terms = event_terms(event=event)
    for label, (user, expected) in cases.items():
        with django_assert_max_num_queries(2):
            assert event_is_director(event=terms, user=user) is expected, label
        with django_assert_max_num_queries(2):
            assert user_can_manage_event(user=user, event=event) is expected, label
