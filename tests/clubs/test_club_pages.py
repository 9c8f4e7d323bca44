"""A club's director pages through the test client: creating and editing the club, its players,
its roles and its Gem Rummy deck map, and who may open them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from clubs.models import Club, ClubRole, Player, RoleInvitation
from engine.gem import DeckMap
from tests.clubs.factories import ClubFactory, PlayerFactory, UserFactory
from tests.clubs.helpers import field_error, page_client

pytestmark = pytest.mark.django_db


# -- permissions --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/clubs/new/",
        "/clubs/{slug}/edit/",
        "/clubs/{slug}/players/",
        "/clubs/{slug}/roles/",
    ],
)
def test_signed_out_visitors_are_sent_to_sign_in(url):
    club = ClubFactory()
    response = Client().get(url.format(slug=club.slug))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.parametrize(
    ("url", "method"),
    [
        ("/clubs/{slug}/edit/", "get"),
        ("/clubs/{slug}/gem-deck/", "post"),
        ("/clubs/{slug}/players/", "get"),
        ("/clubs/{slug}/players/add/", "post"),
        ("/clubs/{slug}/players/paste/", "post"),
        ("/clubs/{slug}/roles/", "get"),
    ],
)
def test_signed_in_strangers_get_403(url, method):
    club = ClubFactory()
    path = url.format(slug=club.slug)
    response = getattr(page_client(UserFactory()), method)(path, {"add-name": "Zed"})
    assert response.status_code == 403
    assert "Not allowed" in response.content.decode()
    assert not Player.objects.filter(name="Zed").exists()


# -- clubs ----------------------------------------------------------------------------------


def test_any_signed_in_user_creates_a_club_and_becomes_its_admin():
    user: Any = UserFactory()
    response = page_client(user).post(
        "/clubs/new/",
        {
            "name": "Seoul Gin Society",
            "slug": "",
            "description": "Thursdays",
            "rating_period_days": 7,
        },
    )
    club = Club.objects.get(name="Seoul Gin Society")
    assert response.status_code == 302
    assert response["Location"] == f"/clubs/{club.slug}/players/"
    assert club.slug == "seoul-gin-society"
    assert club.rating_period_days == 7
    assert ClubRole.objects.filter(club=club, user=user, role=ClubRole.Role.ADMIN).exists()


def test_club_creation_shows_the_services_message_at_the_field():
    ClubFactory(slug="taken")
    response = page_client(UserFactory()).post(
        "/clubs/new/", {"name": "Another", "slug": "taken", "rating_period_days": 30}
    )
    assert response.status_code == 400
    assert "is taken" in field_error(response.content.decode(), "id_slug")


def test_club_creation_refuses_the_reserved_address_and_a_zero_period():
    client = page_client(UserFactory())
    response = client.post("/clubs/new/", {"name": "New", "slug": "", "rating_period_days": 0})
    assert response.status_code == 400
    assert field_error(response.content.decode(), "id_rating_period_days")
    # The reserved address is the service's rule (the API refuses it the same way).
    response = client.post("/clubs/new/", {"name": "New", "slug": "", "rating_period_days": 30})
    assert response.status_code == 400
    assert "reserved" in field_error(response.content.decode(), "id_slug")
    assert not Club.objects.filter(name="New").exists()


def test_an_admin_edits_the_club(club, admin_user):
    response = page_client(admin_user).post(
        f"/clubs/{club.slug}/edit/",
        {"name": "Renamed", "slug": "renamed", "description": "x", "rating_period_days": 14},
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.name, club.slug, club.rating_period_days) == ("Renamed", "renamed", 14)


# -- players --------------------------------------------------------------------------------


def test_a_director_pastes_a_list_of_players(club, director):
    PlayerFactory(club=club, name="Ann")
    response = page_client(director).post(
        f"/clubs/{club.slug}/players/paste/",
        {"list-names": "Ann\nBo\n\n  Cy  \nBo\n", "list-is_guest": "on"},
        follow=True,
    )
    html = response.content.decode()
    assert "2 players added." in html
    assert "Already on the list: Ann" in html
    guests = Player.objects.filter(club=club, is_guest=True)
    assert sorted(guests.values_list("name", flat=True)) == ["Bo", "Cy"]


def test_adding_a_player_twice_shows_the_message_at_the_name(club, director):
    PlayerFactory(club=club, name="Ann")
    response = page_client(director).post(f"/clubs/{club.slug}/players/add/", {"add-name": "Ann"})
    assert response.status_code == 400
    assert "already has a player called" in field_error(response.content.decode(), "id_add-name")


def test_a_director_renames_a_player(club, director):
    player = PlayerFactory(club=club, name="Jon")
    response = page_client(director).post(
        f"/clubs/{club.slug}/players/{player.pk}/",
        {f"p{player.pk}-name": "John", f"p{player.pk}-family": "Kim"},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.name, player.family, player.is_guest) == ("John", "Kim", False)


def test_renaming_onto_another_players_name_is_refused_at_the_field(club, director):
    PlayerFactory(club=club, name="Ann")
    player = PlayerFactory(club=club, name="Bo")
    response = page_client(director).post(
        f"/clubs/{club.slug}/players/{player.pk}/", {f"p{player.pk}-name": "Ann"}
    )
    assert response.status_code == 400
    assert "already has" in field_error(response.content.decode(), f"id_p{player.pk}-name")
    player.refresh_from_db()
    assert player.name == "Bo"


# -- roles ----------------------------------------------------------------------------------


def test_an_admin_grants_and_revokes_a_role_by_username(club, admin_user):
    dora: Any = UserFactory(username="dora")
    client = page_client(admin_user)
    response = client.post(f"/clubs/{club.slug}/roles/", {"username": "dora", "role": "director"})
    assert response.status_code == 302
    # Granting invites: nothing counts until Dora accepts on her own page.
    assert not ClubRole.objects.filter(club=club, user=dora).exists()
    invitation = RoleInvitation.objects.get(club=club, username="dora")
    assert page_client(dora).post(f"/me/invitations/{invitation.pk}/accept/").status_code == 302
    role = ClubRole.objects.get(club=club, user=dora)
    assert role.role == "director"
    client.post(f"/clubs/{club.slug}/roles/{role.pk}/revoke/")
    assert not ClubRole.objects.filter(club=club, user=dora).exists()


def test_granting_to_an_unknown_username_answers_as_for_a_known_one(club, admin_user):
    UserFactory(username="dora")
    client = page_client(admin_user)
    pages = []
    for name in ("dora", "nobody"):
        response = client.post(
            f"/clubs/{club.slug}/roles/", {"username": name, "role": "admin"}, follow=True
        )
        assert response.status_code == 200
        messages = [str(m).replace(name, "NAME") for m in response.context["messages"]]
        pages.append(messages)
    assert pages[0] == pages[1]
    assert pages[0] == [
        "Invitation sent to NAME to be admin of the club: it takes effect when they accept it."
    ]
    assert not ClubRole.objects.filter(club=club, role="admin").exclude(user=admin_user).exists()


def test_the_last_admin_cannot_be_removed(club, admin_user):
    role = ClubRole.objects.get(club=club, user=admin_user)
    response = page_client(admin_user).post(
        f"/clubs/{club.slug}/roles/{role.pk}/revoke/", follow=True
    )
    assert "keeps at least one admin" in response.content.decode()
    assert ClubRole.objects.filter(pk=role.pk).exists()


# -- Gem Rummy deck map ---------------------------------------------------------------------


def _deck_text() -> tuple[str, dict[str, Any]]:
    gems = ["ruby", "emerald", "sapphire", "diamond", "pearl", "topaz", "opal", "jade"]
    lines, mapping = [], {}
    for suit in "SHDC":
        for i, rank in enumerate("A23456789TJQK"):
            card = f"{rank}{suit}"
            if rank == "K":
                value: Any = [gems[i % 8], gems[(i + 1) % 8]]
                lines.append(f"{card} {value[0]},{value[1]}")
            else:
                value = gems[i % 8]
                lines.append(f"{card} {value}")
            mapping[card] = value
    return "\n".join(lines), mapping


def test_an_admin_pastes_the_gem_deck_map_and_it_is_stored_in_the_engines_form(club, admin_user):
    text, mapping = _deck_text()
    response = page_client(admin_user).post(f"/clubs/{club.slug}/gem-deck/", {"deck_map": text})
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.gem_deck_map == mapping
    deck = DeckMap.from_mapping(club.gem_deck_map)
    assert len(deck.names) == 8
    page = page_client(admin_user).get(f"/clubs/{club.slug}/edit/").content.decode()
    assert "KS pearl,topaz" in page


def test_a_wrong_deck_map_is_refused_with_the_engines_message(club, admin_user):
    text, _ = _deck_text()
    short = "\n".join(text.splitlines()[:-1])  # no KC
    response = page_client(admin_user).post(f"/clubs/{club.slug}/gem-deck/", {"deck_map": short})
    assert response.status_code == 400
    assert "missing KC" in field_error(response.content.decode(), "id_deck_map")
    bad = text.replace("AS ruby", "1S ruby")
    response = page_client(admin_user).post(f"/clubs/{club.slug}/gem-deck/", {"deck_map": bad})
    assert "Line 1" in field_error(response.content.decode(), "id_deck_map")
    club.refresh_from_db()
    assert club.gem_deck_map == {}
