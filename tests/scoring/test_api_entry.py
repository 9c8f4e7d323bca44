"""Entering hands by cards, by counts and dead: the engine's verdict and its refusals."""

from __future__ import annotations

import pytest

from scoring.models import HandSubmission
from tests.scoring.conftest import players

pytestmark = pytest.mark.django_db

KNOCKER = "AS 2S 3S 5H 6H 7H 9S 9D 9C KC"
DEFENDER = "8H 9H KS KH KD 2C 3C QS JD 5C"


@pytest.fixture
def started(make_event, director_api_for):
    event = make_event("standard")
    api = director_api_for(event)
    return api, api.start(event, players(event, 2))["id"]


def test_by_cards_shows_arrangement_and_layoffs(started):
    api, m = started
    hand = api.hand(m, knocker=0, knocker_cards=KNOCKER, defender_cards=DEFENDER)
    assert hand["entry"] == "cards"
    assert (hand["outcome"], hand["knocker_deadwood"], hand["defender_deadwood"]) == (
        "knock",
        10,
        30,
    )
    assert hand["defender_deadwood_before_layoffs"] == 47
    assert hand["points"] == 20
    assert hand["winner"] == 0
    assert hand["knocker_melds"] == ["AS 2S 3S", "5H 6H 7H", "9S 9D 9C"]
    assert hand["knocker_melds_given"] is False
    assert {"card": "8H", "onto": "5H 6H 7H"} in hand["layoffs"]
    assert {"card": "9H", "onto": "9S 9D 9C"} in hand["layoffs"]
    assert "Lay-offs" in hand["explanation"]


def test_by_cards_with_the_knockers_melds_as_laid_down(started):
    api, m = started
    hand = api.hand(
        m,
        knocker=0,
        knocker_cards=KNOCKER,
        defender_cards=DEFENDER,
        knocker_melds=["AS 2S 3S", "5H 6H 7H", "9S 9D 9C"],
    )
    assert hand["knocker_melds_given"] is True
    assert hand["points"] == 20


def test_gin_by_counts_needs_only_the_defenders_deadwood(started):
    # Found walking a club night through the API: "gin" with the defender's 40 was refused
    # until the knocker's 0 was typed too.
    api, m = started
    hand = api.hand(m, knocker=1, outcome="gin", defender_deadwood=40)
    assert (hand["outcome"], hand["winner"], hand["knocker_deadwood"]) == ("gin", 1, 0)
    assert hand["points"] == 65  # 40 + the gin bonus of 25


