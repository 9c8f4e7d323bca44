"""Rule sets and knock limits in the reader's language (core.i18n), on the event form too."""

from __future__ import annotations

import pytest
from django.utils import translation

from core.i18n import knock_limit_input, knock_limit_key, knock_limit_text, rules_name
from engine.rules import RULE_PRESETS, find_rules
from printing.services import rules_in_brief


def test_every_preset_has_a_name_in_both_languages() -> None:
    for key in [*RULE_PRESETS, "custom"]:
        with translation.override("en"):
            english = rules_name(key)
        with translation.override("ko"):
            korean = rules_name(key)
        assert english != key
        assert korean != english
        assert not any(c.isascii() and c.isalpha() for c in korean), korean
    assert rules_name("house-rules") == "house-rules"  # not a preset: shown as stored


def test_knock_limits_read_as_words() -> None:
    with translation.override("ko"):
        assert knock_limit_text("upcard") == "업카드로 정함"
        assert knock_limit_text("dice") == "주사위로 정함"
        assert knock_limit_text(10) == "10"
        assert knock_limit_input("upcard") == "업카드"
    with translation.override("en"):
        assert knock_limit_text("upcard") == "set by the upcard"
        assert knock_limit_input("dice") == "dice"
        assert knock_limit_input(7) == 7


@pytest.mark.parametrize(
    ("typed", "key"),
    [("업카드", "upcard"), ("upcard", "upcard"), ("Upcard", "upcard"), ("주사위", "dice"),
     ("dice", "dice"), ("lots", "lots")],
)  # fmt: skip
def test_a_knock_limit_typed_in_either_language(typed: str, key: str) -> None:
    with translation.override("ko"):
        assert knock_limit_key(typed) == key


def test_the_round_slip_prints_the_rule_sets_name_as_the_page_does() -> None:
    """The slip PDF read "규칙: standard" where the page says "표준"."""
    with translation.override("ko"):
        assert rules_in_brief(find_rules("standard").to_dict())[0] == "규칙: 표준"
    with translation.override("en"):
        assert rules_in_brief(find_rules("three-box").to_dict())[0] == "Rules: Three boxes"
