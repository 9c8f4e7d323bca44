"""The work outbox (``WorkDue``) moves from ``tournaments`` to ``core`` with every row kept.

The table keeps its name (``tournaments_workdue``) and every row: the move itself only tells
Django's model state that the model now belongs to ``core`` (``tournaments`` 0007 then forgets
the old one). A fresh database, whose ``tournaments`` squash makes no such table, gets it here
(``CreateModelIfMissing`` makes a table only when it is missing). The content type is relabelled, so permissions granted on it and the admin's log
entries follow the model.

Two changes follow on the table. A row now names the Celery task that does its work (the outbox
sends tasks by name, and core imports no app's tasks): the ``kind`` column keeps its name and
its rows' values become task names (``ratings_match`` -> ``tournaments.ratings_update``,
``round_pair`` -> ``tournaments.round_pair``; backwards, the reverse), and it is widened to 100
characters for longer task names.
"""

from django.db import migrations, models

from core.migration_operations import CreateModelIfMissing

# What the rows held (a kind) and the name of the task that does that work.
KIND_TASKS = {
    "ratings_match": "tournaments.ratings_update",
    "round_pair": "tournaments.round_pair",
}


def _relabel(apps, schema_editor, old, new):
    content_type = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    if not content_type.objects.using(db).filter(app_label=new, model="workdue").exists():
        content_type.objects.using(db).filter(app_label=old, model="workdue").update(
            app_label=new
        )
    content_type.objects.clear_cache()


def _rename(apps, schema_editor, names):
    work_due = apps.get_model("core", "WorkDue")
    db = schema_editor.connection.alias
    for old, new in names.items():
        work_due.objects.using(db).filter(task=old).update(task=new)


def forwards(apps, schema_editor):
    _relabel(apps, schema_editor, "tournaments", "core")
    _rename(apps, schema_editor, KIND_TASKS)


def backwards(apps, schema_editor):
    _rename(apps, schema_editor, {task: kind for kind, task in KIND_TASKS.items()})
    _relabel(apps, schema_editor, "core", "tournaments")


class Migration(migrations.Migration):
    # ``core`` depends on no other app of Knock's. It depended on ``tournaments`` 0002 (where the
    # table was made) and ``scoring`` 0005 (clubs' move reached scoring): every database migrated
    # before this migration has both applied, and a fresh one makes the table here.
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("core", "0003_apitoken_from_drf"),
    ]

    operations = [
        # The table made by ``tournaments`` 0002 is taken over with every row; a fresh database
        # (whose ``tournaments`` squash makes no such table) gets it here.
        CreateModelIfMissing(
            name="WorkDue",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("task", models.CharField(db_column="kind", max_length=32)),
                ("key", models.PositiveBigIntegerField(help_text="The id the task takes (match, round).")),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("sent_at", models.DateTimeField(blank=True, null=True)),
                ("attempts", models.PositiveIntegerField(default=0)),
                ("error", models.TextField(blank=True)),
            ],
            options={
                "db_table": "tournaments_workdue",
                "ordering": ["id"],
                "indexes": [models.Index(fields=["task", "key"], name="workdue_kind_key")],
            },
        ),
        migrations.AlterField(
            model_name="workdue",
            name="task",
            field=models.CharField(db_column="kind", max_length=100),
        ),
        migrations.RunPython(forwards, backwards),
    ]
