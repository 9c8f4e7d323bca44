"""The round's wall sheet ("who plays where"): its rows (every seated player by name, their
table, seat counted from 1 and opponent; a bye), its page and API (anyone's: no link on it), and
the links to it from the console and the event page."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import ClubRole
from printing.services import name_order, wall_sheet_rows
from scoring.models import Match
from tests.clubs.factories import ClubRoleFactory
from tests.clubs.helpers import page_client
from tests.tournaments.factories import swiss_event
from tournaments.models import Round
from tournaments.services import round_pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = swiss_event(5, player_name="Player {}")
    names = ["zoë", "Ada", "이서연", "Émile", "김민준"]
    for registration, name in zip(event.registrations.all(), names, strict=True):
        registration.player.name = name
        registration.player.save(update_fields=["name"])
    round_pair(event=event)
    return event


def test_every_player_once_by_name_with_table_seat_and_opponent(event):
    rnd = Round.objects.get(event=event, number=1)
    rows = wall_sheet_rows(rnd=rnd)
    assert [r[0] for r in rows] == ["Ada", "Émile", "zoë", "김민준", "이서연"]
    assert len(rows) == 5
    byes = [r for r in rows if r[1] == "bye"]
    assert len(byes) == 1
    assert byes[0][2:] == ("—", "—")
    played = [r for r in rows if r[1] != "bye"]
    assert {r[2] for r in played} == {"1", "2"}
    for match in Match.objects.filter(round=rnd, decision=Match.Decision.PLAYED):
        a, b = (s.player.name for s in match.seats.order_by("position"))
        assert (a, str(match.table_number), "1", b) in rows
        assert (b, str(match.table_number), "2", a) in rows


def test_anyone_prints_it_and_the_api_serves_it_too(event, api):
    response = Client().get(f"/events/{event.pk}/rounds/1/wall-sheet/?paper=letter")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    response = api.get(f"/api/events/{event.pk}/rounds/1/wall-sheet/")
    assert response.status_code == 200
    assert response.content.startswith(b"%PDF")


def test_bad_paper_an_unknown_round_and_a_round_without_tables_are_refused(event, api):
    assert Client().get(f"/events/{event.pk}/rounds/1/wall-sheet/?paper=a3").status_code == 400
    assert Client().get(f"/events/{event.pk}/rounds/7/wall-sheet/").status_code == 404
    response = api.get(f"/api/events/{event.pk}/rounds/1/wall-sheet/?paper=a3")
    assert response.status_code == 400
    assert response.json()["field"] == "paper"
    Match.objects.filter(round__event=event).delete()
    response = api.get(f"/api/events/{event.pk}/rounds/1/wall-sheet/")
    assert response.status_code == 409


def test_the_console_and_the_event_page_link_to_it(event):
    boss = ClubRoleFactory(club=event.club, role=ClubRole.Role.DIRECTOR).user
    client = page_client(boss)
    console = client.get(f"/events/{event.pk}/console/").content.decode()
    assert f"/events/{event.pk}/rounds/1/wall-sheet/?paper=a4" in console
    assert f"/events/{event.pk}/rounds/1/print/?paper=a4" in console
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert f"/events/{event.pk}/rounds/1/wall-sheet/?paper=a4" in page


def test_names_are_listed_without_regard_to_accents_or_case():
    names = ["zoë", "Émile", "ada", "Zack", "김민준", "가영"]
    assert sorted(names, key=name_order) == ["ada", "Émile", "Zack", "zoë", "가영", "김민준"]
