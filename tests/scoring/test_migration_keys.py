"""The data migration gives every existing match its private links (a table link and one per
seat), stored as nonce and digest only."""

from __future__ import annotations

import pytest
from django.db import connection

from scoring.links import digest_of, secret_of
from tests.support import old_chain_executor

BEFORE = [("scoring", "0002_initial"), ("tournaments", "0001_initial")]
AFTER = [("scoring", "0003_match_keys_disputes")]


@pytest.mark.django_db(transaction=True)
def test_existing_matches_get_their_links():
    executor = old_chain_executor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    club = old.get_model("tournaments", "Club").objects.create(name="Old club", slug="old-club")
    event = old.get_model("tournaments", "Event").objects.create(
        club=club, name="Old night", rules={}, match_format={}
    )
    player = old.get_model("tournaments", "Player")
    match = old.get_model("scoring", "Match").objects.create(event=event, rules={})
    seat = old.get_model("scoring", "Seat")
    for position, name in enumerate(("Ann", "Ben")):
        seat.objects.create(
            match=match, player=player.objects.create(club=club, name=name), position=position
        )
    executor = old_chain_executor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    keys = list(new.get_model("scoring", "MatchKey").objects.filter(match_id=match.pk))
    assert sorted(k.position if k.position is not None else -1 for k in keys) == [-1, 0, 1]
    for key in keys:
        assert key.revoked_at is None
        assert key.digest == digest_of(secret_of(key.nonce))
    # back to the latest state for the tests that follow
    executor = old_chain_executor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
