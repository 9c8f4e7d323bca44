"""Ratings and their history move from ``tournaments`` to ``ratings``, keeping their tables.

The two tables keep their names (``tournaments_rating``, ``tournaments_ratinghistory``) and every
row: this migration tells Django's model state that the models now belong to ``ratings``.
``tournaments`` 0008 then forgets the old models (again in state only). A fresh database, whose
``tournaments`` squash makes no such tables, gets them here (``CreateModelIfMissing`` makes a
table only when it is missing).

The content types of the two models are relabelled from ``tournaments`` to ``ratings``, so the
permissions granted on them, and the admin's log entries, follow the models (a fresh database has
no content types yet, and nothing to relabel).

``RatingHistory.match``, the foreign key to ``scoring.Match``, is declared here and not in
``tournaments`` 0001, which declared it when first generated: that made ``tournaments`` depend on
``scoring`` while ``scoring`` depends on ``tournaments`` (``Match.event``), a cycle between the
two apps' migrations. Its column is added by ``AddFieldIfMissing``: a database whose
``tournaments`` 0001 made the column (every database migrated before this change) keeps it as it
is, with its rows; a fresh one gets it here, with the same index and foreign key constraint
(Django names both from the table and column, so the names are the same too). Migrating back
drops the column, as the state before this migration has no such field.
"""

import django.db.models.deletion
from django.db import migrations, models

from core.migration_operations import CreateModelIfMissing

MODELS = ("rating", "ratinghistory")
KINDS = [
    ("glicko2", "Glicko-2 (two players)"),
    ("openskill", "OpenSkill (three to six players, teams)"),
]


def _relabel(apps, schema_editor, old, new):
    content_type = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MODELS:
        if content_type.objects.using(db).filter(app_label=new, model=model).exists():
            continue  # already there (made by a post_migrate in between): leave both alone
        content_type.objects.using(db).filter(app_label=old, model=model).update(app_label=new)
    content_type.objects.clear_cache()


class AddFieldIfMissing(migrations.AddField):
    """``AddField`` that leaves the database alone when the table already has the column.

    The state changes either way; the column is made and dropped by ``AddField``'s own code, so
    a fresh database gets exactly what a plain ``AddField`` would give it.
    """

    def _column_exists(self, app_label, schema_editor, state_with_field):
        model = state_with_field.apps.get_model(app_label, self.model_name)
        column = model._meta.get_field(self.name).column
        connection = schema_editor.connection
        with connection.cursor() as cursor:
            table = connection.introspection.get_table_description(cursor, model._meta.db_table)
        return column in {info.name for info in table}

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if not self._column_exists(app_label, schema_editor, to_state):
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if self._column_exists(app_label, schema_editor, from_state):
            super().database_backwards(app_label, schema_editor, from_state, to_state)

    def describe(self):
        return f"{super().describe()} unless its column is there"


def forwards(apps, schema_editor):
    _relabel(apps, schema_editor, "tournaments", "ratings")


def backwards(apps, schema_editor):
    _relabel(apps, schema_editor, "ratings", "tournaments")


class Migration(migrations.Migration):
    initial = True

    # ``tournaments`` 0001 made the tables; ``scoring`` 0001 the table ``match`` points at.
    # ``tournaments`` 0008 forgets the old models in its own state, and needs nothing from here:
    # the apps' migrations depend one way (``tournaments`` never on ``ratings``).
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("clubs", "0001_initial"),
        ("scoring", "0007_acted_by"),
        ("tournaments", "0001_initial"),
    ]

    operations = [
        CreateModelIfMissing(
            name="Rating",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("kind", models.CharField(choices=KINDS, max_length=16)),
                ("rating", models.FloatField()),
                ("deviation", models.FloatField()),
                ("volatility", models.FloatField(blank=True, null=True)),
                ("games", models.PositiveIntegerField(default=0)),
                ("period_start", models.DateField(blank=True, null=True)),
                ("base_rating", models.FloatField(blank=True, null=True)),
                ("base_deviation", models.FloatField(blank=True, null=True)),
                ("base_volatility", models.FloatField(blank=True, null=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                ("club", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="ratings", to="clubs.club")),
                ("player", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="ratings", to="clubs.player")),
            ],
            options={
                "db_table": "tournaments_rating",
                "constraints": [models.UniqueConstraint(fields=("club", "player", "kind"), name="rating_unique")],
            },
        ),
        CreateModelIfMissing(
            name="RatingHistory",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("kind", models.CharField(choices=KINDS, max_length=16)),
                ("rating", models.FloatField()),
                ("deviation", models.FloatField()),
                ("volatility", models.FloatField(blank=True, null=True)),
                ("period_start", models.DateField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("club", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to="clubs.club")),
                ("player", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="rating_history", to="clubs.player")),
            ],
            options={
                "db_table": "tournaments_ratinghistory",
                "ordering": ["player", "created_at", "id"],
            },
        ),
        AddFieldIfMissing(
            model_name="ratinghistory",
            name="match",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to="scoring.match"),
        ),
        migrations.RunPython(forwards, backwards),
    ]
