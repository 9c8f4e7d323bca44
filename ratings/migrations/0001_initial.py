"""Ratings and their history move from ``tournaments`` to ``ratings`` without touching the database.

The two tables keep their names (``tournaments_rating``, ``tournaments_ratinghistory``) and every
row: this migration only tells Django's model state that the models now belong to ``ratings``.
``tournaments`` 0008 then forgets the old models (again in state only).

The content types of the two models are relabelled from ``tournaments`` to ``ratings``, so the
permissions granted on them, and the admin's log entries, follow the models (a fresh database has
no content types yet, and nothing to relabel).
"""

import django.db.models.deletion
from django.db import migrations, models

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


def forwards(apps, schema_editor):
    _relabel(apps, schema_editor, "tournaments", "ratings")


def backwards(apps, schema_editor):
    _relabel(apps, schema_editor, "ratings", "tournaments")


class Migration(migrations.Migration):
    initial = True

    # Not on a ``tournaments`` migration: the tables are made by ``tournaments`` 0001, which
    # ``clubs`` 0001 already needs, and a dependency on a later one would plan ``tournaments``
    # 0004 (clubs' move) on a fresh database before the ``scoring`` migrations that still name
    # ``tournaments.Player``. ``tournaments`` 0008 forgets the old models after this one.
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("clubs", "0001_initial"),
        ("scoring", "0007_acted_by"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
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
                migrations.CreateModel(
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
                        ("match", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to="scoring.match")),
                        ("player", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="rating_history", to="clubs.player")),
                    ],
                    options={
                        "db_table": "tournaments_ratinghistory",
                        "ordering": ["player", "created_at", "id"],
                    },
                ),
            ],
        ),
        migrations.RunPython(forwards, backwards),
    ]
