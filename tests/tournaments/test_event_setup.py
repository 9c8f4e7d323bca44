"""Setting up an event in a minute: the form offers only what applies to the kind, pasted names
are registered, club-night seat menus offer the players checked in, and signing in lands a
director on their clubs and events and a player on their matches."""

from __future__ import annotations

import re

import pytest

from clubs.models import ClubRole, Player
from tests.clubs.factories import ClubFactory, ClubRoleFactory, PlayerFactory, UserFactory
from tests.clubs.helpers import page_client
from tests.tournaments.factories import EventFactory, RegistrationFactory, swiss_event
from tests.tournaments.helpers import event_form_post
from tournaments.models import Event, Registration
from tournaments.services import round_pair

pytestmark = pytest.mark.django_db


def _director(club):
    return ClubRoleFactory(club=club, role=ClubRole.Role.DIRECTOR).user


def _row(html: str, field_id: str) -> str:
    """The ``data-kinds`` wrapper around the field ``field_id``."""
    start = html.index(f'id="{field_id}"')
    return html[html.rindex("<div data-kinds", 0, start) : start]


# -- the event form ----------


def test_new_event_form_shows_only_what_a_swiss_uses():
    club = ClubFactory()
    html = page_client(_director(club)).get(f"/clubs/{club.slug}/events/new/").content.decode()
    assert " hidden>" in _row(html, "id_opt_grand_final_reset")
    assert 'data-kinds="double_elim"' in _row(html, "id_opt_grand_final_reset")
    assert " hidden>" not in _row(html, "id_opt_pair_by")
    assert " hidden>" not in _row(html, "id_rounds_planned")
    assert " hidden>" in _row(html, "id_opt_groups")


def test_a_swiss_stores_no_option_of_another_kind():
    club = ClubFactory()
    client = page_client(_director(club))
    response = client.post(
        f"/clubs/{club.slug}/events/new/",
        event_form_post(opt_grand_final_reset=None, opt_groups="3", opt_double_round_robin="on"),
    )
    assert response.status_code == 302
    event = Event.objects.get(club_id=club.pk)
    assert not {"grand_final_reset", "groups", "double_round_robin"} & set(event.options)
    assert event.rounds_planned == 3


def test_a_check_in_time_that_is_no_time_of_day_is_refused_on_the_form():
    club = ClubFactory()
    client = page_client(_director(club))
    url = f"/clubs/{club.slug}/events/new/"
    refused = client.post(url, event_form_post(opt_pass_checkin_opens="2575"))
    assert refused.status_code == 400
    assert "is a time of day written HHMM, from 0 to 2359" in refused.content.decode()
    assert not Event.objects.filter(club_id=club.pk).exists()
    assert client.post(url, event_form_post(opt_pass_checkin_opens="930")).status_code == 302
    assert Event.objects.get(club_id=club.pk).options["pass_checkin_opens"] == 930


def test_a_double_elimination_keeps_its_grand_final_reset_choice_and_no_rounds():
    club = ClubFactory()
    client = page_client(_director(club))
    client.post(
        f"/clubs/{club.slug}/events/new/",
        event_form_post(kind="double_elim", opt_grand_final_reset=None, rounds_planned="5"),
    )
    event = Event.objects.get(club_id=club.pk)
    assert event.options == {"grand_final_reset": False}
    assert event.rounds_planned is None


def test_a_swiss_settings_page_has_no_grand_final_reset():
    event = swiss_event(2)
    html = page_client(_director(event.club)).get(f"/events/{event.pk}/settings/").content
    text = html.decode()
    assert "Grand final reset" not in text
    assert "id_opt_pair_by" in text
    night = EventFactory(kind=Event.Kind.CLUB_NIGHT, club=event.club)
    night_page = page_client(_director(night.club)).get(f"/events/{night.pk}/settings/").content
    assert b"id_rounds_planned" not in night_page
    assert b"id_opt_registered_only" in night_page


# -- registering pasted names ----------


def test_pasted_names_are_registered_and_new_ones_join_the_club():
    event = swiss_event(1, player_name="Ann")
    PlayerFactory(club=event.club, name="Bao")
    client = page_client(_director(event.club))
    response = client.post(
        f"/events/{event.pk}/registrations/paste/",
        {"paste-names": "Bao\nann\n\nCleo\nBao", "paste-checked_in": "on"},
        follow=True,
    )
    html = response.content.decode()
    assert "2 players registered and checked in." in html
    assert "Already registered: Ann." in html
    regs = Registration.objects.filter(event=event).select_related("player")
    assert sorted((r.player.name, r.status) for r in regs) == [
        ("Ann", "checked_in"),
        ("Bao", "checked_in"),
        ("Cleo", "checked_in"),
    ]
    assert Player.objects.filter(club=event.club, name="Cleo").exists()


def test_pasting_into_a_drawn_bracket_stores_nothing():
    event = EventFactory(kind=Event.Kind.SINGLE_ELIMINATION, confirmation="none")
    for _ in range(2):
        RegistrationFactory(event=event, status=Registration.Status.CHECKED_IN)
    round_pair(event=event)
    client = page_client(_director(event.club))
    client.post(f"/events/{event.pk}/registrations/paste/", {"paste-names": "Newcomer"})
    assert not Player.objects.filter(name="Newcomer").exists()
    assert Registration.objects.filter(event_id=event.pk).count() == 2


