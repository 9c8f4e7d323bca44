"""Migration operations that take over what an older migration may have made already.

Squashed migrations (``replaces``) let a fresh database build each app's tables in its own
app, in one direction (``core`` <- ``clubs`` <- ``tournaments`` <- ``scoring`` <- ``ratings``),
while a database made before runs the old chain. A table that an old migration of *another*
app made (``tournaments`` 0001 made the clubs' tables) may be there when a squash runs, so the
squash creates it only when it is missing.
"""

from __future__ import annotations

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.operations.base import Operation
from django.db.migrations.state import ProjectState


def table_exists(schema_editor: BaseDatabaseSchemaEditor, table: str) -> bool:
    """Whether the database behind ``schema_editor`` has a table (or view) named ``table``."""
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        return table in connection.introspection.table_names(cursor)


class CreateModelIfMissing(migrations.CreateModel):
    """``CreateModel`` that leaves the database alone when the model's table is already there.

    The state changes either way; the table, its indexes and constraints are made by
    ``CreateModel``'s own code, so a fresh database gets exactly what a plain ``CreateModel``
    gives it. Backwards, the table stays (the migrations it stands for changed only the state
    there), and forwards again it is taken over as it is.
    """

    def _table(self, app_label: str, state: ProjectState) -> str:
        return str(state.apps.get_model(app_label, self.name)._meta.db_table)

    def database_forwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        if not table_exists(schema_editor, self._table(app_label, to_state)):
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        """Leave the table: it may be another migration's (the one that made it before this
        one found it), and going forward again takes it over as it is."""

    def describe(self) -> str:
        return f"{super().describe()} unless its table is there"


class ForgetModels(Operation):
    """State only: another app's models leave the state, those of them still there; the
    database is not touched.

    A model moved to another app keeps its table; the old model may leave the state only once
    nothing points at it, and the migration that repoints the last foreign keys may be another
    app's (``scoring`` 0005 forgets ``tournaments.Player``). A squash that replaces that
    migration forgets them too, when the old chain of the first app made them (a database with
    all of ``scoring``'s old migrations applied and some of ``tournaments``' ones).
    """

    reduces_to_sql = False
    reversible = True

    def __init__(self, app_label: str, names: list[str]) -> None:
        self.app_label = app_label
        self.names = names

    def deconstruct(self) -> tuple[str, list[object], dict[str, object]]:
        return (self.__class__.__name__, [], {"app_label": self.app_label, "names": self.names})

    def state_forwards(self, app_label: str, state: ProjectState) -> None:
        for name in self.names:
            if (self.app_label, name.lower()) in state.models:
                state.remove_model(self.app_label, name.lower())

    def database_forwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        """Nothing: the tables are the models' new app's."""

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        """Nothing: the tables are the models' new app's."""

    def describe(self) -> str:
        return f"Forget {', '.join(f'{self.app_label}.{name}' for name in self.names)} (state only)"
