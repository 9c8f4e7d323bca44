"""The Korean catalogue is complete: every message translated, none fuzzy or obsolete, every
placeholder kept, and the compiled .mo in step with the .po."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from django.utils import translation

from tests.core.po import Entry, po_entries

PO = Path(__file__).resolve().parents[2] / "locale" / "ko" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
# %(name)s / %(n)d, bare %s / %d, and str.format fields such as {name} (engine templates).
PLACEHOLDER = re.compile(r"%\([^)]+\)[sdif]|%[sdif]|\{[A-Za-z_][A-Za-z0-9_]*\}")


@pytest.fixture(scope="module")
def entries() -> list[Entry]:
    parsed = po_entries(PO.read_text(encoding="utf-8"))
    return [e for e in parsed if e.msgid]  # the header has an empty msgid


def test_the_reader_sees_the_whole_catalogue(entries: list[Entry]) -> None:
    assert len(entries) > 900
    assert len(entries) == PO.read_text(encoding="utf-8").count("\nmsgid ") - 1


def test_no_korean_entry_is_untranslated(entries: list[Entry]) -> None:
    missing = [
        f"line {e.line}: {e.msgid!r}"
        for e in entries
        if not e.obsolete and (not e.msgstrs or any(not s for s in e.msgstrs))
    ]
    assert missing == []


def test_no_korean_entry_is_fuzzy_or_obsolete(entries: list[Entry]) -> None:
    assert [f"line {e.line}: {e.msgid!r}" for e in entries if "fuzzy" in e.flags] == []
    assert [f"line {e.line}: {e.msgid!r}" for e in entries if e.obsolete] == []


def test_every_placeholder_of_a_msgid_is_in_its_translation(entries: list[Entry]) -> None:
    wrong = []
    for e in entries:
        wanted = set(PLACEHOLDER.findall(e.msgid)) | set(PLACEHOLDER.findall(e.msgid_plural))
        for msgstr in e.msgstrs:
            got = set(PLACEHOLDER.findall(msgstr))
            # Plural forms may drop the count (Korean has one form), never add or rename one.
            if got - wanted or (wanted - got and not e.msgid_plural):
                wrong.append(f"line {e.line}: {e.msgid!r} -> {msgstr!r}")
    assert wrong == []


def test_the_compiled_catalogue_matches_the_po(entries: list[Entry]) -> None:
    with MO.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = []
    for e in entries:
        if e.msgid_plural:
            got = compiled.ngettext(e.msgid, e.msgid_plural, 1)
        elif e.msgctxt is not None:
            got = compiled.pgettext(e.msgctxt, e.msgid)
        else:
            got = compiled.gettext(e.msgid)
        if got != e.msgstrs[0]:
            stale.append(e.msgid)
    assert stale == [], "run compilemessages"


def test_django_serves_the_new_messages_in_korean() -> None:
    with translation.override("ko"):
        assert translation.gettext("Disputed hands") == "이의 제기된 핸드"
        assert translation.gettext("Sign-in locked") == "로그인 잠김"
        assert "%(reason)s" in translation.gettext(
            "Standings could not be computed: %(reason)s; the director has been told."
        )
