"""Rule sets: presets (docs/rules.md §6), validation, dict round trip, lookup by name."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.rules import RULE_PRESETS, RuleSet, find_rules

PRESET_NAMES = [
    "standard",
    "classic",
    "modern",
    "online-table",
    "oklahoma",
    "hollywood",
    "three-box",
    "partnership",
    "gem",
    "rummy",
]


def test_exactly_the_presets_of_section_6() -> None:
    assert list(RULE_PRESETS) == PRESET_NAMES
    for name, rules in RULE_PRESETS.items():
        assert rules.name == name


# One row per preset, read off the table in docs/rules.md §6:
# (cards, knock limit, gin, big gin, undercut bonus, undercut is difference + bonus, tie is
#  undercut, target, game, box, shutout)
TABLE = {
    "standard": (10, 10, 25, None, 25, True, False, 100, 100, 25, "add_game_bonus"),
    "classic": (10, 10, 20, None, 10, True, True, 100, 100, 20, "add_game_bonus"),
    "modern": (10, 10, 25, 31, 25, True, True, 100, 100, 25, "double_total"),
    "online-table": (10, 10, 25, None, 25, True, True, None, 0, 0, "none"),
    "oklahoma": (10, "upcard", 25, None, 25, True, True, 150, 100, 25, "add_game_bonus"),
    "hollywood": (10, 10, 25, None, 25, True, False, 100, 100, 25, "add_game_bonus"),
    "three-box": (10, 10, 25, None, 10, True, True, 100, 0, 0, "none"),
    "partnership": (10, 10, 25, None, 25, True, False, 100, 100, 25, "add_game_bonus"),
    "gem": (11, "dice", 25, 35, 25, False, False, 110, 0, 0, "none"),
}


@pytest.mark.parametrize("name", list(TABLE))
def test_preset_values_match_the_table(name: str) -> None:
    r = find_rules(name)
    row = (
        r.hand_size,
        r.knock_limit,
        r.gin_bonus,
        r.big_gin_bonus,
        r.undercut_bonus,
        r.undercut_scores_difference,
        r.undercut_on_tie,
        r.target,
        r.game_bonus,
        r.box_bonus,
        r.shutout,
    )
    assert row == TABLE[name]


def test_preset_extras() -> None:
    assert find_rules("standard").dead_hand_stock == 2
    ok = find_rules("oklahoma")
    assert ok.spade_doubles
    assert ok.ace_upcard_gin_only
    assert find_rules("hollywood").hollywood_games == 3
    assert find_rules("three-box").table == "three_box"
    assert find_rules("partnership").table == "partnership"
    gem = find_rules("gem")
    assert (gem.knocker_min_points, gem.gem_bonus_knocker, gem.gem_bonus_other) == (11, 16, 8)
    assert gem.next_dealer == "winner"  # seed 003: the winner of a hand deals the next
    assert find_rules("standard").next_dealer == "loser"  # seed 000
    rummy = find_rules("rummy")
    assert (rummy.family, rummy.target, rummy.rummy_doubles, rummy.knock_limit) == (
        "rummy",
        150,
        True,
        None,
    )
    assert [rummy.deal_size(n) for n in range(2, 7)] == [10, 7, 7, 6, 6]
    with pytest.raises(RuleError, match="2 to 6 players, not 7"):
        rummy.deal_size(7)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_to_dict_from_dict_round_trip(name: str) -> None:
    rules = find_rules(name)
    data = json.loads(json.dumps(rules.to_dict()))  # JSON-safe
    assert RuleSet.from_dict(data) == rules


def test_from_dict_fills_missing_keys_from_the_named_preset() -> None:
    assert RuleSet.from_dict({"name": "gem"}) == find_rules("gem")
    assert RuleSet.from_dict({}) == RuleSet()
    assert RuleSet.from_dict({"name": "my club", "gin_bonus": 30}).gin_bonus == 30


def test_from_dict_rejects_unknown_keys_and_wrong_types() -> None:
    with pytest.raises(RuleError, match="Unknown rule parameter\\(s\\): bonus, colour"):
        RuleSet.from_dict({"colour": "red", "bonus": 3})
    with pytest.raises(RuleError, match="A rule set must be a mapping"):
        RuleSet.from_dict([("target", 100)])
    with pytest.raises(RuleError, match="gin_bonus must be a whole number, not '25'"):
        RuleSet.from_dict({"gin_bonus": "25"})
    with pytest.raises(RuleError, match="undercut_on_tie must be true or false, not 1"):
        RuleSet.from_dict({"undercut_on_tie": 1})


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"gin_bonus": -1}, "gin_bonus must not be negative, not -1"),
        ({"big_gin_bonus": -5}, "big_gin_bonus must not be negative"),
        ({"knock_limit": 101}, "knock_limit must be between 0 and 100, not 101"),
        ({"knock_limit": -1}, "knock_limit must be between 0 and 100, not -1"),
        ({"knock_limit": "moon"}, "knock_limit must be one of 'upcard', 'dice' or a number"),
        ({"knock_limit": "dice"}, "'dice' is Gem Rummy's rule"),
        ({"knock_limit": None}, "knock_limit is required for the gin family"),
        ({"target": 0}, "Target must be a positive number of points"),
        ({"target": -100}, "Target must be a positive"),
        ({"max_hands": 0}, "max_hands must be a positive number of hands"),
        ({"shutout": "triple"}, "Shutout must be one of 'add_game_bonus', 'double_total', 'none'"),
        ({"family": "poker"}, "Family must be one of"),
        ({"table": "round"}, "Table must be one of"),
        ({"next_dealer": "oldest"}, "next_dealer must be one of"),
        ({"spade_doubles": True}, "spade_doubles needs knock_limit 'upcard'"),
        ({"ace_upcard_gin_only": True}, "ace_upcard_gin_only needs knock_limit 'upcard'"),
        ({"ace_high": True}, "ace_high is Basic Rummy's variant"),
        ({"rummy_doubles": True}, "rummy_doubles is Basic Rummy's rule"),
        ({"gem_bonus_knocker": 16}, "Gem bonuses are Gem Rummy's rule"),
        ({"table": "open", "next_dealer": "rotate"}, "Gin rummy with three or four players"),
        ({"hand_size": 2}, "hand_size 2 does not fit"),
        ({"hand_size": 25}, "hand_size 25 does not fit: 2 hands of it, the upcard"),
        ({"rummy_deal": (10, 7)}, "rummy_deal must give the cards dealt for 2, 3, 4, 5 and 6"),
        ({"rummy_deal": (10, 7, 7, 6, 0)}, "rummy_deal gives 0 cards to each of 6 players"),
        ({"hollywood_games": 1}, "hollywood_games must be 0 \\(no Hollywood\\) or at least 2"),
        ({"hollywood_games": 3, "target": None}, "Hollywood needs a target"),
        ({"hollywood_games": -1}, "hollywood_games must not be negative"),
        ({"name": 3}, "Name must be a string"),
    ],
)
def test_impossible_rule_sets_are_refused(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        find_rules("standard", **overrides)


@pytest.mark.parametrize(
    ("preset", "overrides", "message"),
    [
        ("standard", {"knock_limit": "upcard", "family": "gem"}, "'upcard' is Oklahoma's rule"),
        ("rummy", {"knock_limit": 10}, "Basic Rummy has no knock"),
        ("rummy", {"table": "two"}, "Basic Rummy is played at an 'open' table"),
        ("rummy", {"big_gin_bonus": 31}, "Basic Rummy has no big gin"),
        ("rummy", {"next_dealer": "loser"}, "next_dealer 'loser' needs two sides"),
        ("gem", {"table": "three_box"}, "Gem Rummy is played by two"),
    ],
)
def test_family_combinations_are_checked(
    preset: str, overrides: dict[str, object], message: str
) -> None:
    with pytest.raises(RuleError, match=message):
        find_rules(preset, **overrides)


def test_find_rules_is_tolerant_and_names_the_known_ones() -> None:
    assert find_rules("ONLINE_TABLE") is RULE_PRESETS["online-table"]
    assert find_rules(" Three Box ") is RULE_PRESETS["three-box"]
    with pytest.raises(RuleError, match="Unknown rule set 'gin'; known: standard, classic"):
        find_rules("gin")
    with pytest.raises(RuleError, match="A rule set name must be a string"):
        find_rules(None)


def test_with_overrides_validates_and_keeps_the_base_name() -> None:
    custom = find_rules("standard", target=250, undercut_on_tie=True)
    assert (custom.name, custom.target, custom.undercut_on_tie) == ("standard", 250, True)
    assert find_rules("rummy").with_overrides(rummy_deal=[9, 7, 7, 6, 5]).rummy_deal[0] == 9
    with pytest.raises(RuleError, match="Unknown rule parameter\\(s\\): tagret"):
        find_rules("standard", tagret=250)
    with pytest.raises(dataclasses.FrozenInstanceError):
        custom.target = 5  # type: ignore[misc]


def test_big_gin_property() -> None:
    assert find_rules("gem").big_gin
    assert not find_rules("classic").big_gin


@given(
    preset=st.sampled_from(PRESET_NAMES[:8]),
    gin_bonus=st.integers(0, 60),
    undercut_bonus=st.integers(0, 60),
    tie=st.booleans(),
    difference=st.booleans(),
    target=st.one_of(st.none(), st.integers(1, 1000)),
    shutout=st.sampled_from(["add_game_bonus", "double_total", "none"]),
    big=st.one_of(st.none(), st.integers(0, 60)),
)
def test_any_valid_club_rule_set_round_trips(
    preset: str,
    gin_bonus: int,
    undercut_bonus: int,
    tie: bool,
    difference: bool,
    target: int | None,
    shutout: str,
    big: int | None,
) -> None:
    base = find_rules(preset)
    if base.hollywood_games and target is None:
        target = 100
    rules = base.with_overrides(
        gin_bonus=gin_bonus,
        undercut_bonus=undercut_bonus,
        undercut_on_tie=tie,
        undercut_scores_difference=difference,
        target=target,
        shutout=shutout,
        big_gin_bonus=big,
    )
    assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
