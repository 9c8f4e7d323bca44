"""Every rule preset through the API, with numbers worked out by hand from docs/rules.md.

Events here need no confirmation, so each entered hand counts at once.
"""

from __future__ import annotations

import pytest

from tests.scoring.conftest import players

pytestmark = pytest.mark.django_db


def _counts(knocker, outcome, k=None, d=None, **extra):
    body = {"knocker": knocker, "outcome": outcome, **extra}
    if k is not None:
        body["knocker_deadwood"] = k
    if d is not None:
        body["defender_deadwood"] = d
    return body


def test_standard_knock_gin_undercut_and_tie(make_event, director_api_for):
    event = make_event("standard")
    api = director_api_for(event)
    m = api.start(event, players(event, 2))["id"]
    knock = api.hand(m, **_counts(0, "knock", 5, 25))  # 25 - 5
    assert (knock["outcome"], knock["winner"], knock["points"]) == ("knock", 0, 20)
    assert knock["status"] == "confirmed"
    gin = api.hand(m, **_counts(1, "gin", 0, 30))  # 25 + 30
    assert (gin["winner"], gin["points"]) == (1, 55)
    under = api.hand(m, **_counts(0, "undercut", 8, 5))  # (8 - 5) + 25
    assert (under["winner"], under["points"]) == (1, 28)
    # A tie is the knocker's under standard (no undercut on a tie): 0 points, a hand won.
    tie = api.hand(m, **_counts(0, "knock", 7, 7))
    assert (tie["outcome"], tie["winner"], tie["points"]) == ("knock", 0, 0)
    refused = api.hand(m, expect=400, **_counts(0, "undercut", 7, 7))
    assert refused["field"] == "outcome"
    detail = api.detail(m)
    assert detail["games"][0]["totals"] == [20, 83]
    assert detail["games"][0]["hands_won"] == [2, 2]


def test_standard_shutout_adds_the_game_bonus_again(make_event, director_api_for):
    event = make_event("standard")
    api = director_api_for(event)
    m = api.start(event, players(event, 2))["id"]
    api.hand(m, **_counts(0, "gin", 0, 30))  # 55
    api.hand(m, **_counts(0, "gin", 0, 50))  # 75 -> 130, game over
    game = api.detail(m)["games"][0]
    # 130 + 100 game + 2 x 25 box + 100 shutout
    assert game["final_totals"] == [380, 0]
    assert game["bonuses"] == {"game": [100, 0], "box": [50, 0], "shutout": [100, 0]}
    assert game["shutout"] is True
    assert game["margin"] == 380
    detail = api.detail(m)
    assert detail["status"] == "finished"
    assert detail["winner"] == 0
    assert api.hand(m, expect=409, **_counts(0, "knock", 5, 25))["detail"]


def test_classic_tie_is_an_undercut_and_box_bonus_20(make_event, director_api_for):
    event = make_event("classic")
    api = director_api_for(event)
    m = api.start(event, players(event, 2))["id"]
    tie = api.hand(m, **_counts(0, "undercut", 6, 6))  # 10 + 0
    assert (tie["winner"], tie["points"]) == (1, 10)
    api.hand(m, **_counts(1, "gin", 0, 75))  # 20 + 75 = 95 -> 105
    game = api.detail(m)["games"][0]
    # winner 105 + 100 game + 2 x 20 box; loser won no hand: shutout adds 100 again
    assert game["final_totals"] == [0, 345]
    assert game["margin"] == 345


def test_modern_big_gin_and_shutout_doubles_the_total(make_event, director_api_for):
    event = make_event("modern")
    api = director_api_for(event)
    m = api.start(event, players(event, 2))["id"]
    big = api.hand(m, **_counts(0, "big_gin", 0, 40))  # 31 + 40
    assert big["points"] == 71
    api.hand(m, **_counts(0, "knock", 2, 40))  # 38 -> 109
    game = api.detail(m)["games"][0]
    # (109 + 100 + 2 x 25) = 259, doubled
    assert game["final_totals"] == [518, 0]
    assert game["bonuses"]["shutout"] == [259, 0]


