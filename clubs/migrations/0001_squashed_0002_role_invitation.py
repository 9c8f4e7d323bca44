"""Clubs, club roles, players and role invitations, squashed (``clubs`` 0001 and 0002).

A fresh database makes the clubs' tables here, depending on no other app of Knock's, so the
apps' migrations depend one way (``core`` <- ``clubs`` <- ``tournaments`` <- ``scoring`` <-
``ratings``). The tables keep the names ``tournaments`` 0001 gave them when clubs were part of
``tournaments`` (``db_table``). Django runs this squash when none or all of the migrations it
replaces are applied, and the old chain otherwise. A database made before clubs' move (no
``clubs`` migration applied) has the three tables from ``tournaments`` 0001: ``CreateModelIfMissing``
leaves them, with every row, and the content types are relabelled as ``clubs`` 0001 did.
"""

import django.db.models.deletion
import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models

from core.migration_operations import CreateModelIfMissing

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

    replaces = [
        ('clubs', '0001_initial'),
        ('clubs', '0002_role_invitation'),
    ]

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        CreateModelIfMissing(
            name='Club',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('slug', models.SlugField(max_length=80, unique=True)),
                ('description', models.TextField(blank=True, verbose_name='description')),
                ('rating_period_days', models.PositiveIntegerField(default=30, help_text='Glicko-2 rating period.', verbose_name='rating period (days)')),
                ('gem_deck_map', models.JSONField(blank=True, default=dict, help_text='Which gem each card carries (Gem Rummy, RULES.md section 8), in the engine\'s own mapping form: {"AS": "ruby", ..., "KS": ["ruby", "emerald"]} (card notation to one gem, a king to two). Empty when the club has none. Read it with engine.gem.DeckMap.from_mapping(club.gem_deck_map); it is checked that way when saved.', verbose_name='Gem Rummy deck map')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'db_table': 'tournaments_club',
                'ordering': ['name'],
            },
        ),
        CreateModelIfMissing(
            name='ClubRole',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('admin', 'admin'), ('director', 'director')], max_length=16)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='roles', to='clubs.club')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'db_table': 'tournaments_clubrole',
                'constraints': [models.UniqueConstraint(fields=('club', 'user', 'role'), name='clubrole_unique')],
            },
        ),
        CreateModelIfMissing(
            name='Player',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('is_guest', models.BooleanField(default=False, verbose_name='guest')),
                ('family', models.CharField(blank=True, help_text='Players of one family may be kept apart.', max_length=60, verbose_name='family')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='players', to='clubs.club')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'db_table': 'tournaments_player',
                'ordering': ['name'],
                'constraints': [models.UniqueConstraint(fields=('club', 'name'), name='player_unique_name_in_club')],
            },
        ),
        migrations.CreateModel(
            name='RoleInvitation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('username', models.CharField(max_length=150, verbose_name='username')),
                ('role', models.CharField(choices=[('admin', 'admin'), ('director', 'director')], max_length=16)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('accepted_at', models.DateTimeField(blank=True, null=True)),
                ('accepted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invitations', to='clubs.club')),
                ('invited_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['created_at', 'id'],
                'indexes': [models.Index(django.db.models.functions.text.Lower('username'), name='roleinvitation_username')],
                'constraints': [models.UniqueConstraint(django.db.models.functions.text.Lower('username'), models.F('club'), models.F('role'), condition=models.Q(('accepted_at__isnull', True)), name='roleinvitation_one_pending'), models.CheckConstraint(condition=models.Q(('role__in', ['admin', 'director'])), name='roleinvitation_role')],
            },
        ),
        migrations.RunPython(forwards, backwards),
    ]
