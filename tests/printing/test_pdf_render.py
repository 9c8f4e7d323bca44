"""Every PDF Knock prints, read as a reader sees it: rendered by poppler (``pdftoppm``, the
renderer of Debian's PDF viewers) and read back with the position of each word
(``pdftotext -bbox``), in English and in Korean, for an event with the names that strain a page:
a long name, Korean names, a table of three and a bye.

What is checked is what the page shows, not what the code meant to draw: each header of a table
is printed whole (all its words, in order, in its own column), no word runs off the page, no two
words overprint each other, no word of a row crosses into the next column (a long name ends in
an ellipsis instead), seats are counted from 1, and the rule set's name is the reader's
language. ``KNOCK_PDF_KEEP=<folder>`` keeps each document and its page images there, for a person
to look at.

Needs poppler-utils: skipped on a developer's machine without it, a failure under CI
(``.ci/run`` installs it), as :func:`tests.support.requires` does for nginx and Node.js.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation
from fpdf import FPDF

from core.i18n import rules_name
from printing.pdf import FONT_FAMILY, FONT_PATH
from scoring.models import Match, Seat
from tests.support import requires
from tests.tournaments.helpers import api_event, open_matches, play, seated
from tournaments.models import Event, Round
from tournaments.selectors.exports import event_results_export, event_standings_export
from tournaments.services import standings_recompute

pytestmark = pytest.mark.django_db

POPPLER = shutil.which("pdftoppm") and shutil.which("pdftotext")
needs_poppler = requires(POPPLER, "poppler-utils (pdftoppm, pdftotext)")

LONG_NAME = "Bartholomew Featherstonehaugh-Worthington"
NAMES = [LONG_NAME, "김민준", "Ada", "이서연", "Maximiliano Alessandro Villanueva"]
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
FOOTER_MARGIN = 15 / 25.4 * 72  # points: the page's bottom margin, where the footer is
SLACK = 0.5  # points: a glyph's box may reach past its cell by anti-aliasing, not by a letter


@dataclass(frozen=True, slots=True)
class Word:
    """A word as poppler places it on a page, in points from the top left corner."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True, slots=True)
class Page:
    width: float
    height: float
    words: tuple[Word, ...]

    def lines(self) -> list[list[Word]]:
        """The words grouped by the line they sit on (the same baseline, give or take), each
        line left to right, top to bottom."""
        lines: list[list[Word]] = []
        for word in sorted(self.words, key=lambda w: (w.y1, w.x0)):
            if lines and abs(lines[-1][0].y1 - word.y1) < 1.0:
                lines[-1].append(word)
            else:
                lines.append([word])
        return [sorted(line, key=lambda w: w.x0) for line in lines]

    def text(self) -> str:
        return "\n".join(" ".join(w.text for w in line) for line in self.lines())


def _pages(content: bytes, tmp: Path, name: str) -> list[Page]:
    """Render ``content`` to PNGs (kept under ``KNOCK_PDF_KEEP`` if set) and read each page's
    words and their boxes."""
    keep = os.environ.get("KNOCK_PDF_KEEP")
    folder = Path(keep) if keep else tmp
    folder.mkdir(parents=True, exist_ok=True)
    pdf = folder / f"{name}.pdf"
    pdf.write_bytes(content)
    subprocess.run(
        ["pdftoppm", "-r", "50", "-png", str(pdf), str(folder / name)], check=True, timeout=60
    )
    html = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], check=True, capture_output=True, timeout=60
    ).stdout
    root = ET.fromstring(html)
    pages = []
    for page in root.iter("{http://www.w3.org/1999/xhtml}page"):
        words = tuple(
            Word(
                w.text or "",
                float(w.get("xMin", 0)),
                float(w.get("yMin", 0)),
                float(w.get("xMax", 0)),
                float(w.get("yMax", 0)),
            )
            for w in page.iter("{http://www.w3.org/1999/xhtml}word")
        )
        pages.append(Page(float(page.get("width", 0)), float(page.get("height", 0)), words))
    assert pages
    assert len(list(folder.glob(f"{name}-*.png"))) == len(pages), "pdftoppm drew every page"
    return pages


def _assert_readable(pages: list[Page]) -> None:
    """No word runs off its page, and no two words overprint each other."""
    for number, page in enumerate(pages, start=1):
        for w in page.words:
            assert w.x0 >= 0, (number, w)
            assert w.y0 >= 0, (number, w)
            assert w.x1 <= page.width, (number, w, page.width)
            assert w.y1 <= page.height, (number, w, page.height)
        boxes = sorted(page.words, key=lambda w: w.x0)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                if b.x0 >= a.x1 - SLACK:
                    break
                overlap_y = min(a.y1, b.y1) - max(a.y0, b.y0)
                assert overlap_y <= SLACK, f"page {number}: {a} overprints {b}"


