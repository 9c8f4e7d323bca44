"""Every PDF Knock prints reads right, in English and in Korean: no header is cut or runs into
the next column (each is wrapped or abbreviated, with a legend under the table, as on the
event page), seats are counted from 1 as on the pages, and a result reads the winner's margin
("386", as the score sheet's "Ada wins by 386"), never "386 – -386".

Text extraction shows what is printed but not where it is cut (a PDF cell does not clip: an
over-long header overprints its neighbour), so every cell the documents draw is measured as it
is drawn, with fpdf2's own ``get_string_width``, against the width of its cell."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from fpdf import FPDF
from pypdf import PdfReader

from printing import pdf as printing
from printing.pdf import FONT_FAMILY, column_widths, header_layout, table_pdf
from scoring.models import Match
from tests.tournaments.helpers import api_event, open_matches, play, seated
from tournaments.models import Event
from tournaments.selectors.exports import event_results_export, event_standings_export
from tournaments.services import standings_recompute

pytestmark = pytest.mark.django_db

ALL_TIEBREAKS = [
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


@pytest.fixture
def drawn(monkeypatch):
    """Every single-line cell the PDFs draw: (text, its width, the cell's width)."""
    cells: list[tuple[str, float, float]] = []
    original = printing._Document.cell

    def cell(
        self: FPDF,
        w: float | None = None,
        h: float | None = None,
        text: str = "",
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        room = w if w else self.w - self.r_margin - self.x
        if text:
            cells.append((text, self.get_string_width(text), room - 2 * self.c_margin))
        return original(self, w, h, text, *args, **kwargs)

    monkeypatch.setattr(printing._Document, "cell", cell)
    return cells


def _overflowing(cells: list[tuple[str, float, float]]) -> list[tuple[str, float, float]]:
    return [c for c in cells if c[1] > c[2] + 0.01]


@pytest.fixture
def event(director_api, club, make_players):
    players = make_players(4)
    players[0].name = "김민준"
    players[0].save()
    players[1].name = "Ada"
    players[1].save()
    created = api_event(director_api, club, players, "swiss")
    event = Event.objects.get(pk=created["id"])
    event.tiebreaks = ALL_TIEBREAKS
    event.save(update_fields=["tiebreaks"])
    assert director_api.post(f"/api/events/{event.pk}/rounds/").status_code == 201
    for match in open_matches(event.pk):
        play(match, winner=max(seated(match)), margin=386)
    standings_recompute(event=event)
    return event


def _text(content: bytes) -> str:
    assert content.startswith(b"%PDF-")
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def _get(client: Client, url: str, language: str) -> bytes:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, response.content[:200]
    assert response["Content-Type"] == "application/pdf"
    return response.content


@pytest.mark.parametrize("language", ["en", "ko"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_standings_pdf_prints_every_header_whole_with_a_legend(event, drawn, language, paper):
    content = _get(Client(), f"/events/{event.pk}/export/standings/pdf/?paper={paper}", language)
    text = _text(content)
    with translation.override(language):
        table = event_standings_export(event=event)
    assert len(table.printed_headers) == 6 + len(ALL_TIEBREAKS)
    for header in table.printed_headers:
        for word in header.split():
            assert word in text, (word, header)
    # A short header has its meaning under the table: "Buchholz cut 1" is told from "Buchholz".
    for line in table.legend:
        assert line[:20] in text.replace("\n", " "), line
    assert len(set(table.printed_headers)) == len(table.printed_headers)
    assert not _overflowing(drawn), _overflowing(drawn)
    # The numbers are whole: a share reads 0.333, not "0.3…".
    assert "…" not in text
    assert "-386" in text  # a player's game points below zero, as on the event page


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_results_pdf_reads_the_winners_margin(event, drawn, language):
    content = _get(Client(), f"/events/{event.pk}/export/results/pdf/", language)
    text = _text(content)
    assert "386" in text
    assert "-386" not in text
    assert not re.search(r"[–-]\s*-\d", text)
    with translation.override(language):
        table = event_results_export(event=event)
    for header in table.printed_headers:
        for word in header.split():
            assert word in text
    margin = 4  # Round, Table, Players, Winner, Margin, ...
    assert {row[margin] for row in table.rows} == {"386"}
    assert not _overflowing(drawn), _overflowing(drawn)


def test_the_results_csv_has_no_formula_guard_on_a_margin(event):
    body = Client().get(f"/events/{event.pk}/export/results/csv/").content.decode("utf-8-sig")
    lines = body.splitlines()
    assert lines[0] == "Round,Table,Players,Winner,Margin,Result,Date"
    assert all(",386," in line for line in lines[1:])
    assert "'-" not in body


@pytest.mark.parametrize(
    ("language", "seat", "wrong"),
    [("en", "Seat 1 · ", ("Seat 0", "0 · 1")), ("ko", "1번 좌석", ("0번 좌석", "0 · 1"))],
)
def test_the_round_slips_count_seats_from_one(event, director, drawn, language, seat, wrong):
    client = Client()
    client.force_login(director)
    content = _get(client, f"/events/{event.pk}/rounds/1/print/", language)
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(content)).pages]
    assert "1 · 2" in pages[0]  # the table list: seats 1 and 2 at each table
    for slip in pages[1:]:
        assert seat in slip
        assert ("Seat 2 · " if language == "en" else "2번 좌석") in slip
    for text in wrong:
        assert not any(text in page for page in pages), text
    assert not _overflowing(drawn), _overflowing(drawn)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_checkin_cards_fit_their_cards(event, director, drawn, language):
    client = Client()
    client.force_login(director)
    text = _text(_get(client, f"/events/{event.pk}/checkin-codes/", language))
    assert "김민준" in text
    assert drawn
    assert not _overflowing(drawn), _overflowing(drawn)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_header_layout_fits_every_header_word_in_its_column(event, language):
    """The layout function alone: at the size it picks, each line of each header is no wider
    than its column (less the cell's padding), and the lines hold every word of the header."""
    with translation.override(language):
        table = event_standings_export(event=event)
    pdf = FPDF(unit="mm", format="A4")
    pdf.add_font(FONT_FAMILY, fname=str(printing.FONT_PATH))
    pdf.set_margins(15, 15, 15)
    usable = pdf.w - 30
    for headers in (table.printed_headers, table.headers):  # short ones, and the long ones too
        widths = column_widths(
            pdf, headers=headers, rows=table.rows, relative=table.widths, usable=usable, size=10
        )
        assert sum(widths) == pytest.approx(usable)
        size, lines = header_layout(pdf, headers=headers, widths=widths, size=10)
        assert size >= 6
        pdf.set_font(FONT_FAMILY, size=size)
        for header, width, header_lines in zip(headers, widths, lines, strict=True):
            # Wrapped at its spaces only: every word whole, in order.
            assert " ".join(header_lines).split() == header.split()
            for line in header_lines:
                assert pdf.get_string_width(line) <= width - 2 * pdf.c_margin + 0.01, (line, width)


def test_a_word_too_long_for_any_size_is_broken_not_cut():
    pdf = FPDF(unit="mm")
    pdf.add_font(FONT_FAMILY, fname=str(printing.FONT_PATH))
    size, lines = header_layout(pdf, headers=("Sonneborn-Berger-Buchholz",), widths=(8.0,), size=10)
    assert size == 6
    assert "".join(lines[0]) == "Sonneborn-Berger-Buchholz"
    assert len(lines[0]) > 1
    for line in lines[0]:
        assert pdf.get_string_width(line) <= 8.0 - 2 * pdf.c_margin


def test_a_table_with_many_columns_keeps_its_headers_inside_the_page(drawn):
    headers = [f"Column number {i}" for i in range(14)]
    rows = [[str(i * 1000) for i in range(14)]]
    content = table_pdf(title="Wide", subtitle="", headers=headers, rows=rows, legend=["a legend"])
    text = _text(content)
    assert "a legend" in text
    assert not _overflowing(drawn), _overflowing(drawn)


@pytest.mark.parametrize(("language", "games"), [("en", "games 2-1"), ("ko", "게임 2-1")])
def test_a_longer_match_reads_the_games_the_winner_won_first(event, language, games):
    match = Match.objects.filter(event=event).order_by("pk").first()
    assert match is not None
    winner_seat = list(match.seats.order_by("position").values_list("player_id", flat=True)).index(
        match.winner_id
    )
    won = [1, 1]
    won[winner_seat] = 2
    match.summary = {"games_won": won, "margins": [120, 40, 90]}
    match.save(update_fields=["summary"])
    with translation.override(language):
        table = event_results_export(event=event)
    assert games in {row[4] for row in table.rows}
