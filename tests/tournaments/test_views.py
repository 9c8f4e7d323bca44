"""Club, event and player pages through Django's test client (signing in is
tests/clubs/test_auth.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from clubs.models import ClubRole
from engine.rules import find_rules
from scoring.models import Match
from scoring.permissions import Actor
from scoring.services import entry_from_dict, hand_submit
from tests.clubs.factories import ClubFactory, ClubRoleFactory, PlayerFactory, UserFactory
from tests.clubs.helpers import page_client
from tests.tournaments.factories import EventFactory, RegistrationFactory, swiss_event
from tournaments.models import Event, Registration, Round
from tournaments.selectors.terms import event_terms
from tournaments.services import round_pair, standings_recompute

pytestmark = pytest.mark.django_db

ONE_HAND = find_rules("standard", target=None).to_dict()


def _director(club: Any) -> Any:
    return ClubRoleFactory(club=club, role=ClubRole.Role.DIRECTOR).user


def _swiss(n: int = 4, **kwargs: Any) -> Any:
    return swiss_event(n, rules=ONE_HAND, **kwargs)


def _win(match: Match, winner_seat: int = 0) -> None:
    """Play a one-hand match to the end through the scoring service (a director's entry)."""
    director = UserFactory(username=f"dir-{match.pk}")
    match.event.directors.add(director)
    hand_submit(
        match=match,
        actor=Actor(user=director),
        entry=entry_from_dict(
            {
                "knocker": winner_seat,
                "outcome": "knock",
                "knocker_deadwood": 3,
                "defender_deadwood": 20,
            }
        ),
    )


def test_home_feed_lists_clubs_and_running_events():
    event = EventFactory(name="Tuesday night", status=Event.Status.RUNNING)
    html = Client().get("/home/feed/").content.decode()
    assert "Tuesday night" in html
    assert event.club.name in html
    assert Client().get("/clubs/").status_code == 200


def test_club_page_lists_events_and_players_and_hides_management():
    club = ClubFactory(name="Seoul Gin")
    EventFactory(
        club=club, name="Spring Swiss", kind=Event.Kind.SWISS, status=Event.Status.REGISTRATION
    )
    EventFactory(club=club, name="Old night", status=Event.Status.FINISHED)
    PlayerFactory(club=club, name="Minji")
    html = Client().get(f"/clubs/{club.slug}/").content.decode()
    assert "Spring Swiss" in html
    assert "Old night" in html
    assert "Minji" in html
    assert "Edit club" not in html
    admin = ClubRoleFactory(club=club, role=ClubRole.Role.ADMIN).user
    assert "Edit club" in page_client(admin).get(f"/clubs/{club.slug}/").content.decode()


def test_unknown_club_and_event_are_404():
    assert Client().get("/clubs/nope/").status_code == 404
    assert Client().get("/events/99999/").status_code == 404


def test_standings_say_updating_until_rebuilt():
    event = _swiss()
    round_pair(event=event)
    match = Match.objects.filter(event=event, decision="played").first()
    assert match is not None
    _win(match)
    event.refresh_from_db()
    assert event.standings_stale
    html = Client().get(f"/events/{event.pk}/").content.decode()
    assert "Updating…" in html
    assert f'data-live-version-url="/api/events/{event.pk}/version/"' in html  # live.js polls
    standings_recompute(event=event)
    fragment = Client().get(f"/events/{event.pk}/standings/").content.decode()
    assert "Updating" not in fragment
    assert re.search(r"Updated \d\d:\d\d</time>", fragment)
    assert "every 3s" not in fragment
    assert "Buch. cut 1" in fragment  # the event's tie-breaks, in its order


def test_spectator_sees_pairings_but_no_director_tools():
    event = _swiss()
    round_pair(event=event)
    html = Client().get(f"/events/{event.pk}/").content.decode()
    assert "Table 1" in html
    assert "Table 2" in html
    assert "Pair next round" not in html
    assert "Registrations" not in html
    reg = Registration.objects.filter(event=event).first()
    assert reg is not None
    assert Client().post(f"/events/{event.pk}/registrations/{reg.pk}/drop/").status_code == 404


def test_director_pairs_a_round_and_sees_tables():
    event = _swiss()
    client = page_client(_director(event.club))
    html = client.get(f"/events/{event.pk}/").content.decode()
    assert "Pair next round" in html
    response = client.post(f"/events/{event.pk}/pair/", follow=True)
    html = response.content.decode()
    assert "Round 1 is paired." in html
    assert "Table 1" in html
    assert "Table 2" in html
    assert Round.objects.get(event=event).status == Round.Status.PAIRED


def test_pairing_error_is_shown():
    event = _swiss(n=1)
    client = page_client(_director(event.club))
    html = client.post(f"/events/{event.pk}/pair/", follow=True).content.decode()
    assert "At least two checked-in players" in html


def test_director_checks_in_and_drops():
    event = EventFactory(kind=Event.Kind.SWISS, status=Event.Status.REGISTRATION)
    reg = RegistrationFactory(event=event)
    client = page_client(_director(event.club))
    html = client.get(f"/events/{event.pk}/").content.decode()
    assert "Check in" in html
    client.post(f"/events/{event.pk}/registrations/{reg.pk}/checkin/")
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN
    client.post(f"/events/{event.pk}/registrations/{reg.pk}/drop/")
    reg.refresh_from_db()
    assert reg.status == Registration.Status.DROPPED


def test_director_registers_and_forbids_a_pairing():
    event = EventFactory(kind=Event.Kind.SWISS, status=Event.Status.REGISTRATION)
    a, b = PlayerFactory(club=event.club, name="Ann"), PlayerFactory(club=event.club, name="Ben")
    client = page_client(_director(event.club))
    client.post(f"/events/{event.pk}/registrations/", {"player": a.pk, "checked_in": "on"})
    client.post(f"/events/{event.pk}/registrations/", {"player": b.pk})
    assert Registration.objects.filter(event_id=event.pk).count() == 2
    html = client.post(
        f"/events/{event.pk}/forbidden/",
        {"player_a": a.pk, "player_b": b.pk, "hard": "on"},
        follow=True,
    ).content.decode()
    assert "Ann × Ben" in html


def test_director_starts_a_club_night_match():
    event = EventFactory(kind=Event.Kind.CLUB_NIGHT)
    a, b = PlayerFactory(club=event.club), PlayerFactory(club=event.club)
    client = page_client(_director(event.club))
    assert "Start a match" in client.get(f"/events/{event.pk}/").content.decode()
    response = client.post(
        f"/events/{event.pk}/matches/", {"seat_1": a.pk, "seat_2": b.pk, "table_number": "4"}
    )
    match = Match.objects.get(event_id=event.pk)
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.pk}/"
    assert match.table_number == 4
    html = Client().get(f"/events/{event.pk}/").content.decode()
    assert "Table 4" in html