def _columns(page: Page, headers: tuple[str, ...]) -> tuple[list[float], float]:
    """Where each column starts (its header's first word) and where the header ends; asserts
    that each header is printed whole: its words, in order, down its own column."""
    firsts = {headers[0].split()[0], headers[1].split()[0]}
    line = next(line for line in page.lines() if firsts <= {w.text for w in line})
    top = next(w for w in line if w.text == headers[0].split()[0])
    starts: list[float] = []
    rest = list(line)
    for header in headers:
        word = header.split()[0]
        found = next((w for w in rest if w.text == word), None)
        assert found is not None, f"header {header!r} is not printed whole on {line}"
        starts.append(found.x0)
        rest = rest[rest.index(found) + 1 :]
    assert starts == sorted(starts)
    edges = [*starts[1:], page.width]
    below = [w for w in page.words if top.y0 - SLACK <= w.y0 and w.y1 <= top.y1 + 40]
    bottom = top.y1
    for header, left, right in zip(headers, starts, edges, strict=True):
        column = [w for w in below if left - SLACK <= w.x0 and w.x1 <= right + SLACK]
        words = [w.text for w in sorted(column, key=lambda w: (w.y1, w.x0))]
        expected = header.split()
        # The header's words are the first ones down its column (it may wrap at its spaces).
        assert words[: len(expected)] == expected, (header, words)
        bottom = max(
            bottom, max(w.y1 for w in sorted(column, key=lambda w: (w.y1, w.x0))[: len(expected)])
        )
    return starts, bottom


def _assert_in_columns(
    page: Page, starts: list[float], header_bottom: float, legend: tuple[str, ...] = ()
) -> int:
    """Every word of the table's body (under its header, above its legend or the page's
    footer margin) sits inside one column: none crosses into the next. Returns the number of
    lines of the body."""
    edges = [*starts[1:], page.width]
    end = page.height - FOOTER_MARGIN
    if legend:
        first = legend[0].split()[0]
        end = min(w.y0 for w in page.words if w.text == first and w.y0 > header_bottom)
    lines = [line for line in page.lines() if header_bottom < line[0].y0 < end]
    for w in (w for line in lines for w in line):
        column = max(i for i, s in enumerate(starts) if s <= w.x0 + SLACK)
        assert w.x1 <= edges[column] + SLACK, f"{w} runs into the next column"
    return len(lines)