def test_api_paste_registers_and_reports_the_skipped(director_api, club):
    event = EventFactory(club=club, kind=Event.Kind.SWISS, status=Event.Status.REGISTRATION)
    url = f"/api/events/{event.pk}/registrations/paste/"
    first = director_api.post(url, {"names": ["Dee", "Eve"], "checked_in": True}, format="json")
    assert first.status_code == 201, first.json()
    assert [r["player"]["name"] for r in first.json()["registered"]] == ["Dee", "Eve"]
    again = director_api.post(url, {"names": ["Eve", "Fay"]}, format="json").json()
    assert [r["player"]["name"] for r in again["registered"]] == ["Fay"]
    assert again["skipped"] == ["Eve"]
    assert director_api.post(url, {"names": [" "]}, format="json").status_code == 400


# -- club-night seat menus ----------


def test_club_night_seat_menus_offer_the_players_checked_in():
    event = EventFactory(kind=Event.Kind.CLUB_NIGHT)
    for name in ("Absent", "Elsewhere"):
        PlayerFactory(club=event.club, name=name)
    RegistrationFactory(event=event, player__name="Here", status=Registration.Status.CHECKED_IN)
    RegistrationFactory(event=event, player__name="Late", status=Registration.Status.REGISTERED)
    html = page_client(_director(event.club)).get(f"/events/{event.pk}/").content.decode()
    menu = re.search(r'<select name="seat_1".*?</select>', html, re.S)
    assert menu is not None
    assert "Here" in menu[0]
    assert "Late" not in menu[0]
    assert "Absent" not in menu[0]


def test_an_empty_room_says_to_check_players_in():
    event = EventFactory(kind=Event.Kind.CLUB_NIGHT)
    PlayerFactory(club=event.club)
    html = page_client(_director(event.club)).get(f"/events/{event.pk}/").content.decode()
    assert 'id="start-needs-checkin"' in html


def test_seat_menus_mark_players_still_playing_and_offer_a_free_table():
    event = EventFactory(kind=Event.Kind.CLUB_NIGHT)
    here = [
        RegistrationFactory(
            event=event, player__name=name, status=Registration.Status.CHECKED_IN
        ).player
        for name in ("Ann", "Bob", "Cy")
    ]
    client = page_client(_director(event.club))
    started = client.post(
        f"/events/{event.pk}/matches/",
        {"seat_1": here[0].pk, "seat_2": here[1].pk, "table_number": "1"},
    )
    assert started.status_code == 302
    html = client.get(f"/events/{event.pk}/").content.decode()
    menu = re.search(r'<select name="seat_1".*?</select>', html, re.S)
    assert menu is not None
    assert f'<option value="{here[0].pk}">Ann · at table 1</option>' in menu[0]
    assert f'<option value="{here[2].pk}">Cy</option>' in menu[0]
    table = re.search(r'<input[^>]*name="table_number"[^>]*>', html)
    assert table is not None
    assert 'value="2"' in table[0]
    # Seated again (her last hand may only wait for its confirmation): said, not refused.
    again = client.post(
        f"/events/{event.pk}/matches/",
        {"seat_1": here[2].pk, "seat_2": here[0].pk, "table_number": "2"},
        follow=True,
    ).content.decode()
    assert "Ann is also at table 1, which has not finished" in again
    assert event.matches.count() == 2


# -- where signing in lands ----------


def test_a_director_signs_in_to_their_clubs_and_events():
    club = ClubFactory(name="Knock Club")
    user = UserFactory(username="dir")
    user.set_password("pw-12345-xyz")
    user.save()
    ClubRoleFactory(club=club, user=user, role=ClubRole.Role.DIRECTOR)
    event = EventFactory(club=club, name="Friday Swiss", kind=Event.Kind.SWISS)
    client = page_client()
    response = client.post("/accounts/login/", {"username": "dir", "password": "pw-12345-xyz"})
    assert response.status_code == 302
    assert response["Location"] == "/me/"
    html = client.get("/me/").content.decode()
    assert "Knock Club" in html
    assert "Friday Swiss" in html
    assert f"/events/{event.pk}/console/" in html
    # Asked for on the way somewhere else, sign-in goes there instead.
    other = page_client()
    response = other.post(
        "/accounts/login/?next=/clubs/",
        {"username": "dir", "password": "pw-12345-xyz", "next": "/clubs/"},
    )
    assert response["Location"] == "/clubs/"


def test_a_player_lands_on_their_matches():
    event = swiss_event(2, player_name="Pat{}")
    user = UserFactory()
    Player.objects.filter(name="Pat1").update(user=user)
    round_pair(event=event)
    html = page_client(user).get("/me/").content.decode()
    assert "My matches" in html
    assert "Pat2" in html
    assert "Events I direct" not in html


def test_the_dashboard_needs_sign_in():
    response = page_client().get("/me/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_api_me_lists_clubs_events_and_matches(api):
    event = swiss_event(2, player_name="Pat{}")
    director = _director(event.club)
    round_pair(event=event)
    assert api.get("/api/me/").status_code == 403
    api.force_authenticate(director)
    body = api.get("/api/me/").json()
    assert body["clubs"] == [
        {"id": event.club.pk, "name": event.club.name, "slug": event.club.slug, "role": "director"}
    ]
    assert [(e["id"], e["open_tables"]) for e in body["events"]] == [(event.pk, 1)]
    assert body["matches"] == []
    player_user = UserFactory()
    Player.objects.filter(name="Pat2").update(user=player_user)
    api.force_authenticate(player_user)
    body = api.get("/api/me/").json()
    assert body["clubs"] == []
    assert body["events"] == []
    assert [(m["opponents"], m["result"]) for m in body["matches"]] == [(["Pat1"], "playing")]
