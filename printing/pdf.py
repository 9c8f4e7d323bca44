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

import re
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
    "column_widths",
    "header_layout",
    "qr_cards_pdf",
    "round_pdf",
    "table_pdf",
]

Paper = Literal["a4", "letter"]
PAPERS: tuple[Paper, ...] = ("a4", "letter")
FONT_FAMILY = "KnockGothicKR"
FONT_PATH = Path(__file__).resolve().parent / "fonts" / "KnockGothicKR-Regular.ttf"

_MARGIN = 15.0
_HEADER_MIN_SIZE = 6.0
_HEADER_SHRINK = 2.0  # points a header may lose to keep every cell on one line
_LABEL_LINES = 2
_LABEL_LEADING = 0.45  # a label's line height in mm per point of its size
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
    legend: tuple[str, ...] = ()


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

    def label(self, text: str, *, x: float, y: float, width: float, size: float) -> float:
        """``text`` centred under a QR code ``width`` wide: on one line, or wrapped onto two (a
        long name), the second cut with an ellipsis only if even that is not enough. Returns
        the height it took."""
        self.set_font(FONT_FAMILY, size=size)
        lines = _wrap(self, text, width - 2 * self.c_margin)
        if len(lines) > _LABEL_LINES:
            rest = lines[_LABEL_LINES - 1]
            for line in lines[_LABEL_LINES:]:  # rejoined as written: no space after a hyphen
                rest += line if rest.endswith("-") else " " + line
            lines = [*lines[: _LABEL_LINES - 1], rest]
        for i, line in enumerate(lines):
            self.set_xy(x, y + i * size * _LABEL_LEADING)
            self.cell(width, size * _LABEL_LEADING, _fit(self, line, width), align="C")
        return len(lines) * size * _LABEL_LEADING

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
        """The table with its header repeated on every page, then its legend (what the short
        headers stand for) in small type under it. Headers wrap at spaces and are never cut:
        see :func:`column_widths` and :func:`header_layout`."""
        usable = self.w - 2 * _MARGIN
        relative = table.widths or tuple(1.0 for _ in table.headers)
        widths = column_widths(
            self,
            headers=table.headers,
            rows=table.rows,
            relative=relative,
            usable=usable,
            size=size,
        )
        header_size, header_lines = header_layout(
            self, headers=table.headers, widths=widths, size=size
        )
        height = size * 0.6
        line_height = header_size * 0.45
        header_height = max(height, max(len(h) for h in header_lines) * line_height + 1.8)

        def header() -> None:
            x, y = self.l_margin, self.get_y()
            self.set_fill_color(234, 238, 241)
            self.rect(x, y, sum(widths), header_height, "F")
            self.set_font(FONT_FAMILY, size=header_size)
            for lines, w in zip(header_lines, widths, strict=True):
                for i, line in enumerate(lines):
                    self.set_xy(x, y + 0.9 + i * line_height)
                    self.cell(w, line_height, line)
                x += w
            self.set_draw_color(*_INK)
            self.line(
                self.l_margin, y + header_height, self.l_margin + sum(widths), y + header_height
            )
            self.set_xy(self.l_margin, y + header_height)
            self.set_font(FONT_FAMILY, size=size)

        if self.will_page_break(header_height + height):
            self.add_page()
        header()
        row_line = size * 0.45
        for row in table.rows:
            # A cell wider than its column wraps (a long name over two lines), never overprints
            # the next column nor ends cut: the row is as tall as its tallest cell.
            cells = [
                _wrap(self, text, w - 2 * self.c_margin)
                for text, w in zip(row, widths, strict=True)
            ]
            row_height = height + (max(len(c) for c in cells) - 1) * row_line
            if self.will_page_break(row_height):
                self.add_page()
                header()
            x, y = self.l_margin, self.get_y()
            for lines, w in zip(cells, widths, strict=True):
                for i, line in enumerate(lines):
                    self.set_xy(x, y + i * row_line)
                    self.cell(w, height, line)
                x += w
            self.set_draw_color(*_INK)
            self.line(self.l_margin, y + row_height, self.l_margin + sum(widths), y + row_height)
            self.set_xy(self.l_margin, y + row_height)
        if table.legend:
            self.ln(3)
            for line in table.legend:
                self.line_of(line, size=8, muted=True)


