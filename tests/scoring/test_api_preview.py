"""POST /api/matches/{id}/hands/preview/: the engine's answer for the next hand, nothing stored."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from engine.rules import find_rules
from scoring.models import HandSubmission
from scoring.services import match_link_token
from tests.clubs.factories import PlayerFactory
from tests.scoring.factories import MatchFactory
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db

KNOCKER = "AS 2S 3S 5H 6H 7H 9S 9D 9C KC"
DEFENDER = "8H 9H KS KH KD 2C 3C QS JD 5C"


@pytest.fixture(autouse=True)
def _fresh_throttle() -> None:
    cache.clear()


def _match(preset: str = "standard") -> Any:
    event = EventFactory(rules=find_rules(preset).to_dict(), confirmation="opponent")
    alice = PlayerFactory(club=event.club, name="Alice")
    bob = PlayerFactory(club=event.club, name="Bob")
    return MatchFactory(event=event, players=[alice, bob], table_number=3)


def _seat(match: Any, position: int | None = 0) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_MATCH_KEY=match_link_token(match=match, position=position))
    return client


def _preview(client: APIClient, match: Any, expect: int = 200, **body: Any) -> Any:
    response = client.post(f"/api/matches/{match.pk}/hands/preview/", body, format="json")
    assert response.status_code == expect, response.content
    return response.json()


def test_a_whole_hand_by_cards_is_scored_and_nothing_is_stored():
    match = _match()
    out = _preview(_seat(match), match, knocker=0, knocker_cards=KNOCKER, defender_cards=DEFENDER)
    assert out["problem"] is None
    assert out["hand_number"] == 1
    assert out["entry"] == "cards"
    verdict = out["verdict"]
    assert verdict["outcome"] == "knock"
    assert verdict["winner"] == 0
    assert verdict["points"] == 20
    assert verdict["knocker_melds"] == ["AS 2S 3S", "5H 6H 7H", "9S 9D 9C"]
    assert {lo["card"] for lo in verdict["layoffs"]} == {"8H", "9H"}
    assert verdict["formula"]
    assert "scored" not in verdict
    assert out["knocker"] == {
        "cards": 10,
        "melds": ["AS 2S 3S", "5H 6H 7H", "9S 9D 9C"],
        "deadwood_cards": "KC",
        "deadwood": 10,
    }
    assert out["defender"]["melds"] == ["KS KH KD"]
    assert not HandSubmission.objects.exists()


def test_an_unfinished_hand_shows_the_melds_so_far_and_why_it_is_not_a_hand_yet():
    match = _match()
    out = _preview(_seat(match), match, knocker=0, knocker_cards="7H 7D 7C 2S", defender_cards="")
    assert out["verdict"] is None
    assert out["problem"]["detail"]
    assert out["knocker"] == {
        "cards": 4,
        "melds": ["7H 7D 7C"],
        "deadwood_cards": "2S",
        "deadwood": 2,
    }
    assert out["defender"] is None


def test_typed_spellings_are_read_as_on_the_page():
    match = _match()
    out = _preview(
        _seat(match),
        match,
        knocker=0,
        knocker_cards="스페이드 A s2 ♠3 H5 6하트 7h 9s 다이아 9 클럽 9 K클로버",
        defender_cards=DEFENDER,
    )
    assert out["verdict"]["points"] == 20


def test_a_knock_over_the_limit_is_a_problem_named_at_its_field():
    match = _match()
    out = _preview(
        _seat(match),
        match,
        knocker=0,
        outcome="knock",
        knocker_deadwood=12,
        defender_deadwood=30,
    )
    assert out["verdict"] is None
    assert "Knock over the limit" in out["problem"]["detail"]
    assert out["problem"]["field"] == "knocker_deadwood"
    assert out["knocker"] is None


def test_counts_preview_gives_points_and_formula():
    match = _match()
    out = _preview(
        _seat(match), match, knocker=0, outcome="knock", knocker_deadwood=5, defender_deadwood=25
    )
    assert out["entry"] == "counts"
    assert out["verdict"]["points"] == 20
    assert out["verdict"]["formula"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"knocker": 0, "knocker_cards": "AS ZZ", "defender_cards": ""}, "knocker_cards"),
        ({"knocker": 0, "knocker_cards": "AS AS", "defender_cards": ""}, "knocker_cards"),
        ({"knocker": 0, "knocker_cards": "AS 2S", "defender_cards": "as"}, "defender_cards"),
        ({"went_out": 0}, "went_out"),
    ],
)
def test_input_that_cannot_be_read_is_a_400_naming_the_field(body, field):
    match = _match()
    out = _preview(_seat(match), match, 400, **body)
    assert out["field"] == field
    assert out["detail"]


def test_a_bad_type_is_a_400():
    match = _match()
    out = _preview(_seat(match), match, 400, knocker="zero")
    assert "knocker" in out


def test_a_stranger_gets_404_and_a_finished_match_409():
    match = _match()
    _preview(APIClient(), match, 404, knocker=0)
    match.decision = "walkover"
    match.save(update_fields=["decision"])
    _preview(_seat(match), match, 409, knocker=0)


def test_previews_are_rate_limited_per_person(monkeypatch):
    from scoring.apis.preview import PreviewThrottle

    monkeypatch.setattr(PreviewThrottle, "THROTTLE_RATES", {"preview": "3/min"})
    match = _match()
    alice, bob = _seat(match, 0), _seat(match, 1)
    for _ in range(3):
        _preview(alice, match, knocker=0)
    _preview(alice, match, 429)
    # the other player, from the same address, has a budget of their own
    _preview(bob, match, knocker=0)
