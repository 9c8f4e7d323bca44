"""Entries typed per family: a field that does not apply to the match's family is a 400 naming it,
and nothing is stored; the kinds of entry read back as the payload they were given.
"""

from __future__ import annotations

import pytest

from core.errors import ApplicationError
from scoring.models import HandSubmission
from scoring.services import (
    DeadHand,
    GemDefenderEntry,
    GemThreeEntry,
    PartnershipEntry,
    RummyEntry,
    TwoPlayerEntry,
    entry_from_dict,
)
from tests.scoring.conftest import players

pytestmark = pytest.mark.django_db

KNOCK = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}


def test_a_two_player_body_with_a_rummy_field_is_refused_naming_it(make_event, director_api_for):
    event = make_event("standard")
    api = director_api_for(event)
    m = api.start(event, players(event, 2))["id"]
    refused = api.hand(m, expect=400, **KNOCK, went_out=1)
    assert refused["field"] == "went_out"
    assert refused["detail"] == "went_out does not apply to a two-player hand."
    refused = api.hand(m, expect=400, **KNOCK, defenders=[{"defender_deadwood": 3}])
    assert refused["field"] == "defenders"
    assert not HandSubmission.objects.filter(hand__game__match_id=m).exists()
    assert api.hand(m, **KNOCK)["points"] == 20  # the same hand without it is scored


def test_a_partnership_body_with_a_top_level_count_is_refused(make_event, director_api_for):
    event = make_event("partnership")
    api = director_api_for(event)
    m = api.start(event, players(event, 4))["id"]
    board = {"knocker": 0, "defender": 1, "outcome": "knock"}
    refused = api.hand(
        m,
        expect=400,
        knocker_deadwood=5,
        boards=[
            {**board, "knocker_deadwood": 5, "defender_deadwood": 25},
            {"knocker": 3, "defender": 2, "outcome": "gin", "knocker_deadwood": 0},
        ],
    )
    assert (refused["field"], refused["detail"]) == (
        "knocker_deadwood",
        "knocker_deadwood does not apply to a partnership hand.",
    )
    assert api.hand(m, outcome="dead")["outcome"] == "dead"  # a dead hand is the same in all


def test_a_rummy_body_with_a_knock_field_and_gem_three_with_the_discard(
    make_event, director_api_for
):
    event = make_event("rummy")
    api = director_api_for(event)
    m = api.start(event, players(event, 3))["id"]
    refused = api.hand(m, expect=400, went_out=0, leftovers={"1": 7, "2": 3}, upcard="7H")
    assert (refused["field"], refused["detail"]) == (
        "upcard",
        "upcard does not apply to a Basic Rummy hand.",
    )
    refused = api.hand(m, expect=400, outcome="dead")
    assert refused["field"] == "outcome"

    gem = make_event("gem")
    api = director_api_for(gem)
    g = api.start(gem, players(gem, 3))["id"]
    refused = api.hand(
        g,
        expect=400,
        knocker=0,
        knock_limit=5,
        knocker_deadwood=4,
        taken_from_discard="7H",
        defenders=[{"outcome": "knock", "defender_deadwood": 30}] * 2,
    )
    assert refused["field"] == "taken_from_discard"
    assert "staircase discard pile" in refused["detail"]
    refused = api.hand(
        g,
        expect=400,
        knocker=0,
        knock_limit=5,
        knocker_deadwood=4,
        defenders=[{"outcome": "knock", "defender_deadwood": 30}, {"outcome": "knock"}],
        defender_deadwood=3,
    )
    assert refused["field"] == "defender_deadwood"


def test_entries_read_as_their_kind_and_give_back_their_payload():
    two = entry_from_dict({**KNOCK, "rummy": False, "boards": [], "hand_number": 3})
    assert two == TwoPlayerEntry(**KNOCK)
    assert two.as_payload() == {"outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}
    assert entry_from_dict({"outcome": "dead", "upcard": "7S"}) == DeadHand(upcard="7S")
    rummy = entry_from_dict({"went_out": 1, "rummy": True, "leftovers": {"0": "KS", "2": 4}})
    assert rummy == RummyEntry(went_out=1, rummy=True, leftovers={0: "KS", 2: 4})
    assert rummy.as_payload()["leftovers"] == {"0": "KS", "2": 4}
    three = entry_from_dict({"knocker": 1, "defenders": [{"outcome": "gin"}, {"defender": 2}]})
    assert three == GemThreeEntry(
        knocker=1, defenders=(GemDefenderEntry(outcome="gin"), GemDefenderEntry(defender=2))
    )
    pair = entry_from_dict({"boards": [KNOCK, {"knocker": 1, "defender": 2}]})
    assert isinstance(pair, PartnershipEntry)
    assert pair.boards[1] == TwoPlayerEntry(knocker=1, defender=2)


def test_a_nested_field_of_another_kind_is_named_with_its_place():
    with pytest.raises(ApplicationError) as caught:
        entry_from_dict({"boards": [KNOCK, {"knocker": 1, "went_out": 2}]})
    assert caught.value.field == "boards[1].went_out"
    with pytest.raises(ApplicationError) as caught:
        entry_from_dict(
            {"knocker": 0, "defenders": [{"defender": 1, "knocker_cards": "AS"}]},
            family="gem_three",
            prefix="hands[2].",
        )
    assert caught.value.field == "hands[2].defenders[0].knocker_cards"
    with pytest.raises(ApplicationError) as caught:
        entry_from_dict(KNOCK, family="rummy")
    assert caught.value.status == 400
    assert caught.value.field == "knocker"
