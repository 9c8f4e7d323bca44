"""Online entries move from ``tournaments`` to ``entries`` with every row kept.

A database migrated to the state just before the move (``tournaments`` 0011, no ``entries``
migration) holds an event with a registration and entries in each state (one accepted with its
registration, one waiting, one merged into it) and a permission granted on entries. Migrating
forward must keep all of it, reachable through the new model (in English, the language every
entry made before had its mails in), and the permission must follow the model to its new app.
"""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.support import old_chain_executor

FORGETTING = ("tournaments", "0012_entry_moved")


def _executor() -> MigrationExecutor:
    return old_chain_executor(connection)


@pytest.mark.django_db(transaction=True)
def test_rows_and_permissions_survive_the_move():
    executor = _executor()
    graph = executor.loader.graph
    before = [
        *(
            key
            for key in graph.leaf_nodes()
            if key[0] not in {"entries", "tournaments"}
            and FORGETTING not in graph.forwards_plan(key)
        ),
        *(p.key for p in graph.node_map[FORGETTING].parents),
    ]
    executor.migrate([("entries", None)])
    executor = _executor()
    executor.migrate(before)
    old = _executor().loader.project_state(before).apps
    assert "tournaments_entry" in connection.introspection.table_names()

    user = old.get_model("auth", "User").objects.create(username="ann-user")
    club = old.get_model("clubs", "Club").objects.create(name="Old club", slug="old-club")
    ann = old.get_model("clubs", "Player").objects.create(club=club, name="Ann")
    event = old.get_model("tournaments", "Event").objects.create(
        club=club, name="Old open", kind="swiss", rules={}, match_format={}
    )
    registration = old.get_model("tournaments", "Registration").objects.create(
        event=event, player=ann
    )
    entry = old.get_model("tournaments", "Entry")
    accepted = entry.objects.create(
        event=event,
        name="Ann",
        player=ann,
        email="ann@example.org",
        status="accepted",
        registration=registration,
    )
    waiting = entry.objects.create(
        event=event, name="Ben", email="ben@example.org", status="waiting", waiting_position=1
    )
    merged = entry.objects.create(
        event=event, name="ben", status="withdrawn", merged_into=waiting, note="twice"
    )
    content_type = old.get_model("contenttypes", "ContentType")
    entry_type, _ = content_type.objects.get_or_create(app_label="tournaments", model="entry")
    permission = old.get_model("auth", "Permission").objects.get_or_create(
        content_type=entry_type, codename="change_entry", defaults={"name": "Can change entry"}
    )[0]
    user.user_permissions.add(permission.pk)

    executor = _executor()
    executor.migrate(executor.loader.graph.leaf_nodes())
    new = executor.loader.project_state(executor.loader.graph.leaf_nodes()).apps
    ContentType.objects.clear_cache()

    rows = new.get_model("entries", "Entry").objects.order_by("pk")
    assert [
        (
            e.pk,
            e.name,
            e.status,
            e.registration_id,
            e.player_id,
            e.waiting_position,
            e.merged_into_id,
            e.email,
            e.language,
        )
        for e in rows
    ] == [
        (
            accepted.pk,
            "Ann",
            "accepted",
            registration.pk,
            ann.pk,
            None,
            None,
            "ann@example.org",
            "en",
        ),
        (waiting.pk, "Ben", "waiting", None, None, 1, None, "ben@example.org", "en"),
        (merged.pk, "ben", "withdrawn", None, None, None, waiting.pk, "", "en"),
    ]
    reg = new.get_model("tournaments", "Registration").objects.get(pk=registration.pk)
    assert reg.entry.pk == accepted.pk
    assert new.get_model("tournaments", "Event").objects.get(pk=event.pk).entries.count() == 3
    # the permission followed the model: same content type row, now labelled ``entries``
    moved = new.get_model("contenttypes", "ContentType").objects.get(pk=entry_type.pk)
    assert (moved.app_label, moved.model) == ("entries", "entry")
    assert not content_type.objects.filter(app_label="tournaments", model="entry").exists()
    user = new.get_model("auth", "User").objects.get(pk=user.pk)
    assert list(user.user_permissions.values_list("content_type__app_label", "codename")) == [
        ("entries", "change_entry")
    ]
