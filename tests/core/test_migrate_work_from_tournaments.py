"""The work outbox moves from ``tournaments`` to ``core`` with every row kept.

A database made before the move (``tournaments`` 0006) holds work rows of both kinds and a
permission granted on the model. Migrating forward keeps every row, now naming the task that
does its work, and the permission follows the model to ``core``; migrating back restores the
kinds.
"""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.support import old_chain_executor

BEFORE = [
    ("core", "0003_apitoken_from_drf"),
    ("scoring", "0005_players_from_clubs"),
    ("tournaments", "0006_event_options_confirm_by_seat_link"),
]
FRAMEWORK = [
    ("contenttypes", "0002_remove_content_type_name"),
    ("auth", "0012_alter_user_first_name_max_length"),
]
AFTER = [
    ("core", "0004_workdue_from_tournaments"),
    ("tournaments", "0007_workdue_moved_to_core"),
]


def _executor() -> MigrationExecutor:
    """The old chain's migrations, as Django runs them on a database made before the squashes."""
    return old_chain_executor(connection)


@pytest.mark.django_db(transaction=True)
def test_work_rows_and_permissions_survive_the_move_and_come_back():
    executor = _executor()
    executor.migrate(BEFORE)
    old = executor.loader.project_state([*BEFORE, *FRAMEWORK]).apps
    work_due = old.get_model("tournaments", "WorkDue")
    ratings = work_due.objects.create(kind="ratings_match", key=11, attempts=2, error="E")
    pairing = work_due.objects.create(kind="round_pair", key=12)
    content_type = old.get_model("contenttypes", "ContentType")
    work_type, _ = content_type.objects.get_or_create(app_label="tournaments", model="workdue")
    permission = old.get_model("auth", "Permission").objects.get_or_create(
        content_type=work_type, codename="view_workdue", defaults={"name": "Can view work due"}
    )[0]
    user = old.get_model("auth", "User").objects.create(username="ops")
    user.user_permissions.add(permission.pk)

    executor = _executor()
    executor.migrate(AFTER)
    new = executor.loader.project_state([*AFTER, *FRAMEWORK]).apps
    ContentType.objects.clear_cache()
    assert "tournaments_workdue" in connection.introspection.table_names()
    rows = new.get_model("core", "WorkDue").objects.order_by("pk")
    assert [(r.pk, r.task, r.key, r.attempts, r.error) for r in rows] == [
        (ratings.pk, "tournaments.ratings_update", 11, 2, "E"),
        (pairing.pk, "tournaments.round_pair", 12, 0, ""),
    ]
    moved = new.get_model("contenttypes", "ContentType").objects.get(pk=work_type.pk)
    assert (moved.app_label, moved.model) == ("core", "workdue")
    user = new.get_model("auth", "User").objects.get(pk=user.pk)
    assert list(user.user_permissions.values_list("content_type__app_label", "codename")) == [
        ("core", "view_workdue")
    ]

    executor = _executor()
    executor.migrate(BEFORE)
    old = executor.loader.project_state([*BEFORE, *FRAMEWORK]).apps
    back = old.get_model("tournaments", "WorkDue").objects.order_by("pk")
    assert [(r.kind, r.key) for r in back] == [("ratings_match", 11), ("round_pair", 12)]
    ContentType.objects.clear_cache()

    # back to the latest state for the tests that follow
    executor = _executor()
    executor.migrate(executor.loader.graph.leaf_nodes())
    ContentType.objects.clear_cache()
