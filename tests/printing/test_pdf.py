"""The PDF builders (no database): pages, paper sizes, the embedded Korean font, QR codes."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from pypdf import PdfReader

from printing.pdf import (
    FONT_PATH,
    QrCard,
    SeatSlip,
    TableSlip,
    qr_cards_pdf,
    round_pdf,
    table_pdf,
)

A3: Any = "a3"
URL = "https://knock.example/l/#" + "a" * 32


def _reader(content: bytes) -> PdfReader:
    assert content.startswith(b"%PDF-")
    return PdfReader(io.BytesIO(content))


def _embedded_fonts(content: bytes) -> list[bytes]:
    return re.findall(rb"/BaseFont\s*/([A-Z]{6}\+[A-Za-z-]+)", content)


def _slip(n: int, *, urls: bool = True) -> TableSlip:
    return TableSlip(
        heading=f"테이블 {n}",
        pairing="김민준 vs Bao",
        seats=(
            SeatSlip("1 · 김민준", URL if urls else None),
            SeatSlip("2 · Bao", URL.replace("a", "b") if urls else None),
        ),
        rules=("목표 100점", "녹 한도 10"),
    )


@pytest.mark.parametrize(("paper", "width"), [("a4", 595), ("letter", 612)])
def test_round_pdf_has_the_list_and_one_page_per_table(paper, width):
    content = round_pdf(
        title="봄 오픈 · 라운드 2",
        subtitle="",
        headers=("테이블", "선수", "좌석"),
        rows=[("1", "김민준 vs Bao", "1 · 2"), ("2", "Cleo vs 이서연", "1 · 2")],
        slips=[_slip(1), _slip(2, urls=False)],
        paper=paper,
    )
    reader = _reader(content)
    assert len(reader.pages) == 3
    assert round(float(reader.pages[0].mediabox.width)) == width
    assert "김민준 vs Bao" in reader.pages[1].extract_text()
    assert "테이블 2" in reader.pages[2].extract_text()
    # The Korean font travels inside the file, as a subset (no system font needed to read it).
    assert _embedded_fonts(content)
    assert all(name.endswith(b"KnockGothicKR") for name in _embedded_fonts(content))
    assert b"/FontFile2" in content


def test_a_slip_without_links_draws_no_qr_code():
    with_codes = round_pdf(
        title="t", subtitle="", headers=("a", "b", "c"), rows=[], slips=[_slip(1)]
    )
    without = round_pdf(
        title="t", subtitle="", headers=("a", "b", "c"), rows=[], slips=[_slip(1, urls=False)]
    )

    # Each dark run of a QR code is one filled rectangle: hundreds of them per code.
    def rects(content: bytes) -> int:
        return _reader(content).pages[1].get_contents().get_data().count(b" re")

    assert rects(with_codes) - rects(without) > 200


def test_unknown_paper_is_refused():
    with pytest.raises(ValueError):
        table_pdf(title="t", subtitle="", headers=["a"], rows=[["1"]], paper=A3)


def test_table_pdf_repeats_over_pages_and_checks_rows():
    rows = [[str(i), f"선수 {i}", "3"] for i in range(120)]
    reader = _reader(table_pdf(title="순위", subtitle="", headers=["#", "선수", "점"], rows=rows))
    assert len(reader.pages) >= 2
    assert "선수 119" in "".join(p.extract_text() for p in reader.pages)
    with pytest.raises(ValueError):
        table_pdf(title="t", subtitle="", headers=["a", "b"], rows=[["1"]])


def test_qr_cards_flow_onto_new_pages():
    cards = [
        QrCard(f"선수 {i}", "체크인", f"https://knock.example/checkin/#{i}") for i in range(13)
    ]
    reader = _reader(qr_cards_pdf(title="체크인", subtitle="", cards=cards, paper="letter"))
    assert len(reader.pages) >= 2
    text = "".join(p.extract_text() for p in reader.pages)
    assert "선수 12" in text


def test_the_font_file_is_in_the_package_with_its_licence():
    assert FONT_PATH.is_file()
    assert FONT_PATH.stat().st_size < 2_000_000
    licence = (FONT_PATH.parent / "OFL.txt").read_text()
    assert "SIL OPEN FONT LICENSE" in licence
