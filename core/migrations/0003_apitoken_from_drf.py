"""DRF's tokens (``authtoken_token``, keys in clear) become ApiTokens (digests only).

Every existing key keeps working: its SHA-256 digest is stored, with its first characters for
display, its user and its creation time. The old table is then emptied and, since
``rest_framework.authtoken`` is no longer installed, dropped with its migration records (so
that installing the app again would start it afresh). On SQLite the rows are deleted under
``secure_delete``, so the freed pages are zeroed: the keys stay neither in the file nor in a
backup taken from it. On PostgreSQL, ``DROP TABLE`` removes the table's files.

The table is read by raw SQL, and only if it exists: a new site never had it. Nothing is
undone backwards: the keys are gone (moving back past this migration revokes every token).
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from django.apps import apps as global_apps
from django.db import migrations
from django.utils.dateparse import parse_datetime

TABLE = "authtoken_token"


def _aware(value: Any) -> datetime:
    when = parse_datetime(value) if isinstance(value, str) else value
    if when is None:
        return datetime.now(UTC)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def move_drf_tokens(apps: Any, schema_editor: Any) -> int:
    """Copy each DRF token's digest into ApiToken, then rid the database of the keys.

    Answers how many tokens were moved (0 when there was no DRF table).
    """
    connection = schema_editor.connection
    if TABLE not in connection.introspection.table_names():
        return 0
    quote = connection.ops.quote_name
    ApiToken = apps.get_model("core", "ApiToken")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {quote('key')}, {quote('user_id')}, {quote('created')} FROM {TABLE}"
        )
        rows = cursor.fetchall()
        moved = [
            ApiToken(
                user_id=user_id,
                digest=hashlib.sha256(str(key).encode()).hexdigest(),
                prefix=str(key)[:8],
                created=_aware(created),
            )
            for key, user_id, created in rows
        ]
        ApiToken.objects.using(schema_editor.connection.alias).bulk_create(
            moved, ignore_conflicts=True
        )
        sqlite = connection.vendor == "sqlite"
        if sqlite:
            # Deleted rows (and the freed pages of the dropped table) are overwritten with zeros.
            cursor.execute("PRAGMA secure_delete")
            was = cursor.fetchone()[0]
            cursor.execute("PRAGMA secure_delete = ON")
        if global_apps.is_installed("rest_framework.authtoken"):
            cursor.execute(f"DELETE FROM {TABLE}")  # a site that installs it again keeps it
        else:
            cursor.execute(f"DROP TABLE {TABLE}")
            cursor.execute(
                f"DELETE FROM {quote('django_migrations')} WHERE {quote('app')} = %s",
                ["authtoken"],
            )
        if sqlite:
            cursor.execute(f"PRAGMA secure_delete = {int(was)}")
    return len(moved)


def forwards(apps: Any, schema_editor: Any) -> None:
    move_drf_tokens(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [("core", "0002_apitoken")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop, elidable=False)]