def test_online_table_shutout_rule_none_and_single_hand(make_event, director_api_for):
    event = make_event("online-table")
    api = director_api_for(event)
    # The preset plays one hand (seed 004's default); 100 points is the option.
    m = api.start(event, players(event, 2), rule_overrides={"target": 100})["id"]
    api.hand(m, **_counts(0, "gin", 0, 50))  # 75
    api.hand(m, **_counts(0, "gin", 0, 30))  # 55 -> 130
    game = api.detail(m)["games"][0]
    assert game["final_totals"] == [130, 0]
    assert game["shutout"] is False
    assert game["bonuses"]["shutout"] == [0, 0]
    single = api.start(event, players(event, 2))["id"]
    api.hand(single, **_counts(1, "knock", 3, 20))
    detail = api.detail(single)
    assert detail["finished"]
    assert detail["games"][0]["final_totals"] == [0, 17]


def test_oklahoma_upcard_sets_the_limit_and_a_spade_doubles(make_event, director_api_for):
    event = make_event("oklahoma")
    api = director_api_for(event)
    m = api.start(event, players(event, 2))["id"]
    doubled = api.hand(m, **_counts(0, "knock", 4, 20, upcard="5S"))  # (20 - 4) x 2
    assert (doubled["points"], doubled["multiplier"], doubled["knock_limit"]) == (32, 2, 5)
    plain = api.hand(m, **_counts(1, "knock", 4, 20, upcard="5H"))
    assert plain["points"] == 16
    over = api.hand(m, expect=400, **_counts(0, "knock", 6, 20, upcard="5S"))
    assert "6 > 5" in over["detail"]
    assert over["field"] == "knocker_deadwood"
    ace = api.hand(m, expect=400, **_counts(0, "knock", 1, 20, upcard="AD"))
    assert "ace" in ace["detail"]
    missing = api.hand(m, expect=400, **_counts(0, "knock", 4, 20))
    assert missing["field"] == "upcard"
    assert api.detail(m)["rules"]["target"] == 150


def test_hollywood_set_three_columns(make_event, director_api_for):
    event = make_event("hollywood")
    api = director_api_for(event)
    m = api.start(event, players(event, 2))
    assert m["match_format"] == {"kind": "hollywood"}
    m = m["id"]
    api.hand(m, **_counts(0, "knock", 5, 35))  # P0 1st win, 30: game 1
    api.hand(m, **_counts(1, "knock", 2, 22))  # P1 1st win, 20: game 1
    api.hand(m, **_counts(0, "gin", 0, 45))  # P0 2nd win, 70: games 1, 2 (game 1 ends 100-20)
    api.hand(m, **_counts(0, "knock", 4, 34))  # P0 3rd win, 30: games 2 (ends 100-0), 3
    # P1 2nd win, 10: games 1 and 2 are closed and P1 never scored in game 2, so the win is P1's
    # first score in game 3, the next game in progress (no won hand vanishes)
    api.hand(m, **_counts(1, "knock", 1, 11))
    api.hand(m, **_counts(1, "gin", 0, 90))  # P1 3rd win, 115: game 3 (ends 30-125)
    detail = api.detail(m)
    cols = detail["games"][0]["columns"]
    # game 1: 100 + 100 + 2 x 25 = 250 against 20 + 25 = 45
    assert cols[0]["final_totals"] == [250, 45]
    assert cols[0]["margin"] == 205
    # game 2: P1 won no hand in it: 100 + 100 + 50 + 100 shutout
    assert cols[1]["final_totals"] == [350, 0]
    assert cols[1]["shutout"] is True
    # game 3: 30 + 25 against 125 + 100 + 2 x 25
    assert cols[2]["final_totals"] == [55, 275]
    assert cols[2]["winner"] == 1
    assert detail["finished"]
    assert detail["winner"] == 0
    assert detail["games_won"] == [2, 1]
    sheet = api.sheet(m)
    rows = sheet["games"][0]["rows"]
    assert rows[0]["columns"] == [[30, 0], None, None]
    assert rows[2]["columns"] == [[100, 20], [70, 0], None]
    assert rows[4]["columns"] == [None, None, [30, 10]]
    assert rows[5]["columns"] == [None, None, [30, 125]]


