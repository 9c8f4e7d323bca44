"""A verdict's formula is stored as structure and worded in the reader's language when shown."""

from __future__ import annotations

from django.utils import translation

from engine.cards import parse_card
from engine.errors import Message
from engine.rules import find_rules
from engine.scoring import HandOutcome, score_hand, score_hand_counts
from scoring.views.match_context import explanation_text, formula_text


def _verdict() -> dict[str, object]:
    result = score_hand_counts(
        find_rules("oklahoma"),
        outcome=HandOutcome.KNOCK,
        knocker_deadwood=4,
        defender_deadwood=20,
        upcard=parse_card("5S"),  # limit 5, and a spade doubles the hand
    )
    return {"formula": result.formula(), "formula_message": result.formula_message().as_dict()}


def test_the_stored_message_round_trips() -> None:
    verdict = _verdict()
    data = verdict["formula_message"]
    assert isinstance(data, dict)
    assert str(Message.from_dict(data)) == verdict["formula"]


def test_the_formula_reads_in_korean_and_in_english() -> None:
    verdict = _verdict()
    with translation.override("en"):
        assert formula_text(verdict) == verdict["formula"]
    with translation.override("ko"):
        korean = formula_text(verdict)
    assert korean != verdict["formula"]
    assert "defender" not in korean
    assert "knocker" not in korean
    assert "수비자" in korean


def test_a_verdict_stored_before_the_structure_shows_its_english_text() -> None:
    with translation.override("ko"):
        assert formula_text({"formula": "defender 20 − knocker 4 = 16"}) == (
            "defender 20 − knocker 4 = 16"
        )
        assert formula_text({}) == ""


def test_the_explanation_reads_in_korean_line_by_line() -> None:
    result = score_hand(
        find_rules("standard"),
        knocker_cards="AS 2S 3S 5H 6H 7H 9S 9D 9C KC",
        defender_cards="8H 9H KS KH KD 2C 3C QS JD 5C",
    )
    verdict = {
        "explanation": result.explain(),
        "explanation_messages": [line.as_dict() for line in result.explain_messages()],
    }
    with translation.override("en"):
        assert explanation_text(verdict) == result.explain()
    with translation.override("ko"):
        korean = explanation_text(verdict)
    assert korean.count("\n") == result.explain().count("\n")
    assert korean.startswith("노커 (엔진이 선택): 멜드 ")
    for english in ("Knocker", "Defender", "Deadwood", "Lay-offs", "scores", "knocker"):
        assert english not in korean
    with translation.override("ko"):
        assert explanation_text({"explanation": "Dead hand"}) == "Dead hand"
