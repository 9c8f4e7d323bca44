"""Clubs, club roles and players move from ``tournaments`` to ``clubs`` without touching the database.

The three tables keep their names (``tournaments_club``, ``tournaments_clubrole``,
``tournaments_player``) and every row: this migration only tells Django's model state that the
models now belong to ``clubs``. ``scoring`` 0005 and ``tournaments`` 0004 then point their foreign
keys at ``clubs`` (again in state only) and ``tournaments`` 0004 forgets the old models.

The content types of the three models are relabelled from ``tournaments`` to ``clubs``, so the
permissions granted on them, and the admin's log entries, follow the models (a fresh database has
no content types yet, and nothing to relabel).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ("club", "clubrole", "player")


def _relabel(apps, schema_editor, old, new):
    content_type = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MODELS:
        if content_type.objects.using(db).filter(app_label=new, model=model).exists():
            continue  # already there (made by a post_migrate in between): leave both alone
        content_type.objects.using(db).filter(app_label=old, model=model).update(app_label=new)
    content_type.objects.clear_cache()


def forwards(apps, schema_editor):
    _relabel(apps, schema_editor, "tournaments", "clubs")


def backwards(apps, schema_editor):
    _relabel(apps, schema_editor, "clubs", "tournaments")


class Migration(migrations.Migration):
    initial = True

    # It needed ``tournaments`` 0003 (the tables were made there) until ``clubs`` 0001_squashed
    # replaced it: Django runs this migration only when ``clubs`` 0002 is unapplied too, and then
    # it runs the squash instead, so this one is never run again, and a dependency here would
    # only be inherited by the squash and make ``clubs`` and ``tournaments`` depend on each other.
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="Club",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=120, verbose_name="name")),
                        ("slug", models.SlugField(max_length=80, unique=True)),
                        ("description", models.TextField(blank=True, verbose_name="description")),
                        ("rating_period_days", models.PositiveIntegerField(default=30, help_text="Glicko-2 rating period.", verbose_name="rating period (days)")),
                        ("gem_deck_map", models.JSONField(blank=True, default=dict, help_text='Which gem each card carries (Gem Rummy, RULES.md section 8), in the engine\'s own mapping form: {"AS": "ruby", ..., "KS": ["ruby", "emerald"]} (card notation to one gem, a king to two). Empty when the club has none. Read it with engine.gem.DeckMap.from_mapping(club.gem_deck_map); it is checked that way when saved.', verbose_name="Gem Rummy deck map")),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "db_table": "tournaments_club",
                        "ordering": ["name"],
                    },
                ),
                migrations.CreateModel(
                    name="ClubRole",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("role", models.CharField(choices=[("admin", "admin"), ("director", "director")], max_length=16)),
                        ("club", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="roles", to="clubs.club")),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "tournaments_clubrole",
                        "constraints": [models.UniqueConstraint(fields=("club", "user", "role"), name="clubrole_unique")],
                    },
                ),
                migrations.CreateModel(
                    name="Player",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=120, verbose_name="name")),
                        ("is_guest", models.BooleanField(default=False, verbose_name="guest")),
                        ("family", models.CharField(blank=True, help_text="Players of one family may be kept apart.", max_length=60, verbose_name="family")),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("club", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="players", to="clubs.club")),
                        ("user", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "tournaments_player",
                        "ordering": ["name"],
                        "constraints": [models.UniqueConstraint(fields=("club", "name"), name="player_unique_name_in_club")],
                    },
                ),
            ],
        ),
        migrations.RunPython(forwards, backwards),
    ]
