"""Korean particles chosen by the final sound of the word before them (core.i18n)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from core.errors import ApplicationError
from core.i18n import final_sound, particle, with_particles
from tournaments.pairing_messages import pairing_error_text


@pytest.mark.parametrize(
    ("word", "sound"),
    [
        ("가람", "C"),  # ㅁ
        ("나래", ""),
        ("서울", "ㄹ"),
        ("민준", "C"),
        ("Bao", ""),  # o read as 오
        ("Dan", "C"),  # 댄
        ("Paul", "ㄹ"),  # 폴
        ("King", "C"),  # 킹
        ("Mark", ""),  # 마크
        ("AS", ""),  # 에이에스
        ("MP", ""),  # 엠피
        ("10H", ""),  # 에이치
        ("0", "C"),  # 영
        ("1", "ㄹ"),  # 일
        ("2", ""),  # 이
        ("3", "C"),  # 삼
        ("6", "C"),  # 육
        ("7", "ㄹ"),  # 칠
        ("8", "ㄹ"),  # 팔
        ("9", ""),  # 구
        ("10", "C"),  # 십
        ("20", "C"),  # 이십
        ("100", "C"),  # 백
        ("1000", "C"),  # 천
        ("10000", "C"),  # 만
        ("1000000000000", ""),  # 조
        ("15", ""),  # 십오
        ("'knock_limit'", ""),  # quotes are skipped: t read as 티
        ('"가람"', "C"),
        ("Bao (guest)", ""),  # 게스트
        ("", None),
        ("...", None),
        ("田中", None),  # another script: not read
    ],
)
def test_final_sound(word: str, sound: str | None) -> None:
    assert final_sound(word) == sound


@pytest.mark.parametrize(
    ("word", "pair", "expected"),
    [
        ("Bao", "이/가", "Bao가"),
        ("Dan", "이/가", "Dan이"),
        ("가람", "은/는", "가람은"),
        ("나래", "은/는", "나래는"),
        ("가람", "을/를", "가람을"),
        ("나래", "을/를", "나래를"),
        ("가람", "과/와", "가람과"),
        ("나래", "과/와", "나래와"),
        ("가람", "으로/로", "가람으로"),
        ("나래", "으로/로", "나래로"),
        ("서울", "으로/로", "서울로"),  # ㄹ takes 로
        ("Paul", "으로/로", "Paul로"),
        ("7", "으로/로", "7로"),  # 칠로
        ("3", "으로/로", "3으로"),  # 삼으로
        ("서울", "이/가", "서울이"),  # ㄹ is a consonant for every other pair
        ("가람", "이에요/예요", "가람이에요"),
        ("나래", "이에요/예요", "나래예요"),
        ("田中", "이/가", "田中이(가)"),  # unreadable: both forms
        ("田中", "으로/로", "田中(으)로"),
    ],
)
def test_particle(word: str, pair: str, expected: str) -> None:
    assert particle(word, pair) == expected


def test_particle_refuses_an_unknown_pair() -> None:
    with pytest.raises(ValueError, match="unknown particle pair"):
        particle("가람", "에/에게")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Bao이(가) 입력했습니다.", "Bao가 입력했습니다."),
        ("Dan이(가) 입력했습니다.", "Dan이 입력했습니다."),
        ("카드 AS이(가) 두 번 나옵니다", "카드 AS가 두 번 나옵니다"),
        ('"knock_limit"은(는) 5이(가) 아니라', '"knock_limit"는 5가 아니라'),
        ("{5}(으)로 올림 · 3(으)로 · 서울(으)로", "{5}로 올림 · 3으로 · 서울로"),
        ("가람(이)라는 계정 · 나래(이)라는 계정", "가람이라는 계정 · 나래라는 계정"),
        ("가람와(과) 나래과(와) 민준", "가람과 나래와 민준"),
        ("셋이 아니고(런도 아님)", "셋이 아니고(런도 아님)"),  # not a fallback
        ("이(가) 앞에 단어가 없음", "이(가) 앞에 단어가 없음"),
        ("田中이(가) 입력했습니다", "田中이(가) 입력했습니다"),
        ("Bao entered (by counts).", "Bao entered (by counts)."),
    ],
)
def test_with_particles(text: str, expected: str) -> None:
    assert with_particles(text) == expected


def test_template_filters() -> None:
    template = Template(
        '{% load knock_i18n %}{{ name|particle:"이/가" }} '
        "{% filter particles %}{{ who }}을(를){% endfilter %}"
    )
    assert template.render(Context({"name": "Bao", "who": "가람"})) == "Bao가 가람을"


def test_application_errors_choose_their_particles() -> None:
    with translation.override("ko"):
        from django.utils.translation import gettext

        text = gettext("%(player)s is already registered.") % {"player": "Bao"}
    assert "이(가)" in text or "은(는)" in text  # the catalogue writes the fallback
    assert "(" not in ApplicationError(text).message
    assert ApplicationError(text).message.startswith("Bao")


def test_a_blocked_round_names_the_player_with_the_right_particle() -> None:
    with translation.override("ko"):
        text = pairing_error_text(number=3, code="player_blocked", params={}, player_name="Bao")
    assert "Bao" in text
    assert not any(fallback in text for fallback in ("(가)", "(는)", "(를)"))


def test_the_pending_box_names_the_player_with_nim() -> None:
    """On the match screen a player is named with 님, as every notice there does; 님 takes
    no particle of the name's, so none is left to choose."""
    template = Template(
        "{% load i18n knock_i18n %}{% filter particles %}{% blocktranslate with who=name %}"
        "Entered by {{ who }}.{% endblocktranslate %}{% endfilter %}"
    )
    with translation.override("ko"):
        assert template.render(Context({"name": "Bao"})) == "Bao 님이 입력했습니다."
    with translation.override("en"):
        assert template.render(Context({"name": "Bao"})) == "Entered by Bao."


def test_every_fallback_in_the_catalogue_follows_a_placeholder() -> None:
    """A fallback after fixed Korean text would be the translator's to choose; after a
    placeholder it is chosen once the text is filled in (engine messages, application errors,
    pairing failures and ``{% filter particles %}`` blocks)."""
    po = Path(__file__).resolve().parents[2] / "locale" / "ko" / "LC_MESSAGES" / "django.po"
    text = po.read_text(encoding="utf-8")
    fallback = re.compile(r"이\(가\)|은\(는\)|을\(를\)|\(으\)로|와\(과\)|과\(와\)|\(이\)")
    placeholder_end = re.compile(r"(\{[a-z_]+\}|%\([a-z_]+\)[sd])['\"\\]*$")
    found = 0
    for block in text.split("\n\n"):
        if "msgstr" not in block:
            continue
        translated = block.split("msgstr", 1)[1]
        msgstr = "".join(re.findall(r'^(?:\[\d\])?\s*"(.*)"$', translated, re.M))
        for match in fallback.finditer(msgstr):
            found += 1
            assert placeholder_end.search(msgstr[: match.start()]), (msgstr, match.group(0))
    assert found > 90  # the check reads the catalogue's fallbacks
