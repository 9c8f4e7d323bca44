"""Three-player Gem Rummy through the API (docs/rules.md §8): each non-knocker is scored against the
knocker separately. Numbers worked by hand in the comments.
"""

from __future__ import annotations

import pytest

from clubs.services import club_gem_deck_map_set
from tests.engine.helpers import made_up_deck_mapping
from tests.engine.test_gem import DEFENDER, KNOCKER, SECOND
from tests.scoring.conftest import players, seat_api
from tests.scoring.helpers import gem_three_entry

pytestmark = pytest.mark.django_db


def test_three_player_gem_by_counts_to_110(make_event, director_api_for):
    event = make_event("gem")
    api = director_api_for(event)
    started = api.start(event, players(event, 3))
    m = started["id"]
    # Three players play Gem at an 'open' table; the first dealer deals the first hand.
    assert started["rules"]["table"] == "open"
    assert [s["position"] for s in started["seats"]] == [0, 1, 2]
    assert started["next"]["dealer"] == 0

    # Hand 1: seat 0 knocks with 4 (die 5). Against seat 1 (30 after lay-offs): 30 − 4 = 26 to
    # the knocker. Against seat 2 (2 < 4): undercut, a flat 25 to seat 2. The knocker scored
    # most: seat 0 wins the hand and deals the next.
    one = api.hand(m, **gem_three_entry(0, 5, 4, ("knock", 30), ("undercut", 2)))
    assert (one["outcome"], one["winner"], one["points"]) == ("knock", 0, 26)
    assert one["scores"] == {"0": 26, "1": 0, "2": 25}
    assert one["defenders"] == [1, 2]
    assert [(p["defender"], p["winner"], p["points"]) for p in one["pairings"]] == [
        (1, 0, 26),
        (2, 2, 25),
    ]
    detail = api.detail(m)
    assert detail["games"][0]["totals"] == [26, 0, 25]
    assert detail["next"]["dealer"] == 0

    # Hand 2: seat 1 knocks with 3 (die 6) against seat 0 (2: undercut, 25 to seat 0) and
    # seat 2 (50: 50 − 3 = 47 to seat 1). Seat 1 scored most (47): it wins and deals next.
    two = api.hand(m, **gem_three_entry(1, 6, 3, ("undercut", 2), ("knock", 50)))
    assert (two["winner"], two["points"], two["scores"]) == (1, 47, {"1": 47, "0": 25, "2": 0})
    assert api.detail(m)["games"][0]["totals"] == [51, 47, 25]
    assert api.detail(m)["next"]["dealer"] == 1

    # A claim that does not hold is refused at the defender's field: 9 > 3 is not an undercut.
    refused = api.hand(m, expect=400, **gem_three_entry(1, 6, 3, ("knock", 20), ("undercut", 9)))
    assert refused["field"].startswith("defenders[1].")
    assert "Against defender 2" in refused["detail"]

    # Hand 3: seat 0 knocks with 1 (die 2) against 61 (60) and 10 (9, raised to 11): 71, so
    # seat 0 has 51 + 71 = 122 ≥ 110 and wins the game and the match.
    three = api.hand(m, **gem_three_entry(0, 2, 1, ("knock", 61), ("knock", 10)))
    assert three["scores"] == {"0": 71, "1": 0, "2": 0}
    detail = api.detail(m)
    game = detail["games"][0]
    assert (game["totals"], game["final_totals"], game["winner"]) == (
        [122, 47, 25],
        [122, 47, 25],
        0,
    )
    assert game["margin"] == 122 - 47
    assert (detail["status"], detail["winner"]) == ("finished", 0)
    # The score sheet credits every player each hand, with running totals for all three.
    rows = api.sheet(m)["games"][0]["rows"]
    assert [r["credits"] for r in rows] == [
        {"0": 26, "2": 25},
        {"1": 47, "0": 25},
        {"0": 71},
    ]
    assert [r["running_totals"] for r in rows] == [[26, 0, 25], [51, 47, 25], [122, 47, 25]]
    assert api.hand(m, expect=409, **gem_three_entry(0, 2, 1, ("knock", 61), ("knock", 10)))[
        "detail"
    ]


