"""Dates and times read the reader's way: Korean puts 오전/오후 before the time ("오후 3:53"),
and no template writes a fixed format (`Y-m-d`, `H:i`) that ignores the reader's language."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

from django.conf import settings
from django.template import Context, Template
from django.utils import translation

WHEN = datetime.datetime(2026, 12, 4, 15, 53)
TEMPLATE = Template(
    '{{ t|date:"DATETIME_FORMAT" }}|{{ t|date:"SHORT_DATETIME_FORMAT" }}|'
    '{{ t|time:"TIME_FORMAT" }}|{{ t|date:"DATE_FORMAT" }}'
)


def test_korean_writes_the_time_of_day_before_the_time() -> None:
    with translation.override("ko"):
        text = TEMPLATE.render(Context({"t": WHEN}))
    assert text == "2026년 12월 4일 오후 3:53|2026. 12. 4. 오후 3:53|오후 3:53|2026년 12월 4일"
    assert "3:53 오후" not in text


def test_english_keeps_the_24_hour_clock_its_pages_always_had() -> None:
    with translation.override("en"):
        text = TEMPLATE.render(Context({"t": WHEN}))
    assert text == "Dec. 4, 2026, 15:53|2026-12-04 15:53|15:53|Dec. 4, 2026"


def test_no_template_hard_codes_a_date_or_time_format() -> None:
    """A format in a template is a named one (DATE_FORMAT ...) or the machine-readable ``c`` of a
    ``datetime`` attribute."""
    fixed = re.compile(r"""\|(?:date|time):\s*["'](?![A-Z_]+_FORMAT["']|c["'])""")
    found = [
        f"{path.relative_to(settings.BASE_DIR)}: {m.group(0)}"
        for path in Path(settings.BASE_DIR, "templates").rglob("*.html")
        for m in fixed.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []
