"""Printing and exports through the pages and the API: who may print links, what the files hold."""

from __future__ import annotations

import io
import re

import pytest
from django.test import Client
from pypdf import PdfReader
from rest_framework.test import APIClient

from scoring.models import Match, MatchKey
from tests.tournaments.helpers import api_event, open_matches, play, seated
from tournaments.models import Event
from tournaments.selectors.exports import csv_bytes
from tournaments.services import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(director_api, club, make_players):
    players = make_players(4)
    players[0].name = "김민준"
    players[0].save()
    event = api_event(director_api, club, players, "swiss")
    assert director_api.post(f"/api/events/{event['id']}/rounds/").status_code == 201
    return event


def _pdf(content: bytes) -> PdfReader:
    assert content.startswith(b"%PDF-")
    return PdfReader(io.BytesIO(content))


def test_director_prints_the_round_with_every_seat_link(swiss, director):
    client = Client()
    client.force_login(director)
    r = client.get(f"/events/{swiss['id']}/rounds/1/print/?paper=letter")
    assert r.status_code == 200
    assert r["Content-Type"] == "application/pdf"
    reader = _pdf(r.content)
    assert len(reader.pages) == 1 + 2  # the table list, then one slip per table
    assert "김민준" in reader.pages[0].extract_text()
    assert re.search(rb"/BaseFont\s*/[A-Z]{6}\+KnockGothicKR", r.content)
    # The slips hold the links the links page shows: issued once, then the same.
    assert (
        MatchKey.objects.filter(match__event_id=swiss["id"], revoked_at__isnull=True).count() == 6
    )
    again = client.get(f"/events/{swiss['id']}/rounds/1/print/")
    assert again.status_code == 200
    assert MatchKey.objects.filter(match__event_id=swiss["id"]).count() == 6


def test_printing_links_is_for_directors_only(swiss, stranger):
    anonymous = Client().get(f"/events/{swiss['id']}/rounds/1/print/")
    assert anonymous.status_code == 302
    client = Client()
    client.force_login(stranger)
    assert client.get(f"/events/{swiss['id']}/rounds/1/print/").status_code == 403
    assert client.get(f"/events/{swiss['id']}/checkin-codes/").status_code == 403
    api = APIClient()
    api.force_authenticate(stranger)
    assert api.get(f"/api/events/{swiss['id']}/rounds/1/print/").status_code == 403
    assert api.get(f"/api/events/{swiss['id']}/checkin-codes/").status_code == 403
    assert not MatchKey.objects.filter(match__event_id=swiss["id"]).exists()


def test_bad_paper_and_missing_round_are_refused(swiss, director_api, director):
    assert (
        director_api.get(f"/api/events/{swiss['id']}/rounds/1/print/?paper=a3").status_code == 400
    )
    assert director_api.get(f"/api/events/{swiss['id']}/rounds/9/print/").status_code == 404
    client = Client()
    client.force_login(director)
    assert client.get(f"/events/{swiss['id']}/rounds/1/print/?paper=a3").status_code == 400


def test_api_round_print_and_checkin_codes(swiss, director_api):
    r = director_api.get(
        f"/api/events/{swiss['id']}/rounds/1/print/", HTTP_ACCEPT="application/pdf"
    )
    assert r.status_code == 200
    assert len(_pdf(r.content).pages) == 3
    codes = director_api.get(f"/api/events/{swiss['id']}/checkin-codes/?paper=a4")
    assert codes.status_code == 200
    text = "".join(p.extract_text() for p in _pdf(codes.content).pages)
    assert "김민준" in text


def test_standings_and_results_export_as_csv_and_pdf(swiss, api):
    for m in open_matches(swiss["id"]):
        play(m, winner=min(seated(m)))
    standings_recompute(event=Event.objects.get(pk=swiss["id"]))
    csv = api.get(f"/api/events/{swiss['id']}/results/export/")
    assert csv.status_code == 200
    assert csv["Content-Type"].startswith("text/csv")
    body = csv.content.decode("utf-8-sig").splitlines()
    assert body[0].startswith("Round,Table,Players")
    assert len(body) == 3
    assert "김민준" in csv.content.decode("utf-8-sig")
    pdf = api.get(f"/api/events/{swiss['id']}/standings/export/?file=pdf&paper=letter")
    assert pdf.status_code == 200
    assert "김민준" in _pdf(pdf.content).pages[0].extract_text()
    assert api.get(f"/api/events/{swiss['id']}/standings/export/?file=xls").status_code == 400
    page = Client().get(f"/events/{swiss['id']}/export/standings/csv/")
    assert page.status_code == 200
    assert page["Content-Disposition"].startswith("attachment;")
    assert Client().get(f"/events/{swiss['id']}/export/nothing/csv/").status_code == 404


