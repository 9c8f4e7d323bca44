"""The Korean catalogue speaks with one voice: each term of docs/glossary-ko.md is translated by
its one Korean word, "Knock" takes the particles of a vowel-final word, nobody is called 당신, and
no fixed particle follows a placeholder (the word that fills it decides the particle)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.core.po import Entry, po_entries

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "ko" / "LC_MESSAGES" / "django.po"
GLOSSARY = ROOT / "docs" / "glossary-ko.md"

# (msgid, English form): a msgid that uses the term's English word in another sense, or whose
# Korean says the term another way on purpose.
ALLOWED: dict[tuple[str, str], str] = {
    ("best of %(n)s (first to %(wins)s)", "best of"): "a match's own format: 5판 3선승제",
    ("Round of %(n)s", "round"): "a bracket round is named by its players: 8강",
    ("Hand the phone to %(names)s to confirm.", "confirm"): "said 확인을 받으세요",
    (
        "The %(rules)s rules seat %(wanted)s players, not %(count)s.",
        "seat",
    ): "to seat is 앉다, not a seat",
    (
        "A dead hand is dead for all three players: enter it once, with no pairings",
        "pairings",
    ): "the knocker's pairings with each defender (대전), not a round's",
}

# Placeholders, 'quoted' code values and snake_case names are not English words of the text.
_CODE = re.compile(
    r"%\([^)]+\)[sd]|%%\([^)]+\)[sd]|\{[A-Za-z_]\w*\}|(?<!\w)'[^'\s]*'|\b[a-z0-9]+(?:_[a-z0-9]+)+\b"
)
_PLACEHOLDER = r"(?:%\([^)]+\)[sd]|\{[A-Za-z_]\w*\})"
# A particle written right after a placeholder, ended by a space, punctuation or the end.
_PARTICLE = (
    r"(?:이어야|여야|이라는|라는|이라고|이라서|으로|이나|이며|이면|이고"
    r"|은|는|이|가|을|를|로|과|와|나|야)"
)
FIXED_PARTICLE = re.compile(_PLACEHOLDER + "(" + _PARTICLE + r")(?=$|[\s.,:;!?)\]’”'\"·—-])")
KNOCK_PARTICLE = re.compile(r"Knock(?:은|이|을|과|으로)(?![A-Za-z])")


@dataclass(frozen=True)
class Term:
    english: str
    forms: tuple[str, ...]
    korean: str


def glossary(text: str) -> list[Term]:
    """The checked terms of the glossary's table (rows with English forms)."""
    terms = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("English", "---") or not line.startswith("|"):
            continue
        english, forms, korean, _notes = cells
        if forms:
            terms.append(Term(english, tuple(f.strip() for f in forms.split(",")), korean))
    return terms


def _uses(msgid: str, form: str) -> bool:
    text = _CODE.sub(" ", msgid)
    pattern = r"(?<![\w'-])" + re.escape(form).replace(r"\ ", r"\s+") + r"(?!\w)"
    if form.startswith("'"):  # "'s count": after a name
        pattern = re.escape(form) + r"\b"
    return re.search(pattern, text, re.IGNORECASE) is not None


def glossary_problems(entries: list[Entry], terms: list[Term]) -> list[str]:
    problems = []
    for e in entries:
        for term in terms:
            for form in term.forms:
                if (e.msgid, form) in ALLOWED:
                    continue
                if _uses(e.msgid, form) or (e.msgid_plural and _uses(e.msgid_plural, form)):
                    wrong = [s for s in e.msgstrs if term.korean not in s]
                    if wrong:
                        problems.append(
                            f"{term.english} -> {term.korean}: {e.msgid!r} -> {wrong[0]!r}"
                        )
                    break
    return problems


def voice_problems(entries: list[Entry]) -> list[str]:
    problems = []
    for e in entries:
        for s in e.msgstrs:
            for m in FIXED_PARTICLE.finditer(s):
                problems.append(f"fixed particle {m.group(0)!r}: {e.msgid!r} -> {s!r}")
            if KNOCK_PARTICLE.search(s):
                problems.append(f"Knock is 노크, a vowel-final word: {s!r}")
            if "당신" in s:
                problems.append(f"당신: {s!r}")
            if "선수" in s:
                problems.append(f"a player is 플레이어, not 선수: {s!r}")
            if re.fullmatch(r"set", e.msgid) and s != "세트":
                problems.append(f"set -> 세트: {s!r}")
    return problems


@pytest.fixture(scope="module")
def entries() -> list[Entry]:
    return [e for e in po_entries(PO.read_text(encoding="utf-8")) if e.msgid]


@pytest.fixture(scope="module")
def terms() -> list[Term]:
    return glossary(GLOSSARY.read_text(encoding="utf-8"))


def test_the_glossary_is_read(terms: list[Term]) -> None:
    assert len(terms) > 30
    assert Term("withdraw (an entry, an invitation)", ("withdraw", "withdraws", "withdrew",
                "withdrawn"), "철회") in terms  # fmt: skip


def test_every_glossary_term_has_its_one_korean_word(
    entries: list[Entry], terms: list[Term]
) -> None:
    assert glossary_problems(entries, terms) == []


def test_knock_takes_vowel_particles_no_placeholder_a_fixed_one_and_no_dangsin(
    entries: list[Entry],
) -> None:
    assert voice_problems(entries) == []


def test_one_space_before_a_parenthesis(entries: list[Entry]) -> None:
    fallback = re.compile(r"이\(가\)|은\(는\)|을\(를\)|과\(와\)|와\(과\)|\(으\)로|\(이\)")
    tight = [
        s
        for e in entries
        for s in e.msgstrs
        if "from_mapping(" not in s
        and re.search(r"[가-힣A-Za-z0-9}]\(", fallback.sub("", _CODE.sub(" x", s)))
    ]
    assert tight == []


@pytest.mark.parametrize(
    ("msgid", "msgstr", "problem"),
    [
        ("Back to Knock", "Knock으로 돌아가기", "Knock"),
        ("%(n)s points", "%(n)s로", "fixed particle"),
        ("must be 0-{last}", "0-{last}여야 합니다", "fixed particle"),
        ("You are %(names)s.", "당신은 %(names)s입니다.", "당신"),
    ],
)
def test_the_voice_check_catches_what_the_native_reading_found(
    msgid: str, msgstr: str, problem: str
) -> None:
    found = voice_problems([Entry(msgid=msgid, msgstrs=[msgstr])])
    assert found
    assert problem in found[0]


def test_the_glossary_check_catches_a_second_word(terms: list[Term]) -> None:
    wrong = [
        Entry(msgid="Withdraw", msgstrs=["입력 취소"]),
        Entry(msgid="Match points", msgstrs=["매치 포인트"]),
        Entry(msgid="club night", msgstrs=["클럽 나이트"]),
        Entry(msgid="Sonneborn-Berger", msgstrs=["소네본-베르거"]),
    ]
    assert len(glossary_problems(wrong, terms)) == 4
    right = [Entry(msgid="Withdraw", msgstrs=["철회"]), Entry(msgid="%(knocker)s", msgstrs=["x"])]
    assert glossary_problems(right, terms) == []
