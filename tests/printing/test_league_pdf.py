"""The printed standings and results say what the event page says: a league's table built from
its nights (a league stores no standings of its own), "No results yet." for an event with none,
the players of a table joined as the slips join them, and a legend of one form, "Name:
explanation". Read back from the PDF's text with pypdf, in English and in Korean.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from pypdf import PdfReader

from scoring.models import Game, Match, Seat
from tests.tournaments.helpers import api_event, open_matches, play, seated
from tournaments.models import Event
from tournaments.selectors.exports import event_results_export, event_standings_export
from tournaments.services import event_create, registration_create, standings_recompute
from tournaments.views.events import standings_context

pytestmark = pytest.mark.django_db

TIEBREAKS = [
    "game_points",
    "head_to_head",
    "buchholz",
    "buchholz_cut1",
    "median_buchholz",
    "sonneborn_berger",
    "opponents_match_win",
    "hands_won",
    "gins",
]


def _text(content: bytes) -> str:
    assert content.startswith(b"%PDF-")
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def _pdf(url: str, language: str = "en") -> str:
    # The middleware activates the request's language in this thread: restored after it, so
    # no later test reads Korean.
    with translation.override(language):
        response = Client().get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, response.content[:200]
    assert response["Content-Type"] == "application/pdf"
    return _text(response.content)


def _match(event: Event, a: Any, b: Any) -> Match:
    match = Match.objects.create(event=event, rules=event.rules)
    Seat.objects.bulk_create(
        [Seat(match=match, player=a, position=0), Seat(match=match, player=b, position=1)]
    )
    Game.objects.create(match=match, number=1)
    return match


@pytest.fixture
def league(club, make_players):
    """A league of two nights, three players, four matches played (no standings stored)."""
    league = event_create(club_id=club.pk, name="Thursday League", kind="league")
    a, b, c = make_players(3)
    for name, player in zip(("Yuna", "Zeke", "김민준"), (a, b, c), strict=True):
        player.name = name
        player.save(update_fields=["name"])
    nights = [
        event_create(club_id=club.pk, name=f"Night {k}", kind="club_night", league=league)
        for k in (1, 2)
    ]
    for night in nights:
        for player in (a, b, c):
            registration_create(event=night, player=player)
    play(_match(nights[0], a, b), winner=a.pk, margin=50)
    play(_match(nights[0], b, c), winner=b.pk, margin=20)
    play(_match(nights[1], a, c), winner=c.pk, margin=10)
    play(_match(nights[1], a, b), winner=a.pk, margin=30)
    return league


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_leagues_standings_pdf_prints_the_table_its_page_shows(league, language):
    text = _pdf(f"/events/{league.pk}/export/standings/pdf/", language)
    with translation.override(language):
        rows = standings_context(league)["rows"]
        no_results = translation.gettext("No results yet.")
    # one win each for Zeke and 김민준: game points part them (-60 against -10)
    assert [row["player"].name for row in rows] == ["Yuna", "김민준", "Zeke"]
    assert no_results not in text
    lines = text.splitlines()
    at = [next(i for i, line in enumerate(lines) if row["player"].name in line) for row in rows]
    assert at == sorted(at)  # in the page's order
    for row, index in zip(rows, at, strict=True):
        numbers = re.findall(r"-?\d+(?:\.\d+)?", lines[index])
        # rank, match points, won, drawn, lost, game points: what the page's row holds
        record = row["record"]
        expected = [row["rank"], row["match_points"], record["won"], record["drawn"]]
        expected += [record["lost"], record["game_points"]]
        assert numbers[: len(expected)] == [str(v) for v in expected], (lines[index], expected)
    assert "70" in lines[at[0]]  # Yuna: 50 + 30 - 10, the nights' margins
    assert "-60" in lines[at[2]]  # Zeke: 20 - 50 - 30


@pytest.mark.parametrize("language", ["en", "ko"])
def test_an_event_with_no_results_prints_so_instead_of_an_empty_table(club, language):
    event = event_create(club_id=club.pk, name="Empty Night", kind="club_night")
    with translation.override(language):
        no_results = translation.gettext("No results yet.")
        headers = event_standings_export(event=event).printed_headers
        results_headers = event_results_export(event=event).printed_headers
    if language == "ko":
        assert no_results != "No results yet."  # translated, as on the page
    standings = _pdf(f"/events/{event.pk}/export/standings/pdf/", language)
    assert no_results in standings
    assert headers[1] not in standings  # no header row over nothing
    results = _pdf(f"/events/{event.pk}/export/results/pdf/", language)
    assert no_results in results
    assert results_headers[2] not in results


def test_an_empty_league_prints_so_too(club):
    league = event_create(club_id=club.pk, name="New League", kind="league")
    assert "No results yet." in _pdf(f"/events/{league.pk}/export/standings/pdf/")


@pytest.mark.parametrize(("language", "between"), [("en", " vs "), ("ko", " 대 ")])
def test_the_results_join_players_as_the_slips_do(league, language, between):
    with translation.override(language):
        assert translation.gettext(" vs ") == between  # the slips' phrase
        rows = [
            row
            for night in Event.objects.filter(league=league)
            for row in event_results_export(event=night).rows
        ]
    assert "Yuna" + between + "Zeke" in {row[2] for row in rows}
    night = Event.objects.filter(league=league).order_by("pk").first()
    assert night is not None
    text = _pdf(f"/events/{night.pk}/export/results/pdf/", language)
    assert "Yuna" + between + "Zeke" in text
    assert "Yuna – Zeke" not in text
    assert "Yuna - Zeke" not in text


@pytest.fixture
def swiss(director_api, club, make_players):
    """A Swiss of four with every tie-break shown, round 1 played."""
    players = make_players(4)
    event = Event.objects.get(pk=api_event(director_api, club, players, "swiss")["id"])
    event.tiebreaks = TIEBREAKS
    event.save(update_fields=["tiebreaks"])
    assert director_api.post(f"/api/events/{event.pk}/rounds/").status_code == 201
    for match in open_matches(event.pk):
        play(match, winner=max(seated(match)), margin=120)
    standings_recompute(event=event)
    return event


@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_legend_line_reads_name_then_explanation(swiss, language):
    with translation.override(language):
        table = event_standings_export(event=swiss)
    shown = set(table.printed_headers)
    assert len(table.legend) == 1 + len(TIEBREAKS)  # match points and each tie-break
    for line in table.legend:
        name, colon, explanation = line.partition(": ")
        assert colon, line
        assert name in shown, line  # named by the header it explains
        assert explanation, line
        assert not explanation.startswith(name + ":"), line  # the name once
        assert " – " not in line, line
        assert " - " not in line, line
    if language == "en":
        assert "MP: Match points, the points for the matches won and drawn" in table.legend
        assert "Buchholz: the opponents' match points added up" in table.legend
        assert "Gins: the hands won by going gin" in table.legend
    text = " ".join(_pdf(f"/events/{swiss.pk}/export/standings/pdf/", language).split())
    for line in table.legend:
        assert " ".join(line.split()[:4]) in text, line
