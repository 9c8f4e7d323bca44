"""Ratings and their history move from ``tournaments`` to ``ratings`` with every row kept.

A database migrated to the state just before the move (every migration but ``ratings`` 0001 and
the ``tournaments`` migration that forgets the old models) holds a club, players, an event, a
finished match, ratings of both kinds, their history (one row pointing at the match) and a
permission granted on ratings. Migrating forward must keep all of it, reachable through the
new models, and the permission must follow the model to its new app.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection, migrations, models
from django.db.migrations.executor import MigrationExecutor

from tests.support import old_chain_executor

MOVED = ("ratings", "0001_initial")


def _executor() -> MigrationExecutor:
    """The old chain's migrations, as Django runs them on a database made before the squashes."""
    return old_chain_executor(connection)


def _forgetting(executor: MigrationExecutor) -> tuple[str, str]:
    """The ``tournaments`` migration that forgets the old models: the one whose state operations
    delete ``RatingHistory`` (it does not depend on ``MOVED``: ``tournaments`` never depends on
    ``ratings``)."""
    (node,) = [
        key
        for key, migration in executor.loader.graph.nodes.items()
        if key[0] == "tournaments"
        and any(
            isinstance(step, migrations.DeleteModel) and step.name == "RatingHistory"
            for operation in migration.operations
            for step in getattr(operation, "state_operations", [operation])
        )
    ]
    return node


@pytest.mark.django_db(transaction=True)
def test_rows_and_permissions_survive_the_move():
    executor = _executor()
    forgetting = _forgetting(executor)
    # everything else at its latest (but what needs the forgetting: an app whose migrations
    # depend on a later ``tournaments`` one), ``tournaments`` just before it forgets the models
    graph = executor.loader.graph
    before = [
        *(
            key
            for key in graph.leaf_nodes()
            if key[0] not in {"ratings", "tournaments"}
            and forgetting not in graph.forwards_plan(key)
        ),
        *(p.key for p in executor.loader.graph.node_map[forgetting].parents if p.key != MOVED),
    ]
    executor.migrate([("ratings", None)])
    executor = _executor()
    executor.migrate(before)
    old = _executor().loader.project_state(before).apps
    assert "tournaments_rating" in connection.introspection.table_names()

    user = old.get_model("auth", "User").objects.create(username="ann-user")
    club = old.get_model("clubs", "Club").objects.create(name="Old club", slug="old-club")
    player = old.get_model("clubs", "Player")
    ann = player.objects.create(club=club, name="Ann")
    ben = player.objects.create(club=club, name="Ben")
    event = old.get_model("tournaments", "Event").objects.create(
        club=club, name="Old night", kind="club_night", rules={}, match_format={}
    )
    match = old.get_model("scoring", "Match").objects.create(
        event=event, rules={}, status="finished", winner=ann
    )
    rating = old.get_model("tournaments", "Rating")
    rating.objects.create(
        club=club,
        player=ann,
        kind="glicko2",
        rating=1612.5,
        deviation=80.0,
        volatility=0.06,
        games=3,
        period_start=date(2026, 11, 30),
        base_rating=1500.0,
        base_deviation=120.0,
        base_volatility=0.06,
    )
    rating.objects.create(club=club, player=ben, kind="openskill", rating=25.0, deviation=8.0)
    history = old.get_model("tournaments", "RatingHistory")
    # Every database migrated before ``ratings`` 0001 declared ``match`` has the column, made by
    # ``tournaments`` 0001 as first generated; a fresh one gets it from ``ratings`` 0001. Made here
    # as that migration made it, so that ``ratings`` 0001 finds it and keeps its rows.
    match_field = models.ForeignKey(
        old.get_model("scoring", "Match"),
        blank=True,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    match_field.contribute_to_class(history, "match")
    with connection.schema_editor() as editor:
        editor.add_field(history, match_field)
    history.objects.create(
        club=club, player=ann, kind="glicko2", rating=1612.5, deviation=80.0, match=match
    )
    history.objects.create(
        club=club,
        player=ben,
        kind="glicko2",
        rating=1500.0,
        deviation=200.0,
        period_start=date(2026, 11, 30),
    )
    content_type = old.get_model("contenttypes", "ContentType")
    rating_type, _ = content_type.objects.get_or_create(app_label="tournaments", model="rating")
    permission = old.get_model("auth", "Permission").objects.get_or_create(
        content_type=rating_type, codename="change_rating", defaults={"name": "Can change rating"}
    )[0]
    user.user_permissions.add(permission.pk)

    executor = _executor()
    after = [MOVED, forgetting]
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    ContentType.objects.clear_cache()

    ratings = new.get_model("ratings", "Rating").objects.order_by("player__name")
    assert [
        (
            r.player.name,
            r.club.slug,
            r.kind,
            r.rating,
            r.deviation,
            r.volatility,
            r.games,
            r.period_start,
            r.base_rating,
            r.base_deviation,
        )
        for r in ratings
    ] == [
        ("Ann", "old-club", "glicko2", 1612.5, 80.0, 0.06, 3, date(2026, 11, 30), 1500.0, 120.0),
        ("Ben", "old-club", "openskill", 25.0, 8.0, None, 0, None, None, None),
    ]
    rows = new.get_model("ratings", "RatingHistory").objects.order_by("player__name")
    assert [(h.player.name, h.match_id, h.period_start) for h in rows] == [
        ("Ann", match.pk, None),
        ("Ben", None, date(2026, 11, 30)),
    ]
    assert list(new.get_model("clubs", "Player").objects.get(pk=ann.pk).ratings.all()) == [
        ratings[0]
    ]
    # the permission followed the model: same content type row, now labelled ``ratings``
    moved = new.get_model("contenttypes", "ContentType").objects.get(pk=rating_type.pk)
    assert (moved.app_label, moved.model) == ("ratings", "rating")
    assert not content_type.objects.filter(app_label="tournaments", model="rating").exists()
    user = new.get_model("auth", "User").objects.get(pk=user.pk)
    assert list(user.user_permissions.values_list("content_type__app_label", "codename")) == [
        ("ratings", "change_rating")
    ]

    # back to the latest state for the tests that follow
    executor = _executor()
    executor.migrate(executor.loader.graph.leaf_nodes())
    ContentType.objects.clear_cache()
