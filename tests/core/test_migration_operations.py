"""``CreateModelIfMissing`` makes a missing table and takes over one that is there; ``ForgetModels``
changes the state only."""

from __future__ import annotations

import pytest
from django.db import connection, models
from django.db.migrations.state import ModelState, ProjectState

from core.migration_operations import CreateModelIfMissing, ForgetModels

TABLE = "core_test_scratch"


def _operation() -> CreateModelIfMissing:
    return CreateModelIfMissing(
        name="Scratch",
        fields=[
            ("id", models.BigAutoField(primary_key=True)),
            ("name", models.CharField(max_length=20)),
        ],
        options={"db_table": TABLE},
    )


def _tables() -> list[str]:
    return connection.introspection.table_names()


@pytest.mark.django_db(transaction=True)
def test_a_missing_table_is_made_and_one_there_is_kept_with_its_rows():
    operation = _operation()
    before = ProjectState()
    after = before.clone()
    operation.state_forwards("core", after)
    assert TABLE not in _tables()
    try:
        with connection.schema_editor() as editor:
            operation.database_forwards("core", editor, before, after)
        assert TABLE in _tables()
        scratch = after.apps.get_model("core", "Scratch")
        scratch.objects.create(name="kept")
        # again, as a squash does on a database whose older migration made the table
        with connection.schema_editor() as editor:
            operation.database_forwards("core", editor, before, after)
        assert list(scratch.objects.values_list("name", flat=True)) == ["kept"]
        # backwards leaves the table: it may be another migration's
        with connection.schema_editor() as editor:
            operation.database_backwards("core", editor, after, before)
        assert list(scratch.objects.values_list("name", flat=True)) == ["kept"]
    finally:
        if TABLE in _tables():
            with connection.schema_editor() as editor:
                editor.delete_model(after.apps.get_model("core", "Scratch"))
    assert "unless its table is there" in operation.describe()


def test_forget_models_takes_another_apps_models_out_of_the_state_only():
    state = ProjectState()
    for name in ("Club", "Player"):
        state.add_model(
            ModelState("old", name, [("id", models.BigAutoField(primary_key=True))], {})
        )
    operation = ForgetModels(app_label="old", names=["Player", "Club"])
    operation.state_forwards("scoring", state)
    assert not [key for key in state.models if key[0] == "old"]
    operation.state_forwards("scoring", state)  # models no longer there: nothing to forget
    assert operation.deconstruct() == (
        "ForgetModels",
        [],
        {"app_label": "old", "names": ["Player", "Club"]},
    )
    assert operation.describe() == "Forget old.Player, old.Club (state only)"
    assert operation.reversible
