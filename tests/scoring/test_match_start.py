"""Starting a match: nobody sits at two open tables of an event, and a table holds one open
match (found on a walked club night, where a director could seat a player still playing)."""

from __future__ import annotations

import pytest

from scoring.models import Match
from tests.scoring.conftest import players

pytestmark = pytest.mark.django_db

GIN = {"knocker": 0, "outcome": "gin", "defender_deadwood": 80}  # 105: the game in one hand


@pytest.fixture
def night(make_event, director_api):
    event = make_event("standard")
    return event, director_api(event), players(event, 4)


def test_a_player_still_playing_is_not_seated_again(night):
    event, api, (ann, bob, cy, _dee) = night
    first = api.start(event, [ann, bob], table_number=1)
    refused = api.start(event, [cy, ann], expect=409, table_number=2)
    assert refused["field"] == "players"
    assert refused["detail"] == (
        f"{ann.name} is still playing at table 1: record that match's last hand or a forfeit before"
        " seating them again."
    )
    assert Match.objects.filter(event=event).count() == 1  # nothing stored
    api.hand(first["id"], **GIN)  # the game, and the match, end
    assert api.detail(first["id"])["finished"] is True
    api.start(event, [cy, ann], table_number=2)


def test_a_table_in_play_takes_no_second_match(night):
    event, api, (ann, bob, cy, dee) = night
    first = api.start(event, [ann, bob], table_number=1)
    refused = api.start(event, [cy, dee], expect=409, table_number=1)
    assert refused["field"] == "table_number"
    assert "Table 1 is still in play" in refused["detail"]
    api.start(event, [cy, dee], table_number=2)
    api.hand(first["id"], **GIN)
    api.start(event, [ann, bob], table_number=1)  # finished: the table is free again


def test_a_forfeit_frees_the_players(night):
    event, api, (ann, bob, cy, _dee) = night
    first = api.start(event, [ann, bob], table_number=1)
    response = api.client.post(
        f"/api/events/{event.pk}/matches/{first['id']}/forfeit/",
        {"players": [bob.pk]},
        format="json",
    )
    assert response.status_code == 200, response.json()
    api.start(event, [ann, cy], table_number=1)


def test_other_events_do_not_count(night, make_event, director_api):
    event, api, (ann, bob, _cy, _dee) = night
    api.start(event, [ann, bob], table_number=1)
    other = make_event("standard", club=event.club)
    director_api(other).start(other, [ann, bob], table_number=1)
