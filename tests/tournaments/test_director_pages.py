"""Director pages through the test client: creating and editing events (a club's own pages,
its players and roles: tests/clubs/test_club_pages.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from clubs.models import Club, Player
from core.errors import ApplicationError
from engine.rules import find_rules
from scoring.models import Match
from tests.clubs.factories import PlayerFactory, UserFactory
from tests.clubs.helpers import field_error, page_client
from tests.tournaments.factories import EventFactory, RegistrationFactory
from tests.tournaments.helpers import event_form_post
from tournaments.models import Event, Registration
from tournaments.services import event_create, round_pair
from tournaments.services.edits import event_update

pytestmark = pytest.mark.django_db


# -- permissions --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/clubs/{slug}/events/new/",
        "/events/{event}/settings/",
    ],
)
def test_signed_out_visitors_are_sent_to_sign_in(url):
    event = EventFactory()
    path = url.format(slug=event.club.slug, event=event.pk)
    response = Client().get(path)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.parametrize(
    ("url", "method"),
    [
        ("/clubs/{slug}/events/new/", "get"),
        ("/clubs/{slug}/events/new/", "post"),
        ("/events/{event}/settings/", "get"),
        ("/events/{event}/settings/", "post"),
    ],
)
def test_signed_in_strangers_get_403(url, method):
    event = EventFactory()
    path = url.format(slug=event.club.slug, event=event.pk)
    response = getattr(page_client(UserFactory()), method)(path, {"add-name": "Zed"})
    assert response.status_code == 403
    assert "Not allowed" in response.content.decode()
    assert not Player.objects.filter(name="Zed").exists()


def test_a_director_runs_players_and_events_but_not_the_club_or_roles(club, director):
    client = page_client(director)
    assert client.get(f"/clubs/{club.slug}/players/").status_code == 200
    assert client.get(f"/clubs/{club.slug}/events/new/").status_code == 200
    assert client.get(f"/clubs/{club.slug}/edit/").status_code == 403
    assert client.get(f"/clubs/{club.slug}/roles/").status_code == 403


def test_an_events_own_director_may_change_its_settings():
    event = EventFactory(status=Event.Status.REGISTRATION)
    user: Any = UserFactory()
    event.directors.add(user)
    assert page_client(user).get(f"/events/{event.pk}/settings/").status_code == 200


# -- the club page (it lists events) ----------------------------------------------------------


def test_the_club_page_links_to_knocks_own_pages_not_the_admin(club, admin_user):
    html = page_client(admin_user).get(f"/clubs/{club.slug}/").content.decode()
    assert "/admin/" not in html
    for url in ("edit/", "players/", "roles/", "events/new/"):
        assert f'href="/clubs/{club.slug}/{url}"' in html


# -- events ---------------------------------------------------------------------------------


def test_creating_an_event_with_a_preset_an_override_and_a_tiebreak_order(club, director):
    response = page_client(director).post(
        f"/clubs/{club.slug}/events/new/",
        event_form_post(
            r_target="150",
            tb_game_points="on",
            tbo_game_points="2",
            tb_buchholz="on",
            tbo_buchholz="1",
            opt_bye_points="0.5",
            opt_forbid_family="hard",
        ),
    )
    event = Event.objects.get(name="Spring Swiss")
    assert response.status_code == 302
    assert response["Location"] == f"/events/{event.pk}/"
    assert event.rules == find_rules("classic", target=150).to_dict()
    assert event.kind == "swiss"
    assert event.tiebreaks == ["buchholz", "game_points", "lots"]
    assert event.options == {"bye_points": 0.5, "forbid_family": "hard"}
    assert event.rounds_planned == 3
    assert event.match_format == {"kind": "single_game"}
    assert event.directors.filter(pk=director.pk).exists()


def test_no_tiebreak_ticked_keeps_the_usual_order(club, director):
    page_client(director).post(f"/clubs/{club.slug}/events/new/", event_form_post())
    assert Event.objects.get(name="Spring Swiss").tiebreaks == []


def test_a_rule_error_is_shown_at_the_parameter_it_names(club, director):
    response = page_client(director).post(
        f"/clubs/{club.slug}/events/new/", event_form_post(r_knock_limit="dice")
    )
    assert response.status_code == 400
    assert "Gem Rummy" in field_error(response.content.decode(), "id_r_knock_limit")
    response = page_client(director).post(
        f"/clubs/{club.slug}/events/new/", event_form_post(r_spade_doubles="on")
    )
    assert "upcard" in field_error(response.content.decode(), "id_r_spade_doubles")
    assert not Event.objects.exists()


def test_a_match_format_error_is_shown_at_the_format(club, director):
    response = page_client(director).post(
        f"/clubs/{club.slug}/events/new/", event_form_post(fmt_kind="best_of", fmt_games="4")
    )
    assert response.status_code == 400
    assert "odd number" in field_error(response.content.decode(), "id_fmt_games")
    response = page_client(director).post(
        f"/clubs/{club.slug}/events/new/", event_form_post(fmt_kind="hollywood")
    )
    assert "Hollywood" in field_error(response.content.decode(), "id_fmt_kind")


def test_loading_a_preset_without_script_keeps_the_other_fields(club, director):
    response = page_client(director).post(
        f"/clubs/{club.slug}/events/new/",
        event_form_post(preset="oklahoma", load_preset="1", name="Okie night"),
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="Okie night"' in html
    assert re.search(r'name="r_knock_limit"[^>]*value="upcard"', html)
    assert re.search(r'name="r_target"[^>]*value="150"', html)
    assert not Event.objects.exists()


def test_a_korean_director_types_the_knock_limit_in_korean(club, director):
    client = page_client(director)
    response = client.post(
        f"/clubs/{club.slug}/events/new/",
        event_form_post(preset="oklahoma", load_preset="1", name="Okie night"),
        HTTP_ACCEPT_LANGUAGE="ko",
    )
    html = response.content.decode()
    assert re.search(r'name="r_knock_limit"[^>]*value="업카드"', html)
    assert '<option value="oklahoma" selected>오클라호마</option>' in html
    post = event_form_post(name="Okie night", r_knock_limit="업카드")
    response = client.post(f"/clubs/{club.slug}/events/new/", post, HTTP_ACCEPT_LANGUAGE="ko")
    event = Event.objects.filter(name="Okie night").first()
    assert event is not None, response.content.decode()[:2000]
    assert event.rules["knock_limit"] == "upcard"


def test_the_rules_fragment_gives_a_presets_values():
    html = Client().get("/events/rules-fields/?preset=hollywood").content.decode()
    assert re.search(r'name="r_hollywood_games"[^>]*value="3"', html)
    assert re.search(r'<option value="hollywood" selected>', html)
    assert Client().get("/events/rules-fields/?preset=canasta").status_code == 404


def test_a_club_night_can_belong_to_a_league(club, director):
    league = event_create(club_id=club.pk, name="Winter league", kind="league")
    page_client(director).post(
        f"/clubs/{club.slug}/events/new/",
        event_form_post(name="Night 1", kind="club_night", league=str(league.pk)),
    )
    assert Event.objects.get(name="Night 1").league == league


def test_a_tournament_can_count_towards_a_league_as_through_the_api(club, director):
    league = event_create(club_id=club.pk, name="Season", kind="league")
    page_client(director).post(
        f"/clubs/{club.slug}/events/new/",
        event_form_post(name="Spring Swiss", kind="swiss", league=str(league.pk)),
    )
    assert Event.objects.get(name="Spring Swiss").league == league


# -- event settings -------------------------------------------------------------------------


def _swiss_with_players(club: Club, n: int = 4) -> Event:
    event = event_create(
        club_id=club.pk, name="Spring Swiss", kind="swiss", rules="classic", rounds_planned=3
    )
    for i in range(n):
        RegistrationFactory(
            event=event,
            player=PlayerFactory(club=club, name=f"P{i + 1}"),
            status=Registration.Status.CHECKED_IN,
        )
    return event


def test_settings_change_before_play(club, director):
    event = _swiss_with_players(club)
    response = page_client(director).post(
        f"/events/{event.pk}/settings/",
        event_form_post(name="Renamed Swiss", r_target="200", rounds_planned="4", kind=None),
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.name == "Renamed Swiss"
    assert event.rules["target"] == 200
    assert event.rounds_planned == 4


def test_rule_changes_are_refused_once_play_has_started(club, director):
    event = _swiss_with_players(club)
    round_pair(event=event)
    assert Match.objects.filter(event=event).exists()
    client = page_client(director)
    page = client.get(f"/events/{event.pk}/settings/").content.decode()
    assert "Play has started" in page
    assert re.search(r'name="r_target"[^>]*disabled', page)
    # A hand-made post that changes the rules anyway is refused by the service.
    with pytest.raises(ApplicationError, match="Play has started"):
        event_update(
            event=event,
            name=event.name,
            starts_on=None,
            rules=find_rules("classic", target=150).to_dict(),
            match_format=event.match_format,
            confirmation=event.confirmation,
            rounds_planned=3,
            tiebreaks=[],
            options={},
        )
    # The other settings still change (the disabled rule fields keep their values).
    response = client.post(
        f"/events/{event.pk}/settings/",
        event_form_post(name="Still Swiss", kind=None, r_target="150", tb_gins="on", tbo_gins="1"),
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.name == "Still Swiss"
    assert event.rules == find_rules("classic").to_dict()
    assert event.tiebreaks == ["gins", "lots"]


def test_the_event_page_shows_the_rules(club):
    event = event_create(
        club_id=club.pk, name="Okie", kind="swiss", rules=find_rules("oklahoma").to_dict()
    )
    html = Client().get(f"/events/{event.pk}/").content.decode()
    assert "Oklahoma · target 150 · knock limit set by the upcard" in html
    korean = Client().get(f"/events/{event.pk}/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "규칙: 오클라호마 · 목표" in korean
    assert "노크 한도 업카드로 정함" in korean


def test_the_event_page_links_to_its_settings_for_directors_only(club, director):
    event = _swiss_with_players(club)
    assert (
        f"/events/{event.pk}/settings/"
        in page_client(director).get(f"/events/{event.pk}/").content.decode()
    )
    assert (
        f"/events/{event.pk}/settings/" not in Client().get(f"/events/{event.pk}/").content.decode()
    )
