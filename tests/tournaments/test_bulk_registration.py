"""A director's first day: registering and checking in many players at once (signing up is
tests/clubs/test_auth.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from clubs.models import Club, Player
from core.errors import ApplicationError
from engine.rules import find_rules
from tests.clubs.factories import ClubFactory, ClubRoleFactory, PlayerFactory, UserFactory
from tests.clubs.helpers import page_client
from tests.tournaments.factories import EventFactory, RegistrationFactory
from tournaments.models import Event, Registration
from tournaments.services import round_pair
from tournaments.services.events import registrations_checkin_all, registrations_create_many

pytestmark = pytest.mark.django_db

User = get_user_model()
STRONG = "gin-rummy-Knock-77"


def _api(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _signup(client: Client, **overrides: str) -> Any:
    data = {"username": "mina", "email": "", "password1": STRONG, "password2": STRONG}
    return client.post("/accounts/signup/", {**data, **overrides})


def _post(client: Client, url: str, data: dict[str, Any] | None = None) -> list[str]:
    """Do a page action; the messages shown on the page it redirects to (and used up there)."""
    r = client.post(url, data or {})
    assert r.status_code == 302, r.status_code
    page = client.get(r["Location"])
    return [str(m) for m in page.context["messages"]]


# -- registering and checking in many players: the event page ---------------------------------


def _names(event: Event, status: str | None = None) -> set[str]:
    rows = Registration.objects.filter(event=event)
    if status:
        rows = rows.filter(status=status)
    return set(rows.values_list("player__name", flat=True))


def _night(club: Club) -> Event:
    return Event.objects.get(pk=EventFactory(club=club, kind=Event.Kind.CLUB_NIGHT).pk)


def _swiss(club: Club) -> Event:
    made = EventFactory(
        club=club,
        kind=Event.Kind.SWISS,
        status=Event.Status.REGISTRATION,
        rules=find_rules("classic").to_dict(),
    )
    return Event.objects.get(pk=made.pk)


def _players(club: Club, *names: str) -> list[Player]:
    return [Player.objects.create(club=club, name=n) for n in names]


def test_the_event_page_offers_the_unregistered_players_as_a_checklist(club, director):
    event = _night(club)
    ann, ben, cleo = _players(club, "Ann", "Ben", "Cleo")
    RegistrationFactory(event=event, player=ann)
    html = page_client(director).get(f"/events/{event.pk}/").content.decode()
    checklist = html[html.index('id="register-players"') :]
    checklist = checklist[: checklist.index("</form>")]
    assert re.findall(r'name="bulk-players" value="(\d+)"', checklist) == [
        str(ben.pk),
        str(cleo.pk),
    ]
    assert 'data-check-all="bulk-players"' in checklist  # "Select all", shown by knock.js
    assert "Check them in now" in checklist
    assert f'action="/events/{event.pk}/registrations/checkin-all/"' in html
    # CSP allows no inline script: every script on the page is a file.
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)


def test_a_director_registers_several_players_and_checks_them_in_at_once(club, director):
    event = _night(club)
    ann, ben, cleo, dan = _players(club, "Ann", "Ben", "Cleo", "Dan")
    client = page_client(director)
    url = f"/events/{event.pk}/registrations/bulk/"
    r = client.post(url, {"bulk-players": [ann.pk, ben.pk], "bulk-checked_in": "on"})
    assert r.status_code == 302
    assert r["Location"] == f"/events/{event.pk}/#registrations"
    assert [str(m) for m in client.get(r["Location"]).context["messages"]] == [
        "2 players registered and checked in."
    ]
    assert _names(event, "checked_in") == {"Ann", "Ben"}
    assert _post(client, url, {"bulk-players": [cleo.pk, dan.pk]}) == ["2 players registered."]
    assert _names(event, "registered") == {"Cleo", "Dan"}
    html = client.get(f"/events/{event.pk}/").content.decode()
    assert 'id="register-players"' not in html  # everybody is registered
    assert "2 players waiting" in html

    checkin_all = f"/events/{event.pk}/registrations/checkin-all/"
    assert _post(client, checkin_all) == ["2 players checked in."]
    assert _names(event, "checked_in") == {"Ann", "Ben", "Cleo", "Dan"}
    assert _post(client, checkin_all) == ["Everyone registered is already checked in."]
    assert "Check in all registered" not in client.get(f"/events/{event.pk}/").content.decode()


def test_a_bulk_registration_is_all_or_nothing_and_names_the_player(club, director):
    event = _night(club)
    ann, ben = _players(club, "Ann", "Ben")
    RegistrationFactory(event=event, player=ben)
    outsider = PlayerFactory(club=ClubFactory(), name="Vera")
    client = page_client(director)
    url = f"/events/{event.pk}/registrations/bulk/"
    shown = _post(client, url, {"bulk-players": [ann.pk, outsider.pk]})
    assert "Select a valid choice" in shown[0]  # only the club's players are offered
    assert _post(client, url, {}) == ["Tick at least one player."]
    with pytest.raises(ApplicationError) as info:
        registrations_create_many(event=event, players=[ann, ben])
    assert info.value.message == "Ben is already registered."
    assert info.value.field == "players"
    assert info.value.extra == {"player": ben.pk}
    assert _names(event) == {"Ben"}  # Ann's registration was rolled back with it


def test_late_entry_rules_apply_to_each_player(club, director):
    swiss = _swiss(club)
    early = _players(club, "A1", "A2", "A3", "A4")
    registrations_create_many(event=swiss, players=early, checked_in=True)
    round_pair(event=swiss, user=director)
    late = _players(club, "Late1", "Late2")
    done = registrations_create_many(event=swiss, players=[*late, late[0]], checked_in=True)
    assert [(r.player.name, r.joined_round) for r in done] == [("Late1", 2), ("Late2", 2)]

    robin = _swiss(club)
    Event.objects.filter(pk=robin.pk).update(kind=Event.Kind.ROUND_ROBIN)
    robin.refresh_from_db()
    registrations_create_many(event=robin, players=early, checked_in=True)
    round_pair(event=robin, user=director)
    url = f"/events/{robin.pk}/registrations/bulk/"
    assert _post(page_client(director), url, {"bulk-players": [late[0].pk]}) == [
        "Late1: This event's draw is made; it takes no late entries."
    ]
    assert not Registration.objects.filter(event=robin, player=late[0]).exists()


def test_checking_in_all_leaves_dropped_players_out_and_a_finished_event_alone(club):
    event = _night(club)
    waiting = RegistrationFactory(event=event)
    dropped = RegistrationFactory(event=event, status=Registration.Status.DROPPED)
    assert [r.pk for r in registrations_checkin_all(event=event)] == [waiting.pk]
    dropped.refresh_from_db()
    assert dropped.status == Registration.Status.DROPPED
    RegistrationFactory(event=event)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    with pytest.raises(ApplicationError) as info:
        registrations_checkin_all(event=event)
    assert info.value.status == 409


def test_only_the_events_directors_register_and_check_in_many(club, admin_user):
    event = _night(club)
    ann = PlayerFactory(club=club, name="Ann")
    RegistrationFactory(event=event, player=PlayerFactory(club=club, name="Ben"))
    other_director = ClubRoleFactory(club=ClubFactory(), role="director").user
    for client in (page_client(), page_client(UserFactory()), page_client(other_director)):
        r = client.post(f"/events/{event.pk}/registrations/bulk/", {"bulk-players": [ann.pk]})
        assert r.status_code == 404
        assert client.post(f"/events/{event.pk}/registrations/checkin-all/").status_code == 404
        assert client.get(f"/events/{event.pk}/registrations/bulk/").status_code in (404, 405)
    assert _names(event) == {"Ben"}
    assert _names(event, "checked_in") == set()
    r = page_client(admin_user).post(
        f"/events/{event.pk}/registrations/bulk/", {"bulk-players": [ann.pk]}
    )
    assert _names(event) == {"Ann", "Ben"}
    assert (
        page_client(admin_user).get(f"/events/{event.pk}/registrations/checkin-all/").status_code
        == 405
    )


# -- the API counterpart ------------------------------------------------------------------------


def test_the_api_registers_several_players_and_checks_everyone_in(club, director):
    event = _night(club)
    ann, ben, cleo = _players(club, "Ann", "Ben", "Cleo")
    url = f"/api/events/{event.pk}/registrations/bulk/"
    r = _api(director).post(url, {"players": [ann.pk, ben.pk, ann.pk]}, format="json")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert [row["player"]["name"] for row in body] == ["Ann", "Ben"]
    assert {row["status"] for row in body} == {"registered"}
    assert all(row["checkin_token"] for row in body)
    r = _api(director).post(url, {"players": [cleo.pk], "checked_in": True}, format="json")
    assert r.json()[0]["status"] == "checked_in"

    r = _api(director).post(f"/api/events/{event.pk}/registrations/checkin-all/")
    assert r.status_code == 200
    assert sorted(row["player"]["name"] for row in r.json()) == ["Ann", "Ben"]
    assert _names(event, "checked_in") == {"Ann", "Ben", "Cleo"}
    r = _api(director).post(f"/api/events/{event.pk}/registrations/checkin-all/")
    assert r.json() == []


def test_api_bulk_errors_name_the_player_and_change_nothing(club, director):
    event = _night(club)
    ann, ben = _players(club, "Ann", "Ben")
    RegistrationFactory(event=event, player=ben)
    outsider = PlayerFactory(club=ClubFactory(), name="Vera")
    client, url = _api(director), f"/api/events/{event.pk}/registrations/bulk/"
    r = client.post(url, {"players": [ann.pk, ben.pk]}, format="json")
    assert r.status_code == 409
    assert r.json() == {
        "detail": "Ben is already registered.",
        "field": "players",
        "player": ben.pk,
    }
    r = client.post(url, {"players": [ann.pk, outsider.pk]}, format="json")
    assert r.status_code == 400
    assert r.json()["detail"].startswith(f"Vera is not on {club.name}'s player list")
    assert r.json()["player"] == outsider.pk
    r = client.post(url, {"players": [ann.pk, 999999]}, format="json")
    assert r.status_code == 404
    assert r.json() == {"detail": "No player has the id 999999.", "field": "players"}
    bad: list[dict[str, Any]] = [{}, {"players": []}, {"players": "Ann"}, {"players": ["x"]}]
    for body in bad:
        r = client.post(url, body, format="json")
        assert r.status_code == 400, body
        assert "players" in r.json(), r.json()
    assert _names(event) == {"Ben"}


def test_only_directors_use_the_bulk_endpoints(club, stranger):
    event = _night(club)
    ann = PlayerFactory(club=club)
    RegistrationFactory(event=event)
    other_director = ClubRoleFactory(club=ClubFactory(), role="director").user
    bulk = f"/api/events/{event.pk}/registrations/bulk/"
    checkin = f"/api/events/{event.pk}/registrations/checkin-all/"
    for user in (stranger, other_director):
        assert _api(user).post(bulk, {"players": [ann.pk]}, format="json").status_code == 403
        assert _api(user).post(checkin).status_code == 403
    assert _api().post(bulk, {"players": [ann.pk]}, format="json").status_code in (401, 403)
    assert _api().post(checkin).status_code in (401, 403)
    assert Registration.objects.filter(event=event).count() == 1
    assert not Registration.objects.filter(event=event, status="checked_in").exists()


def test_a_drawn_round_robin_offers_no_registration_forms_but_says_why(club, director):
    """Once a round robin's first round is paired it takes no late entries: the page says so
    instead of offering forms whose every submission would be refused."""
    event = EventFactory(club=club, kind=Event.Kind.ROUND_ROBIN, status=Event.Status.REGISTRATION)
    for name in ("Ann", "Ben", "Cleo", "Dan"):
        RegistrationFactory(
            event=event,
            player=PlayerFactory(club=club, name=name),
            status=Registration.Status.CHECKED_IN,
        )
    PlayerFactory(club=club, name="Late")
    client = page_client(director)
    html = client.get(f"/events/{event.pk}/").content.decode()
    assert 'id="register-players"' in html
    assert 'id="no-late-entries"' not in html
    round_pair(event=event)
    html = client.get(f"/events/{event.pk}/").content.decode()
    for form in ('id="register-players"', 'id="paste-players"', 'id="id_reg_player"'):
        assert form not in html
    assert "takes no late entries" in html
    with translation.override("ko"):
        html = client.get(f"/events/{event.pk}/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "takes no late entries" not in html


def test_a_finished_event_offers_no_drop_buttons(club, director):
    """Dropping a player from a finished event is refused, so its page offers no "Drop"."""
    event = _night(club)
    (ann,) = _players(club, "Ann")
    reg = RegistrationFactory(event=event, player=ann, status=Registration.Status.CHECKED_IN)
    client = page_client(director)
    drop = f'action="/events/{event.pk}/registrations/{reg.pk}/drop/"'
    assert drop in client.get(f"/events/{event.pk}/").content.decode()
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    html = client.get(f"/events/{event.pk}/").content.decode()
    assert "Ann" in html[html.index('id="registrations"') :]
    assert drop not in html
