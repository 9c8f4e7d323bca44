"""Printed PDFs: a round's table list and slips, check-in QR cards, and plain tables (standings,
results).

This module only draws. It takes frozen dataclasses of text that is already in the reader's
language and URLs that are already absolute, and returns the bytes of a PDF; it imports no Django,
so the views decide who may print what (private links are a director's) and the tests can read
its output without a database. Every document embeds a subset of Knock Gothic KR (a renamed
subset of NanumGothic, ``fonts/``): Korean prints on a machine with no fonts installed, and the
PDF shows the same on every reader. QR codes are drawn as vector squares from segno's matrix,
so they stay sharp at any printer resolution.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import segno
from fpdf import FPDF

__all__ = [
    "FONT_FAMILY",
    "FONT_PATH",
    "PAPERS",
    "QrCard",
    "SeatSlip",
    "TableSlip",
    "qr_cards_pdf",
    "round_pdf",
    "table_pdf",
]

Paper = Literal["a4", "letter"]
PAPERS: tuple[Paper, ...] = ("a4", "letter")
FONT_FAMILY = "KnockGothicKR"
FONT_PATH = Path(__file__).resolve().parent / "fonts" / "KnockGothicKR-Regular.ttf"

_MARGIN = 15.0
_INK = (29, 35, 39)
_MUTED = (99, 107, 115)


@dataclass(frozen=True, slots=True)
class SeatSlip:
    """One seat on a table's slip: who sits there and the seat's private link (None: not shown)."""

    label: str
    url: str | None


@dataclass(frozen=True, slots=True)
class TableSlip:
    """One table's slip: a heading ("Table 3"), the pairing line, a QR code per seat, the rules
    in brief and an optional note (why links are missing)."""

    heading: str
    pairing: str
    seats: tuple[SeatSlip, ...]
    rules: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True, slots=True)
class QrCard:
    """A card with a QR code: a heading (a player's name), a line under it and the URL."""

    heading: str
    caption: str
    url: str


@dataclass(frozen=True, slots=True)
class _Table:
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    widths: tuple[float, ...] = field(default=())


class _Document(FPDF):
    """An FPDF page set-up shared by every document: paper, margins, the embedded font."""

    def __init__(self, *, paper: Paper, title: str, footer: str) -> None:
        if paper not in PAPERS:
            raise ValueError(f"unknown paper {paper!r}")
        super().__init__(
            orientation="portrait", unit="mm", format=paper.upper() if paper == "a4" else "Letter"
        )
        self.set_margins(_MARGIN, _MARGIN, _MARGIN)
        self.set_auto_page_break(auto=True, margin=_MARGIN)
        self.add_font(FONT_FAMILY, fname=str(FONT_PATH))
        self.set_title(title)
        self.set_creator("Knock")
        self._footer_text = footer
        self.set_text_color(*_INK)

    def footer(self) -> None:
        self.set_y(-_MARGIN + 4)
        self.set_font(FONT_FAMILY, size=8)
        self.set_text_color(*_MUTED)
        self.cell(0, 4, f"{self._footer_text} · {self.page_no()}", align="R")
        self.set_text_color(*_INK)

    def heading(self, text: str, size: float = 18) -> None:
        self.set_font(FONT_FAMILY, size=size)
        self.multi_cell(0, size * 0.5, text, new_x="LMARGIN", new_y="NEXT")
        self.ln(2)

    def line_of(self, text: str, size: float = 11, muted: bool = False) -> None:
        self.set_font(FONT_FAMILY, size=size)
        if muted:
            self.set_text_color(*_MUTED)
        self.multi_cell(0, size * 0.5, text, new_x="LMARGIN", new_y="NEXT")
        self.set_text_color(*_INK)

    def qr(self, url: str, x: float, y: float, size: float) -> None:
        """Draw ``url``'s QR code (error correction M, with its quiet zone) as a ``size`` square."""
        code = segno.make(url, error="m", micro=False)
        matrix = [list(row) for row in code.matrix_iter(scale=1, border=4)]
        module = size / len(matrix)
        self.set_fill_color(*_INK)
        for r, row in enumerate(matrix):
            c = 0
            while c < len(row):
                if not row[c]:
                    c += 1
                    continue
                start = c
                while c < len(row) and row[c]:
                    c += 1
                # Runs of dark modules as one rectangle each: a smaller file, no hairline gaps.
                self.rect(x + start * module, y + r * module, (c - start) * module, module, "F")

    def draw_table(self, table: _Table, size: float = 10) -> None:
        usable = self.w - 2 * _MARGIN
        widths = table.widths or tuple(usable / len(table.headers) for _ in table.headers)
        height = size * 0.6
        self.set_font(FONT_FAMILY, size=size)

        def header() -> None:
            self.set_fill_color(234, 238, 241)
            for text, w in zip(table.headers, widths, strict=True):
                self.cell(w, height, text, border="B", fill=True)
            self.ln(height)

        header()
        for row in table.rows:
            if self.will_page_break(height):
                self.add_page()
                header()
            for text, w in zip(row, widths, strict=True):
                self.cell(w, height, _fit(self, text, w), border="B")
            self.ln(height)


def _fit(pdf: FPDF, text: str, width: float) -> str:
    """``text`` cut with an ellipsis so that it fits ``width`` (a long name must not overprint)."""
    if pdf.get_string_width(text) <= width - 2:
        return text
    while text and pdf.get_string_width(text + "…") > width - 2:
        text = text[:-1]
    return text + "…"


def _output(pdf: FPDF) -> bytes:
    return bytes(pdf.output())


def round_pdf(
    *,
    title: str,
    subtitle: str,
    headers: tuple[str, str, str],
    rows: Sequence[tuple[str, str, str]],
    slips: Sequence[TableSlip],
    paper: Paper = "a4",
    footer: str = "Knock",
) -> bytes:
    """A round for the room: the table list (table, players, seats) on the first page(s), then
    one page per table with its slip: the pairing, each seat's QR link and the rules in brief."""
    pdf = _Document(paper=paper, title=title, footer=footer)
    pdf.add_page()
    pdf.heading(title)
    if subtitle:
        pdf.line_of(subtitle, muted=True)
    pdf.ln(3)
    usable = pdf.w - 2 * _MARGIN
    pdf.draw_table(
        _Table(headers, tuple(rows), (usable * 0.16, usable * 0.62, usable * 0.22)), size=12
    )
    for slip in slips:
        pdf.add_page()
        pdf.heading(slip.heading, size=26)
        pdf.line_of(slip.pairing, size=15)
        pdf.ln(4)
        codes = [s for s in slip.seats if s.url]
        if codes:
            per_row = 2 if len(codes) <= 4 else 3
            size = min(62.0, (usable - (per_row - 1) * 8) / per_row)
            y = pdf.get_y()
            for i, seat in enumerate(codes):
                col, line = i % per_row, i // per_row
                x = _MARGIN + col * (size + 8)
                top = y + line * (size + 16)
                pdf.qr(seat.url or "", x, top, size)
                pdf.set_xy(x, top + size + 1)
                pdf.set_font(FONT_FAMILY, size=11)
                pdf.cell(size, 5, _fit(pdf, seat.label, size), align="C")
            rows_of_codes = (len(codes) + per_row - 1) // per_row
            pdf.set_xy(_MARGIN, y + rows_of_codes * (size + 16))
        for seat in slip.seats:
            if not seat.url:
                pdf.line_of(seat.label, size=12)
        if slip.note:
            pdf.ln(2)
            pdf.line_of(slip.note, size=10, muted=True)
        if slip.rules:
            pdf.ln(4)
            for rule in slip.rules:
                pdf.line_of("• " + rule, size=10)
    return _output(pdf)


def qr_cards_pdf(
    *,
    title: str,
    subtitle: str,
    cards: Sequence[QrCard],
    paper: Paper = "a4",
    footer: str = "Knock",
) -> bytes:
    """Cards with a QR code each, three across (check-in links: one per registered player)."""
    pdf = _Document(paper=paper, title=title, footer=footer)
    pdf.add_page()
    pdf.heading(title)
    if subtitle:
        pdf.line_of(subtitle, muted=True)
    pdf.ln(3)
    usable = pdf.w - 2 * _MARGIN
    per_row, gap = 3, 6.0
    size = (usable - (per_row - 1) * gap) / per_row
    card_height = size + 14
    y = pdf.get_y()
    for i, card in enumerate(cards):
        col = i % per_row
        if col == 0 and i:
            y += card_height + 4
        if y + card_height > pdf.h - _MARGIN - 6:
            pdf.add_page()
            y = pdf.get_y()
        x = _MARGIN + col * (size + gap)
        pdf.qr(card.url, x, y, size)
        pdf.set_xy(x, y + size)
        pdf.set_font(FONT_FAMILY, size=12)
        pdf.cell(size, 6, _fit(pdf, card.heading, size), align="C")
        pdf.set_xy(x, y + size + 6)
        pdf.set_font(FONT_FAMILY, size=8)
        pdf.set_text_color(*_MUTED)
        pdf.cell(size, 4, _fit(pdf, card.caption, size), align="C")
        pdf.set_text_color(*_INK)
    return _output(pdf)


def table_pdf(
    *,
    title: str,
    subtitle: str,
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    paper: Paper = "a4",
    footer: str = "Knock",
    widths: Sequence[float] = (),
) -> bytes:
    """A titled table over as many pages as it needs, the header repeated on each page.
    ``widths`` are relative (they are scaled to the page); equal columns without them."""
    if any(len(r) != len(headers) for r in rows):
        raise ValueError("every row needs one cell per header")
    pdf = _Document(paper=paper, title=title, footer=footer)
    pdf.add_page()
    pdf.heading(title)
    if subtitle:
        pdf.line_of(subtitle, muted=True)
    pdf.ln(3)
    usable = pdf.w - 2 * _MARGIN
    scaled: tuple[float, ...] = ()
    if widths:
        total = float(sum(widths))
        scaled = tuple(usable * w / total for w in widths)
    pdf.draw_table(_Table(tuple(headers), tuple(tuple(r) for r in rows), scaled))
    return _output(pdf)
