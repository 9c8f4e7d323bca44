"""Starting a match while a player is still at another open table of the event, or at a table
that holds an open match: allowed (a last hand may only wait for its confirmation while the
players move on) but never silent (found on a walked club night, where nothing said so)."""

from __future__ import annotations

import pytest

from tests.scoring.conftest import players

pytestmark = pytest.mark.django_db

GIN = {"knocker": 0, "outcome": "gin", "defender_deadwood": 80}  # 105: the game in one hand


@pytest.fixture
def night(make_event, director_api_for):
    event = make_event("standard")
    return event, director_api_for(event), players(event, 4)


def test_a_player_still_playing_is_seated_with_a_warning(night):
    event, api, (ann, bob, cy, _dee) = night
    first = api.start(event, [ann, bob], table_number=1)
    assert first["warnings"] == []
    second = api.start(event, [cy, ann], table_number=2)
    assert second["warnings"] == [
        f"{ann.name} is also at table 1, which has not finished: record its last hand or a"
        " forfeit there."
    ]
    api.hand(first["id"], **GIN)  # the game, and the match, end
    assert api.start(event, [bob, _dee], table_number=1)["warnings"] == []


def test_a_table_in_play_is_named(night):
    event, api, (ann, bob, cy, dee) = night
    first = api.start(event, [ann, bob], table_number=1)
    again = api.start(event, [cy, dee], table_number=1)
    assert again["warnings"] == ["Table 1 also holds a match that has not finished."]
    api.hand(first["id"], **GIN)
    api.hand(again["id"], **GIN)
    assert api.start(event, [ann, cy], table_number=1)["warnings"] == []


def test_a_forfeit_frees_the_players(night):
    event, api, (ann, bob, cy, _dee) = night
    first = api.start(event, [ann, bob], table_number=1)
    response = api.client.post(
        f"/api/events/{event.pk}/matches/{first['id']}/forfeit/",
        {"players": [bob.pk]},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert api.start(event, [ann, cy], table_number=1)["warnings"] == []


def test_other_events_do_not_count(night, make_event, director_api_for):
    event, api, (ann, bob, _cy, _dee) = night
    api.start(event, [ann, bob], table_number=1)
    other = make_event("standard", club=event.club)
    assert director_api_for(other).start(other, [ann, bob], table_number=1)["warnings"] == []