def test_three_player_gem_entry_is_confirmed_by_any_other_player(make_event, director_api_for):
    event = make_event("gem", confirmation="opponent")
    m = director_api_for(event).start(event, players(event, 3))["id"]
    entered = seat_api(m, 1).hand(
        m, as_position=1, **gem_three_entry(0, 5, 4, ("knock", 30), ("undercut", 2))
    )
    assert entered["status"] == "pending"
    done = seat_api(m, 2).action(entered["id"], "confirm")
    assert done["status"] == "confirmed"
    assert seat_api(m, 0).detail(m)["games"][0]["totals"] == [26, 0, 25]


def test_three_player_gem_needs_both_defenders_and_a_dead_hand_is_dead_for_all(
    make_event, director_api_for
):
    event = make_event("gem")
    api = director_api_for(event)
    m = api.start(event, players(event, 3), first_dealer=2)["id"]
    missing = api.hand(m, expect=400, **gem_three_entry(0, 5, 4, ("knock", 30)))
    assert missing["field"] == "defenders"
    same = gem_three_entry(0, 5, 4, ("knock", 30), ("knock", 20))
    same["defenders"][1]["defender"] = 1
    assert api.hand(m, expect=400, **same)["field"] == "defenders[1].defender"
    dead = api.hand(m, outcome="dead")
    assert (dead["outcome"], dead["winner"]) == ("dead", None)
    # The same dealer deals again after a dead hand.
    assert api.detail(m)["next"]["dealer"] == 2
    # Four players are too many for Gem Rummy.
    assert api.start(event, players(event, 4), expect=400)["field"] == "players"


def test_three_player_gem_by_cards_with_the_clubs_deck_map(make_event, director_api_for):
    event = make_event("gem")
    api = director_api_for(event)
    m = api.start(event, players(event, 3))["id"]
    body = {
        "knocker": 0,
        "knocker_cards": KNOCKER,
        "knock_limit": 3,
        "diamond_number": 5,
        "defenders": [{"defender_cards": DEFENDER}, {"defender_cards": SECOND}],
    }
    assert "deck map" in api.hand(m, expect=400, **body)["detail"]
    club_gem_deck_map_set(club=event.club, mapping=made_up_deck_mapping())
    # Knocker K = 2 (vault A♠ A♥ 9♦ 9♣, 4-5-6♣, 7♠ 7♥ 7♦; 2♠ left), die 3.
    # The defenders lay off in turn (seed 003). Seat 2 (SECOND) melds 4-5-6♥, 8-9-T♥, A-2-3-4♦
    # and lays 3♣ on 4-5-6♣: 0 < 2, an undercut: 25 to seat 2. Seat 1 (DEFENDER) lays 7♣ on the
    # 7s and then 2♣ on the 3♣ seat 2 laid off: 40 − 7 − 2 = 31 left, 31 − 2 = 29 to the knocker;
    # seat 1 holds all eight gems: +8. Hand: seat 0 29, seat 1 8, seat 2 25.
    verdict = api.hand(m, **body)
    assert verdict["entry"] == "cards"
    assert (verdict["winner"], verdict["points"]) == (0, 29)
    assert verdict["scores"] == {"0": 29, "1": 8, "2": 25}
    first, second = verdict["pairings"]
    assert (first["outcome"], first["defender_deadwood"], first["gem_bonus_defender"]) == (
        "knock",
        31,
        8,
    )
    assert sorted(lay["card"] for lay in first["layoffs"]) == ["2C", "7C"]
    assert (second["outcome"], second["defender_deadwood"]) == ("undercut", 0)
    assert second["layoffs"] == [{"card": "3C", "onto": "4C 5C 6C"}]
    assert api.detail(m)["games"][0]["totals"] == [29, 8, 25]
    # A claim by cards is checked per pairing: seat 2 is not left with 5.
    body["defenders"][1]["defender_deadwood"] = 5
    refused = api.hand(m, expect=400, **body)
    assert refused["field"] == "defenders[1].defender_deadwood"