def test_three_box_roles_rotate(make_event, director_api_for):
    event = make_event("three-box")
    api = director_api_for(event)
    m = api.start(event, players(event, 3))
    assert m["next"]["roles"]["box"]["position"] == 0
    m = m["id"]
    api.hand(m, **_counts(0, "knock", 5, 20))  # box wins 15: stays, captain/sitter swap
    roles = api.detail(m)["next"]["roles"]
    assert [roles[r]["position"] for r in ("box", "captain", "sitter")] == [0, 2, 1]
    sitter = api.hand(m, expect=400, **_counts(1, "knock", 5, 20))
    assert sitter["field"] == "knocker"
    api.hand(m, **_counts(2, "knock", 3, 13))  # captain wins 10: captain -> box
    roles = api.detail(m)["next"]["roles"]
    assert [roles[r]["position"] for r in ("box", "captain", "sitter")] == [2, 1, 0]
    api.hand(m, outcome="dead")  # same roles, same dealer
    assert api.detail(m)["next"]["roles"]["box"]["position"] == 2
    under = api.hand(m, **_counts(1, "undercut", 8, 6))  # box 2 undercuts: 10 + 2
    assert (under["winner"], under["points"]) == (2, 12)
    tie = api.hand(m, **_counts(0, "undercut", 4, 4))  # a tie is an undercut: box scores 10
    assert (tie["winner"], tie["points"]) == (2, 10)
    detail = api.detail(m)
    assert detail["games"][0]["totals"] == [15, 0, 32]
    roles = detail["next"]["roles"]
    assert [roles[r]["position"] for r in ("box", "captain", "sitter")] == [2, 1, 0]
    assert detail["next"]["dealer"] == 2
    sheet = api.sheet(m)
    assert [r["roles"]["box"]["position"] for r in sheet["games"][0]["rows"]] == [0, 0, 2, 2, 2]


def test_three_player_dealer_out(make_event, director_api_for):
    event = make_event("standard")
    api = director_api_for(event)
    m = api.start(
        event, players(event, 3), rule_overrides={"table": "three_dealer_out"}, first_dealer=0
    )
    assert m["next"]["sitting_out"] == 0
    assert m["next"]["playing"] == [1, 2]
    m = m["id"]
    assert api.hand(m, expect=400, **_counts(0, "knock", 5, 20))["field"] == "knocker"
    api.hand(m, **_counts(1, "knock", 5, 20))
    nxt = api.detail(m)["next"]
    assert nxt["sitting_out"] == 1
    assert nxt["playing"] == [0, 2]


def test_partnership_two_boards_team_difference(make_event, director_api_for):
    event = make_event("partnership")
    api = director_api_for(event)
    m = api.start(event, players(event, 4))
    assert [s["team"] for s in m["seats"]] == [0, 1, 0, 1]
    m = m["id"]
    hand = api.hand(
        m,
        boards=[
            _counts(0, "knock", 5, 25, defender=1),  # team 0: 20
            _counts(3, "gin", 0, 12, defender=2),  # team 1: 25 + 12 = 37
        ],
    )
    assert hand["team_points"] == [20, 37]
    assert (hand["winner"], hand["points"]) == (1, 17)
    same_team = api.hand(
        m, expect=400, boards=[_counts(0, "knock", 5, 25, defender=2), _counts(3, "gin", 0, 12)]
    )
    assert same_team["field"] == "boards[0].defender"
    detail = api.detail(m)
    assert detail["games"][0]["totals"] == [0, 17]
    assert detail["sides"][1]["positions"] == [1, 3]