def column_widths(
    pdf: FPDF,
    *,
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    relative: Sequence[float],
    usable: float,
    size: float,
) -> tuple[float, ...]:
    """Widths (mm) that fill ``usable`` in the proportions of ``relative``, except that a column
    is widened to hold its longest header word and its widest cell at ``size`` points; the room
    is taken from the columns that have some to spare, so numbers and header words are not cut.
    Where whole cells do not fit, the table is laid out as a browser lays out an automatic
    table: each column gets at least its longest unbreakable piece (a number, a word, a name
    up to a hyphen) and the room left is shared in proportion to how much more each would
    need to print its cells on one line, so the name columns wrap and the numbers do not. The
    header words are measured a half point smaller at a time: to two points under ``size``
    for whole cells, to 6 for wrapped ones; failing all, the proportions stand and
    :func:`header_layout` and :func:`_wrap` break what still does not fit. Leaves ``pdf``'s
    font at ``size``."""
    pad = 2 * pdf.c_margin + 0.2
    total = float(sum(relative))
    widths = [usable * r / total for r in relative]
    pdf.set_font(FONT_FAMILY, size=size)
    columns = range(len(headers))
    whole = [max([pdf.get_string_width(r[i]) for r in rows] or [0.0]) for i in columns]
    pieces = [
        max([pdf.get_string_width(p) for r in rows for p in _pieces(r[i])] or [0.0])
        for i in columns
    ]
    sizes = [size - 0.5 * k for k in range(int((size - _HEADER_MIN_SIZE) / 0.5) + 1)]
    # Names on one line are not worth headers too small to read: whole cells only while the
    # header is within two points of the body, then wrapped cells at any header size.
    tries = [(whole, s) for s in sizes if s >= size - _HEADER_SHRINK] + [(pieces, s) for s in sizes]
    for cells, header_size in tries:
        pdf.set_font(FONT_FAMILY, size=header_size)
        words = [max([pdf.get_string_width(w) for w in h.split()] or [0.0]) for h in headers]
        least = [max(w, c) + pad for w, c in zip(words, cells, strict=True)]
        if cells is whole:
            fitted = _fill(widths, least, usable)
        else:
            most = [max(w, c) + pad for w, c in zip(words, whole, strict=True)]
            fitted = _share(least, most, usable)
        if fitted is not None:
            pdf.set_font(FONT_FAMILY, size=size)
            return fitted
    pdf.set_font(FONT_FAMILY, size=size)
    return tuple(widths)


def _share(least: list[float], most: list[float], usable: float) -> tuple[float, ...] | None:
    """Each column at ``least`` plus a share of the room left over in proportion to what it
    lacks of ``most`` (None when even ``least`` does not fit)."""
    extra = usable - sum(least)
    if extra < -1e-9:
        return None
    wants = [max(0.0, m - n) for m, n in zip(most, least, strict=True)]
    wanted = sum(wants)
    if wanted <= 1e-9:
        return tuple(n + extra / len(least) for n in least)
    return tuple(n + w * extra / wanted for n, w in zip(least, wants, strict=True))


_BREAK_AFTER_HYPHEN = re.compile(r"(?<=[^\W\d_]-)")


def _pieces(text: str) -> list[str]:
    """``text``'s unbreakable pieces: its words, and a hyphenated word's parts ("Featherstone-",
    "Worthington"); a number's minus sign ("-386") or a date ("2026-12-05") stays whole."""
    return [p for word in text.split() for p in _BREAK_AFTER_HYPHEN.split(word) if p]