def test_claimed_defender_deadwood_without_layoffs_is_refused(started):
    api, m = started
    body = {"knocker": 0, "knocker_cards": KNOCKER, "defender_cards": DEFENDER}
    refused = api.hand(m, expect=400, defender_deadwood=47, **body)
    assert refused["field"] == "defender_deadwood"
    assert refused["detail"].startswith("Defender lays off 8H on 5H 6H 7H; 9H on 9S 9D 9C")
    assert "30 left, not 47" in refused["detail"]
    wrong_points = api.hand(m, expect=400, points=25, **body)
    assert wrong_points["field"] == "points"
    assert "scores 20, not 25" in wrong_points["detail"]
    assert not HandSubmission.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"knocker_cards": "AS 2S 3S XX", "defender_cards": DEFENDER}, "knocker_cards"),
        ({"knocker_cards": KNOCKER, "defender_cards": "8H 9H KS"}, "defender_cards"),
        ({"knocker_cards": KNOCKER, "defender_cards": DEFENDER.replace("8H", "AS")}, None),
        (
            {
                "knocker_cards": KNOCKER,
                "defender_cards": DEFENDER,
                "knocker_melds": "AS 2S 5H",
            },
            "knocker_melds",
        ),
        ({"knocker_cards": KNOCKER}, "defender_cards"),
        ({"outcome": "knock", "knocker_deadwood": 12, "defender_deadwood": 30}, None),
        ({"outcome": "gin", "knocker_deadwood": 4, "defender_deadwood": 30}, "outcome"),
        ({"outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 120}, None),
        ({"outcome": "knock", "knocker_deadwood": 5}, "knocker_deadwood"),
        ({"knocker_deadwood": 5, "defender_deadwood": 9}, "outcome"),
        ({"outcome": "sideways", "knocker_deadwood": 5, "defender_deadwood": 9}, "outcome"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(started, body, field):
    api, m = started
    refused = api.hand(m, expect=400, knocker=0, **body)
    text = str(refused)
    if field is not None:
        assert field in text
    assert not HandSubmission.objects.exists()


def test_dead_hand_keeps_the_dealer_and_scores_nothing(started):
    api, m = started
    before = api.detail(m)["next"]["dealer"]
    dead = api.hand(m, outcome="dead")
    assert (dead["entry"], dead["outcome"], dead["winner"], dead["points"]) == (
        "dead",
        "dead",
        None,
        0,
    )
    assert api.detail(m)["next"]["dealer"] == before
    api.hand(m, knocker=0, outcome="knock", knocker_deadwood=5, defender_deadwood=25)
    # standard: the loser deals next
    assert api.detail(m)["next"]["dealer"] == 1
    assert api.hand(m, expect=400, outcome="dead", knocker_deadwood=3)["detail"]


def test_scoresheet_shows_running_totals_dealers_and_bonuses(started):
    api, m = started
    api.hand(m, knocker=0, outcome="knock", knocker_deadwood=5, defender_deadwood=25)
    api.hand(m, outcome="dead")
    api.hand(m, knocker=1, outcome="gin", knocker_deadwood=0, defender_deadwood=30)
    api.hand(m, knocker=0, outcome="gin", knocker_deadwood=0, defender_deadwood=70)
    sheet = api.sheet(m)
    game = sheet["games"][0]
    assert [r["running_totals"] for r in game["rows"]] == [[20, 0], [20, 0], [20, 55], [115, 55]]
    assert [r["dealer"] for r in game["rows"]] == [0, 1, 1, 0]  # the loser deals
    assert [r["outcome"] for r in game["rows"]] == ["knock", "dead", "gin", "gin"]
    # 115 + 100 + 2 x 25 = 265 against 55 + 25 = 80
    assert game["final_totals"] == [265, 80]
    assert game["margin"] == 185
    assert game["bonuses"] == {"game": [100, 0], "box": [50, 25], "shutout": [0, 0]}
    assert sheet["winner"] == 0
    assert game["status"] == "finished"


def test_a_match_paired_without_game_rows_takes_its_first_hand(make_event, director_api_for):
    from scoring.models import Match, Seat

    event = make_event("standard")
    api = director_api_for(event)
    match = Match.objects.create(event=event, rules=event.rules, status="scheduled")
    for position, player in enumerate(players(event, 2)):
        Seat.objects.create(match=match, player=player, position=position)
    assert api.detail(match.pk)["next"]["hand_number"] == 1
    api.hand(match.pk, knocker=0, outcome="knock", knocker_deadwood=5, defender_deadwood=25)
    detail = api.detail(match.pk)
    assert detail["status"] == "playing"
    assert detail["games"][0]["totals"] == [20, 0]


def test_card_taken_from_the_discard_pile_may_not_be_the_knock_discard(started):
    """Seeds 000 and 004: a card just taken from the discard pile is not discarded that turn.

    The knocker took 4D from the discard pile; 4D is not among the ten cards left after the
    discard, so the knock discarded it: refused, and nothing stored.
    """
    api, m = started
    body = {"knocker": 0, "knocker_cards": KNOCKER, "defender_cards": DEFENDER}
    refused = api.hand(m, expect=400, taken_from_discard="4D", **body)
    assert refused["field"] == "taken_from_discard"
    assert refused["detail"] == (
        "Knock refused: the knocker took 4D from the discard pile this turn and may not discard"
        " it on the same turn"
    )
    in_defenders = api.hand(m, expect=400, taken_from_discard="QS", **body)
    assert in_defenders["field"] == "taken_from_discard"
    unreadable = api.hand(m, expect=400, taken_from_discard="ZZ", **body)
    assert unreadable["field"] == "taken_from_discard"
    by_counts = api.hand(
        m,
        expect=400,
        knocker=0,
        outcome="knock",
        knocker_deadwood=5,
        defender_deadwood=25,
        taken_from_discard="4D",
    )
    assert by_counts["field"] == "taken_from_discard"
    assert not HandSubmission.objects.exists()
    kept = api.hand(m, taken_from_discard="KC", **body)  # kept in hand: a fair knock
    assert (kept["points"], kept["taken_from_discard"]) == (20, "KC")