def test_same_player_twice_is_refused():
    event = EventFactory(kind=Event.Kind.CLUB_NIGHT)
    a = PlayerFactory(club=event.club)
    client = page_client(_director(event.club))
    html = client.post(
        f"/events/{event.pk}/matches/", {"seat_1": a.pk, "seat_2": a.pk}, follow=True
    ).content.decode()
    assert "only one seat" in html
    assert not Match.objects.exists()


def test_bracket_shows_rounds_as_columns():
    event = EventFactory(
        kind=Event.Kind.SINGLE_ELIMINATION,
        rules=ONE_HAND,
        confirmation="none",
        status=Event.Status.REGISTRATION,
    )
    for i in range(4):
        RegistrationFactory(
            event=event,
            player=PlayerFactory(club=event.club, name=f"S{i + 1}"),
            status=Registration.Status.CHECKED_IN,
            seed=i + 1,
        )
    round_pair(event=event)
    for match in Match.objects.filter(event_id=event.pk):
        _win(match)
    html = Client().get(f"/events/{event.pk}/").content.decode()
    assert 'class="bk"' in html
    assert "Final" in html
    assert "Semi-final" in html
    assert html.count('class="bk-col"') == 2
    # each semi-final joined to the final: a half line in each column
    assert html.count('class="bk-line"') == 4


def test_player_page_lists_matches_and_ratings():
    event = EventFactory(kind=Event.Kind.CLUB_NIGHT, rules=ONE_HAND, confirmation="none")
    a, b = PlayerFactory(club=event.club, name="Ann"), PlayerFactory(club=event.club, name="Ben")
    from scoring.services import match_start

    director = _director(event.club)
    match = match_start(
        actor=Actor(user=director), event=event_terms(event=event), players=[a.pk, b.pk]
    )
    _win(match)
    html = Client().get(f"/players/{a.pk}/").content.decode()
    assert "Ben" in html
    assert "won" in html


def test_player_checks_in_with_their_own_link():
    reg = RegistrationFactory(event=EventFactory(kind=Event.Kind.SWISS))
    url = f"/checkin/{reg.checkin_token}/"
    assert "I am here" in Client().get(url).content.decode()
    html = Client().post(url).content.decode()
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN
    assert "You are checked in" in html
    assert Client().get("/checkin/not-a-token/").status_code == 404


def test_queued_pairing_is_shown_while_it_waits():
    event = _swiss(n=4, options={"async_pairing_from": 2})
    client = page_client(_director(event.club))
    html = client.post(f"/events/{event.pk}/pair/", follow=True).content.decode()
    assert "Round 1 is queued for pairing." in html
    assert "Pairing in progress" in html
    assert 'hx-select="#pairings"' in html