def test_gem_knocker_minimum_dice_and_gem_bonus(make_event, director_api_for):
    event = make_event("gem")
    api = director_api_for(event)
    m = api.start(event, players(event, 2))["id"]
    low = api.hand(m, **_counts(0, "knock", 4, 9, knock_limit=5, diamond_number=3))
    assert (low["points"], low["base_points"]) == (11, 5)  # 9 - 4 = 5, raised to 11
    gem = api.hand(m, **_counts(1, "knock", 2, 12, knock_limit=6, knocker_gem_bonus=True))
    assert (gem["points"], gem["gem_bonus_knocker"]) == (11, 16)
    under = api.hand(
        m, **_counts(0, "undercut", 5, 3, knock_limit=6, defender_gem_bonus=True)
    )  # 25 flat to the defender, 8 gem bonus to the non-knocker
    assert (under["winner"], under["points"], under["gem_bonus_defender"]) == (1, 25, 8)
    assert api.detail(m)["games"][0]["totals"] == [11, 11 + 16 + 25 + 8]
    no_die = api.hand(m, expect=400, **_counts(0, "knock", 4, 9))
    assert no_die["field"] == "knock_limit"
    by_cards = api.hand(
        m,
        expect=400,
        knocker=0,
        knock_limit=5,
        diamond_number=2,
        knocker_cards="AS 2S 3S 4S 5H 6H 7H 8H 9C TC JC",
        defender_cards="AD 2D 3D 4D 5C 6C 7C 8C 9D TD JD",
    )
    assert "deck map" in by_cards["detail"]


def test_rummy_hand_with_rummy_doubling(make_event, director_api_for):
    event = make_event("rummy")
    api = director_api_for(event)
    m = api.start(event, players(event, 3))["id"]
    hand = api.hand(m, went_out=0, rummy=True, leftovers={"1": "KS 5H", "2": 7})
    assert (hand["winner"], hand["points"], hand["counts"]) == (0, 44, [0, 15, 7])
    plain = api.hand(m, went_out=2, leftovers={"0": 3, "1": "QH"})
    assert plain["points"] == 13
    assert api.detail(m)["games"][0]["totals"] == [44, 0, 13]
    bad = api.hand(m, expect=400, went_out=1, leftovers={"0": "KS"})
    assert bad["field"] == "leftovers"
    fixed = api.start(event, players(event, 2), match_format={"kind": "fixed_hands", "hands": 2})
    api.hand(fixed["id"], went_out=0, leftovers={"1": 20})
    api.hand(fixed["id"], went_out=1, leftovers={"0": 30})
    detail = api.detail(fixed["id"])
    assert detail["finished"]
    assert detail["winner"] == 1


def test_best_of_three_starts_the_next_game(make_event, director_api_for):
    event = make_event("standard")
    api = director_api_for(event)
    m = api.start(event, players(event, 2), match_format={"kind": "best_of", "games": 3})["id"]
    api.hand(m, **_counts(0, "gin", 0, 80))  # 105: game 1 over
    detail = api.detail(m)
    assert [g["status"] for g in detail["games"]] == ["finished", "playing"]
    assert detail["next"] == {**detail["next"], "game": 2, "hand_number": 1, "dealer": 1}
    api.hand(m, **_counts(1, "gin", 0, 80))
    assert api.detail(m)["games_won"] == [1, 1]
    api.hand(m, **_counts(0, "gin", 0, 80))
    detail = api.detail(m)
    assert detail["finished"]
    assert detail["winner"] == 0
    assert detail["games_won"] == [2, 1]
    assert detail["summary"]["games_won"] == [2, 1]
