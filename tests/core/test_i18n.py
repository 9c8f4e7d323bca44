"""Engine messages in the user's language: the translator, the catalogue and the API's 400s."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from django.utils import translation

from core.i18n import engine_message
from engine.errors import CardError, KnockError, Message
from engine.rules import find_rules
from engine.scoring import HandOutcome, score_hand, score_hand_counts
from tests.scoring.conftest import client_for, players
from tests.scoring.factories import event_director
from tests.tournaments.factories import EventFactory

ENGINE = Path(__file__).resolve().parents[2] / "engine"
SAME_IN_KOREAN = {
    "{first}, {rest}",
    "{first}; {rest}",
    "{sum} = {points}",
    "{label}: {reason}",
    "  {line}",
}


def _engine_templates() -> set[str]:
    found: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "gettext_noop"
            ):
                arg = node.args[0]
                assert isinstance(arg, ast.Constant)
                assert isinstance(arg.value, str)
                found.add(arg.value)
    return found


def _fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def _over_the_limit() -> KnockError:
    with pytest.raises(KnockError) as info:
        score_hand_counts(
            find_rules("standard"),
            outcome=HandOutcome.KNOCK,
            knocker_deadwood=12,
            defender_deadwood=30,
        )
    return info.value


def test_every_engine_template_has_a_korean_translation_with_the_same_placeholders() -> None:
    templates = _engine_templates()
    assert len(templates) > 150
    missing, wrong = [], []
    with translation.override("ko"):
        for template in sorted(templates):
            korean = translation.gettext(template)
            if korean == template and template not in SAME_IN_KOREAN:
                missing.append(template)
            elif _fields(korean) != _fields(template):
                wrong.append(template)
    assert missing == []
    assert wrong == []


def test_engine_message_in_korean_names_the_numbers() -> None:
    error = _over_the_limit()
    assert engine_message(error) == str(error)  # English is the default language
    with translation.override("ko"):
        korean = engine_message(error)
    assert korean == "한도를 넘은 노크: 데드우드 12 > 10 (한도 10)"


def test_nested_messages_are_translated_inside_out() -> None:
    with pytest.raises(Exception) as info:
        score_hand(
            find_rules("standard"),
            knocker_cards="AS 2S 3S 5H 6H 7H 9S 9D 9C KC",
            defender_cards="8H 9H KS KH KD 2C 3C QS JD 5C",
            knocker_melds="AS 2S 5H",
        )
    with translation.override("ko"):
        korean = engine_message(info.value)
    assert korean.startswith("노커의 멜드: AS 2S 5H는 멜드가 아닙니다: 세트가 아니고 (")
    assert "knocker" not in korean


def test_untranslated_or_broken_templates_fall_back_to_english(monkeypatch) -> None:
    plain = CardError("no such template {x}")
    unknown = CardError("no such template {x}", x=1)
    with translation.override("ko"):
        assert engine_message(plain) == "No such template {x}"  # a refusal starts with a capital
        assert engine_message(unknown) == "No such template 1"
    assert engine_message(Message("")) == ""
    # A catalogue entry whose placeholder is misspelt must not fail the request.
    error = _over_the_limit()
    monkeypatch.setattr("core.i18n.gettext", lambda template: "{misspelt} {0}")
    assert engine_message(error) == "Knock over the limit: deadwood 12 > 10 (limit 10)"


@pytest.mark.django_db
def test_api_refuses_a_knock_over_the_limit_in_korean() -> None:
    event = EventFactory(rules=find_rules("standard").to_dict(), confirmation="none")
    api = client_for(event_director(event))
    match_id = api.start(event, players(event, 2))["id"]
    body = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 12, "defender_deadwood": 30}
    with translation.override("ko"):
        refused = api.hand(match_id, expect=400, headers={"Accept-Language": "ko"}, **body)
    assert refused["detail"] == "한도를 넘은 노크: 데드우드 12 > 10 (한도 10)"
    assert refused["field"] == "knocker_deadwood"
    english = api.hand(match_id, expect=400, headers={"Accept-Language": "en"}, **body)
    assert english["detail"] == "Knock over the limit: deadwood 12 > 10 (limit 10)"