@pytest.fixture
def event(director_api, club, make_players):
    """A Swiss of five (so a bye), the long name, Korean names, every tie-break shown, round 1
    played with big margins; and a table of three added to the round."""
    players = make_players(len(NAMES))
    for player, name in zip(players, NAMES, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    created = api_event(director_api, club, players, "swiss")
    event = Event.objects.get(pk=created["id"])
    event.name = "Autumn Swiss of the Knock Demo Club"
    event.tiebreaks = TIEBREAKS
    event.save(update_fields=["name", "tiebreaks"])
    assert director_api.post(f"/api/events/{event.pk}/rounds/").status_code == 201
    for match in open_matches(event.pk):
        play(match, winner=max(seated(match)), margin=386)
    standings_recompute(event=event)
    rnd = Round.objects.get(event=event, number=1)
    three = Match.objects.create(
        event=event, round=rnd, table_number=9, rules=event.rules, status=Match.Status.SCHEDULED
    )
    for position, player in enumerate(players[:3]):
        Seat.objects.create(match=three, player=player, position=position)
    return event


def _get(client: Client, url: str, language: str) -> bytes:
    with translation.override(language):  # not left active for the next test (the middleware's)
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, response.content[:200]
    assert response["Content-Type"] == "application/pdf"
    return bytes(response.content)


@needs_poppler
@pytest.mark.parametrize("language", ["en", "ko"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_standings_pdf_reads_right(event, tmp_path, language, paper):
    content = _get(Client(), f"/events/{event.pk}/export/standings/pdf/?paper={paper}", language)
    pages = _pages(content, tmp_path, f"standings-{language}-{paper}")
    _assert_readable(pages)
    with translation.override(language):
        table = event_standings_export(event=event)
    starts, bottom = _columns(pages[0], table.printed_headers)
    assert _assert_in_columns(pages[0], starts, bottom, table.legend) >= len(table.rows)
    text = "\n".join(p.text() for p in pages)
    for line in table.legend:
        assert " ".join(line.split()[:3]) in text, line
    assert "-386" in text  # a loser's game points, as on the event page
    for name in ("김민준", "Ada", "이서연"):
        assert name in text
    # The long name wraps in its column, whole: no ellipsis, no letter lost.
    assert "…" not in text
    for piece in ("Bartholomew", "Featherstonehaugh-", "Worthington"):
        assert piece in text, piece


@needs_poppler
@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_results_pdf_reads_right(event, tmp_path, language):
    content = _get(Client(), f"/events/{event.pk}/export/results/pdf/", language)
    pages = _pages(content, tmp_path, f"results-{language}")
    _assert_readable(pages)
    with translation.override(language):
        table = event_results_export(event=event)
    starts, bottom = _columns(pages[0], table.printed_headers)
    assert _assert_in_columns(pages[0], starts, bottom) >= len(table.rows)
    text = "\n".join(p.text() for p in pages)
    assert "386" in text
    assert "-386" not in text  # the winner's margin, as the pages read it
    assert re.search(r"\b\d{4}-\d{2}-\d{2}\b", text)  # a date is not broken at its hyphens
    assert "…" not in text
    for piece in ("Featherstonehaugh-", "Worthington", "Villanueva"):
        assert piece in text, piece


@needs_poppler
@pytest.mark.parametrize(
    ("language", "seat", "wrong"),
    [("en", "Seat {n} ·", "Seat 0"), ("ko", "{n}번 좌석", "0번 좌석")],
)
def test_the_round_slips_read_right(event, director, tmp_path, language, seat, wrong):
    client = Client()
    client.force_login(director)
    content = _get(client, f"/events/{event.pk}/rounds/1/print/", language)
    pages = _pages(content, tmp_path, f"round-{language}")
    _assert_readable(pages)
    with translation.override(language):
        headers = (
            translation.gettext("Table"),
            translation.gettext("Players"),
            translation.gettext("Seats"),
        )
        standard = rules_name("standard")
    starts, bottom = _columns(pages[0], headers)
    assert _assert_in_columns(pages[0], starts, bottom) >= 4
    listing = pages[0].text()
    assert "1 · 2 · 3" in listing  # the table of three, counted from 1
    assert "0 · 1" not in listing
    slips = [p.text() for p in pages[1:]]
    assert len(slips) == 3  # two tables of two and the table of three; the bye has no slip
    for slip in slips:
        assert seat.format(n=1) in slip
        assert seat.format(n=2) in slip
        assert wrong not in slip
        assert standard in slip
        if language == "ko":
            assert "standard" not in slip
    assert any(seat.format(n=3) in slip for slip in slips)


@needs_poppler
@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_checkin_cards_read_right(event, director, tmp_path, language):
    client = Client()
    client.force_login(director)
    content = _get(client, f"/events/{event.pk}/checkin-codes/", language)
    pages = _pages(content, tmp_path, f"checkin-{language}")
    _assert_readable(pages)
    text = "\n".join(p.text() for p in pages)
    for name in ("김민준", "이서연", "Ada", "Villanueva"):
        assert name in text


@needs_poppler
def test_the_checks_catch_a_cell_run_into_the_next_column(tmp_path):
    """The checks above fail on what they look for: a name drawn past its cell, over the next
    column's number (as a PDF cell allows: it does not clip)."""
    pdf = FPDF(unit="mm", format="A4")
    pdf.add_font(FONT_FAMILY, fname=str(FONT_PATH))
    pdf.add_page()
    pdf.set_font(FONT_FAMILY, size=10)
    pdf.set_xy(15, 20)
    pdf.cell(45, 6, "Player")
    pdf.cell(20, 6, "Score")
    pdf.set_xy(15, 30)
    pdf.cell(45, 6, LONG_NAME)
    pdf.cell(20, 6, "12")
    pages = _pages(bytes(pdf.output()), tmp_path, "overprinted")
    with pytest.raises(AssertionError, match="overprints"):
        _assert_readable(pages)
    starts, bottom = _columns(pages[0], ("Player", "Score"))
    with pytest.raises(AssertionError, match="runs into the next column"):
        _assert_in_columns(pages[0], starts, bottom)


@needs_poppler
@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_wall_sheet_reads_right(event, tmp_path, language):
    """Who plays where: every player once, alphabetical, with their table and seat (from 1),
    in large type, Korean names drawn; anyone may print it (no link on it)."""
    content = _get(Client(), f"/events/{event.pk}/rounds/1/wall-sheet/", language)
    pages = _pages(content, tmp_path, f"wall-{language}")
    _assert_readable(pages)
    with translation.override(language):
        headers = tuple(translation.gettext(h) for h in ("Player", "Table", "Seat", "Against"))
        bye_word = translation.gettext("bye")
    starts, bottom = _columns(pages[0], headers)
    assert _assert_in_columns(pages[0], starts, bottom) >= len(NAMES)
    text = "\n".join(p.text() for p in pages)
    for name in ("김민준", "이서연", "Ada", "Villanueva", "Worthington"):
        assert name in text
    assert bye_word in text
    # Alphabetical down the first column: Ada, Bartholomew, Maximiliano, then the Korean
    # names (김 before 이). (The fixture's table of three seats three players a second time;
    # a name in the last column is an opponent.)
    firsts = [
        w.text
        for line in pages[0].lines()
        if line[0].y0 > bottom
        for w in line[:1]
        if w.x0 < starts[1]
    ]
    starters = ("Ada", "Bartholomew", "Maximiliano", "김민준", "이서연")
    listed = [starters.index(w) for w in firsts if w in starters]
    assert listed == sorted(listed)
    assert set(listed) == set(range(len(starters)))
