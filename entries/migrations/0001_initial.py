"""Online entries move from ``tournaments`` to ``entries``, keeping their table.

The table keeps its name (``tournaments_entry``) and every row: this migration tells Django's
model state that the model now belongs to ``entries``, after ``tournaments`` 0012 forgot it
(in state only). ``tournaments`` 0010 made the table on every database, old or fresh, so
``CreateModelIfMissing`` finds it; it makes one only when it is missing.

The model's content type is relabelled from ``tournaments`` to ``entries``, so the permissions
granted on it, and the admin's log entries, follow the model (a fresh database has no content
types yet, and nothing to relabel).
"""

import django.db.models.deletion
from django.db import migrations, models

from core.migration_operations import CreateModelIfMissing

STATUSES = [
    ("pending", "awaiting approval"),
    ("accepted", "accepted"),
    ("waiting", "on the waiting list"),
    ("refused", "refused"),
    ("withdrawn", "withdrawn"),
]


def _relabel(apps, schema_editor, old, new):
    content_type = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    if not content_type.objects.using(db).filter(app_label=new, model="entry").exists():
        content_type.objects.using(db).filter(app_label=old, model="entry").update(app_label=new)
    content_type.objects.clear_cache()


def forwards(apps, schema_editor):
    _relabel(apps, schema_editor, "tournaments", "entries")


def backwards(apps, schema_editor):
    _relabel(apps, schema_editor, "entries", "tournaments")


class Migration(migrations.Migration):
    initial = True

    # ``tournaments`` 0010 made the table and 0012 forgets the old model; ``tournaments`` never
    # depends on ``entries``.
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("clubs", "0002_role_invitation"),
        ("tournaments", "0012_entry_moved"),
    ]

    operations = [
        CreateModelIfMissing(
            name="Entry",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=120, verbose_name="name")),
                ("email", models.EmailField(blank=True, max_length=254, verbose_name="email")),
                ("note", models.CharField(blank=True, max_length=500, verbose_name="note")),
                ("status", models.CharField(choices=STATUSES, default="pending", max_length=16)),
                ("waiting_position", models.PositiveIntegerField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                ("event", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="entries", to="tournaments.event")),
                ("merged_into", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="merged", to="entries.entry")),
                ("player", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="entries", to="clubs.player")),
                ("registration", models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="entry", to="tournaments.registration")),
            ],
            options={
                "db_table": "tournaments_entry",
                "ordering": ["event", "created_at", "id"],
                "constraints": [models.UniqueConstraint(condition=models.Q(("status__in", ["pending", "accepted", "waiting"])), fields=("event", "player"), name="entry_one_active_per_player")],
            },
        ),
        migrations.RunPython(forwards, backwards),
    ]
