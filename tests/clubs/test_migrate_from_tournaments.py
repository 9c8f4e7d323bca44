"""Clubs, club roles and players move from ``tournaments`` to ``clubs`` with every row kept.

A database made before the move (``tournaments`` 0003, ``scoring`` 0004, no ``clubs``) holds a
club, a role, players, an event with a registration, a rating, a finished match with its seats,
winner and a hand submission with its history, and a permission granted on players. Migrating
forward must keep all of it, reachable through the new models, and the permission must follow
the model to its new app.
"""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.support import old_chain_executor

BEFORE = [
    ("scoring", "0004_hand_submission_winner_columns"),
    ("tournaments", "0003_round_float_directions"),
]
# the latest state of Django's own apps (BEFORE alone reaches only the migrations it needs)
FRAMEWORK = [
    ("contenttypes", "0002_remove_content_type_name"),
    ("auth", "0012_alter_user_first_name_max_length"),
]
AFTER = [
    ("clubs", "0001_initial"),
    ("scoring", "0005_players_from_clubs"),
    ("tournaments", "0004_clubs_players_roles_moved"),
]


def _executor() -> MigrationExecutor:
    """The old chain's migrations, as Django runs them on a database made before the squashes."""
    return old_chain_executor(connection)


@pytest.mark.django_db(transaction=True)
def test_rows_and_permissions_survive_the_move():
    executor = _executor()
    executor.migrate([("clubs", None), *BEFORE])
    old = executor.loader.project_state([*BEFORE, *FRAMEWORK]).apps
    assert "tournaments_player" in connection.introspection.table_names()
    user = old.get_model("auth", "User").objects.create(username="ann-user")
    club = old.get_model("tournaments", "Club").objects.create(
        name="Old club", slug="old-club", gem_deck_map={"AS": "ruby"}
    )
    old.get_model("tournaments", "ClubRole").objects.create(club=club, user=user, role="admin")
    player = old.get_model("tournaments", "Player")
    ann = player.objects.create(club=club, name="Ann", user=user, family="A")
    ben = player.objects.create(club=club, name="Ben", is_guest=True)
    event = old.get_model("tournaments", "Event").objects.create(
        club=club, name="Old night", kind="club_night", rules={}, match_format={}
    )
    old.get_model("tournaments", "Registration").objects.create(event=event, player=ann, seed=1)
    old.get_model("tournaments", "Rating").objects.create(
        club=club, player=ben, kind="glicko2", rating=1500.0, deviation=350.0
    )
    match = old.get_model("scoring", "Match").objects.create(
        event=event, rules={}, status="finished", winner=ann
    )
    seat = old.get_model("scoring", "Seat")
    seat.objects.create(match=match, player=ann, position=0)
    seat.objects.create(match=match, player=ben, position=1)
    game = old.get_model("scoring", "Game").objects.create(match=match, number=1)
    hand = old.get_model("scoring", "Hand").objects.create(game=game, number=1)
    submission = old.get_model("scoring", "HandSubmission").objects.create(
        hand=hand,
        version=1,
        entry="knock",
        payload={},
        result={},
        status="confirmed",
        submitted_by_player=ann,
        confirmed_by_player=ben,
    )
    old.get_model("scoring", "HistoricalHandSubmission").objects.create(
        id=submission.pk,
        hand=hand,
        version=1,
        entry="knock",
        payload={},
        result={},
        status="confirmed",
        created_at=submission.created_at,
        history_date=submission.created_at,
        history_type="+",
        history_player=ann,
        submitted_by_player=ann,
    )
    content_type = old.get_model("contenttypes", "ContentType")
    player_type, _ = content_type.objects.get_or_create(app_label="tournaments", model="player")
    permission = old.get_model("auth", "Permission").objects.get_or_create(
        content_type=player_type, codename="change_player", defaults={"name": "Can change player"}
    )[0]
    user.user_permissions.add(permission.pk)

    executor = _executor()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    ContentType.objects.clear_cache()

    club = new.get_model("clubs", "Club").objects.get(slug="old-club")
    assert club.gem_deck_map == {"AS": "ruby"}
    assert list(club.roles.values_list("user__username", "role")) == [("ann-user", "admin")]
    players = new.get_model("clubs", "Player").objects.filter(club=club).order_by("name")
    assert [(p.name, p.user_id, p.is_guest, p.family) for p in players] == [
        ("Ann", user.pk, False, "A"),
        ("Ben", None, True, ""),
    ]
    assert new.get_model("tournaments", "Registration").objects.get().player.name == "Ann"
    assert new.get_model("tournaments", "Rating").objects.get().player.name == "Ben"
    assert new.get_model("tournaments", "Event").objects.get().club.slug == "old-club"
    match = new.get_model("scoring", "Match").objects.get(pk=match.pk)
    assert match.winner.name == "Ann"
    assert list(match.seats.order_by("position").values_list("player__name", flat=True)) == [
        "Ann",
        "Ben",
    ]
    sub = new.get_model("scoring", "HandSubmission").objects.get(pk=submission.pk)
    assert (sub.submitted_by_player.name, sub.confirmed_by_player.name) == ("Ann", "Ben")
    history = new.get_model("scoring", "HistoricalHandSubmission").objects.get()
    assert history.history_player.name == "Ann"
    # the permission followed the model: same content type row, now labelled ``clubs``
    moved = new.get_model("contenttypes", "ContentType").objects.get(pk=player_type.pk)
    assert (moved.app_label, moved.model) == ("clubs", "player")
    assert not content_type.objects.filter(app_label="tournaments", model="player").exists()
    user = new.get_model("auth", "User").objects.get(pk=user.pk)
    assert list(user.user_permissions.values_list("content_type__app_label", "codename")) == [
        ("clubs", "change_player")
    ]

    # back to the latest state for the tests that follow
    executor = _executor()
    executor.migrate(executor.loader.graph.leaf_nodes())
    ContentType.objects.clear_cache()