def _fill(widths: list[float], need: list[float], usable: float) -> tuple[float, ...] | None:
    """``widths`` with each column widened to ``need``, the room taken from the columns wider
    than they need (in proportion to what they can spare); None when there is not room."""
    wanted = [max(w, n) for w, n in zip(widths, need, strict=True)]
    excess = sum(wanted) - usable
    if excess <= 1e-9:
        return tuple(widths)
    spare = [max(0.0, w - n) for w, n in zip(widths, need, strict=True)]
    room = sum(spare)
    if room < excess:
        return None
    return tuple(
        w_want - (s / room) * excess if s else w_want
        for w_want, s in zip(wanted, spare, strict=True)
    )


def _wrap(pdf: FPDF, text: str, width: float, *, at_hyphens: bool = True) -> list[str]:
    """``text`` broken at spaces (and after a hyphen inside a word, if ``at_hyphens``) into
    lines that fit ``width`` at the current font; a piece wider than ``width`` on its own is
    broken between characters (nothing is ever cut)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        for k, piece in enumerate(_pieces(word) if at_hyphens else [word]):
            while pdf.get_string_width(piece) > width and len(piece) > 1:
                if line:
                    lines.append(line)
                    line = ""
                cut = len(piece) - 1
                while cut > 1 and pdf.get_string_width(piece[:cut]) > width:
                    cut -= 1
                lines.append(piece[:cut])
                piece = piece[cut:]
            trial = f"{line}{' ' if k == 0 else ''}{piece}" if line else piece
            if line and pdf.get_string_width(trial) > width:
                lines.append(line)
                line = piece
            else:
                line = trial
    if line or not lines:
        lines.append(line)
    return lines


def header_layout(
    pdf: FPDF, *, headers: Sequence[str], widths: Sequence[float], size: float
) -> tuple[float, tuple[tuple[str, ...], ...]]:
    """The header row's font size and each header's lines: a header wraps at its spaces, and
    the size comes down by half points (to 6 at least) until every word fits its column, so no
    header is cut or runs into the next. Leaves ``pdf``'s font at the size returned."""
    current = size
    while True:
        pdf.set_font(FONT_FAMILY, size=current)
        fits = all(
            pdf.get_string_width(word) <= w - 2 * pdf.c_margin
            for head, w in zip(headers, widths, strict=True)
            for word in head.split()
        )
        if fits or current <= _HEADER_MIN_SIZE:
            break
        current -= 0.5
    lines = tuple(
        tuple(_wrap(pdf, head, w - 2 * pdf.c_margin, at_hyphens=False))
        for head, w in zip(headers, widths, strict=True)
    )
    return current, lines


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
    pdf.draw_table(_Table(headers, tuple(rows), (0.16, 0.62, 0.22)), size=12)
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
                pdf.label(seat.label, x=x, y=top + size + 1, width=size, size=11)
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
    # The name on two lines at most (a long one wraps), then the caption.
    name_height = _LABEL_LINES * 12 * _LABEL_LEADING
    card_height = size + name_height + 5
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
        used = pdf.label(card.heading, x=x, y=y + size, width=size, size=12)
        pdf.set_xy(x, y + size + used)
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
    legend: Sequence[str] = (),
    empty: str = "",
    size: float = 10,
) -> bytes:
    """A titled table over as many pages as it needs, the header repeated on each page, and
    ``legend`` (what its short headers stand for) in small type under it. ``widths`` are
    relative (they are scaled to the page, a column widened if a header word or a cell needs
    it); equal columns without them. With no rows and an ``empty`` line ("No results yet."),
    that line is printed instead of a header over nothing, as the event page does. ``size`` is
    the body's type size in points (a wall sheet is read from a step away)."""
    if any(len(r) != len(headers) for r in rows):
        raise ValueError("every row needs one cell per header")
    pdf = _Document(paper=paper, title=title, footer=footer)
    pdf.add_page()
    pdf.heading(title)
    if subtitle:
        pdf.line_of(subtitle, muted=True)
    pdf.ln(3)
    if not rows and empty:
        pdf.line_of(empty, muted=True)
        return _output(pdf)
    pdf.draw_table(
        _Table(tuple(headers), tuple(tuple(r) for r in rows), tuple(widths), tuple(legend)),
        size=size,
    )
    return _output(pdf)
