"""A Gem Rummy hand entered by cards, scored with the club's deck map (docs/rules.md §8)."""

from __future__ import annotations

import pytest

from clubs.services import club_gem_deck_map_set
from tests.engine.helpers import GEMS, made_up_deck_mapping
from tests.engine.test_gem import DEFENDER, KNOCKER
from tests.scoring.conftest import players

pytestmark = pytest.mark.django_db


def test_gem_hand_by_cards_uses_the_clubs_deck_map(make_event, director_api_for):
    event = make_event("gem")
    api = director_api_for(event)
    m = api.start(event, players(event, 2))["id"]
    body = {
        "knocker": 0,
        "knocker_cards": KNOCKER,
        "defender_cards": DEFENDER,
        "knock_limit": 3,
        "diamond_number": 5,
    }
    # Without a deck map the engine cannot see vaults or the Queen's Diamond: refused with why.
    refused = api.hand(m, expect=400, **body)
    assert "deck map" in refused["detail"]

    club_gem_deck_map_set(club=event.club, mapping=made_up_deck_mapping())
    # K = 2 (vault A♠ A♥ 9♦ 9♣, 4-5-6♣, 7♠ 7♥ 7♦; 2♠ left) ≤ die 3. The defender melds the
    # Queen's Diamond Q♦ 5♦ and K♠ K♥ K♣, lays 7♣ on the 7s: 33 left. Knocker scores 33 − 2 = 31;
    # the defender holds all eight gems: +8 to the non-knocker.
    verdict = api.hand(m, **body)
    assert (verdict["outcome"], verdict["knocker_deadwood"], verdict["defender_deadwood"]) == (
        "knock",
        2,
        33,
    )
    assert (verdict["points"], verdict["gem_bonus_defender"]) == (31, 8)
    assert api.detail(m)["games"][0]["totals"] == [31, 8]
    assert len(GEMS) == 8