def test_csv_cells_cannot_start_a_formula():
    out = csv_bytes(headers=["a", "b"], rows=[["=HYPERLINK(1)", "-3"]]).decode("utf-8-sig")
    assert "'=HYPERLINK(1)" in out
    assert ",-3" in out


def test_projector_and_its_slides(swiss):
    client = Client()
    page = client.get(f"/events/{swiss['id']}/projector/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-slide="pairings"' in html
    assert 'data-slide="standings"' in html
    assert "<form" not in html  # no controls
    assert '<link rel="icon"' in html  # its own head names the icon too
    slides = client.get(f"/events/{swiss['id']}/projector/slides/")
    assert slides.status_code == 200
    assert 'data-slide="standings"' in slides.content.decode()


def test_the_bracket_is_drawn_with_round_names_scores_and_connectors(
    director_api, club, make_players
):
    players = make_players(6)
    event = api_event(director_api, club, players, "single_elim")
    assert director_api.post(f"/api/events/{event['id']}/rounds/").status_code == 201
    first = open_matches(event["id"])[0]
    play(first, winner=min(seated(first)), margin=45)
    first.summary = {"games_won": [1, 0], "margins": [45]}
    first.save(update_fields=["summary"])
    html = Client().get(f"/events/{event['id']}/").content.decode()
    assert html.count('class="bk-col"') == 3
    for name in ("Final", "Semi-final", "Quarter-final"):
        assert name in html
    assert "round 2 of 3" in html
    assert "Winners&#x27; bracket" not in html
    assert "Winners' bracket" not in html
    assert 'class="bk-line"' in html
    assert "bk-bye" in html  # the top seeds' byes, drawn lightly
    assert ">45</text>" in html
    ko = Client(HTTP_ACCEPT_LANGUAGE="ko").get(f"/events/{event['id']}/").content.decode()
    assert "결승" in ko


def test_a_director_who_plays_gets_no_links_for_their_own_table(club, director, make_players):
    players = make_players(4)
    players[0].user = director
    players[0].save()
    api = APIClient()
    api.force_authenticate(director)
    event = api_event(api, club, players, "swiss")
    assert api.post(f"/api/events/{event['id']}/rounds/").status_code == 201
    r = api.get(f"/api/events/{event['id']}/rounds/1/print/")
    assert r.status_code == 200
    own = Match.objects.get(event_id=event["id"], seats__player=players[0])
    assert not MatchKey.objects.filter(match=own).exists()
    other = Match.objects.filter(event_id=event["id"]).exclude(pk=own.pk).get()
    assert MatchKey.objects.filter(match=other).count() == 3  # two seats and the table link
    slips = [p.extract_text() for p in _pdf(r.content).pages[1:]]
    assert any("You play at this table" in text for text in slips)


def test_api_files_are_named_by_event_and_paper_and_print_as_the_pages_do(
    swiss, director_api, director
):
    """What the API's four file views share (printing/apis.py): an ``attachment`` named by the
    event, the round or table and the paper, never cached; an export's PDF is the page's."""
    eid = swiss["id"]
    for m in open_matches(eid):
        play(m, winner=min(seated(m)))
    standings_recompute(event=Event.objects.get(pk=eid))
    names = {
        f"/api/events/{eid}/rounds/1/print/?paper=letter": f"event-{eid}-round-1-letter.pdf",
        f"/api/events/{eid}/checkin-codes/": f"event-{eid}-checkin-a4.pdf",
        f"/api/events/{eid}/standings/export/": f"event-{eid}-standings.csv",
        f"/api/events/{eid}/results/export/?file=PDF&paper=letter": (
            f"event-{eid}-results-letter.pdf"
        ),
    }
    for url, name in names.items():
        response = director_api.get(url)
        assert response.status_code == 200, url
        assert response["Content-Disposition"] == f'attachment; filename="{name}"'
        assert response["Cache-Control"] == "private, no-store"
    client = Client()
    client.force_login(director)
    for what in ("standings", "results"):
        api_pdf = director_api.get(f"/api/events/{eid}/{what}/export/?file=pdf")
        page_pdf = client.get(f"/events/{eid}/export/{what}/pdf/")
        assert page_pdf.status_code == 200
        assert [p.extract_text() for p in _pdf(api_pdf.content).pages] == [
            p.extract_text() for p in _pdf(page_pdf.content).pages
        ]
    refused = director_api.get(f"/api/events/{eid}/results/export/?file=pdf&paper=a3")
    assert (refused.status_code, refused.json()["field"]) == (400, "paper")
