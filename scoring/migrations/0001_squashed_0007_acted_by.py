"""Matches, games, hands, seats, submissions and match keys, squashed (``scoring`` 0001 to
0007).

A fresh database makes ``scoring``'s tables here, after ``tournaments`` (``Match.event``,
``Match.round``) and ``clubs`` (seats name players). Every database migrated before has
``scoring`` 0001 to 0006 applied, so Django runs the old chain there for what is missing.
"""

import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models

from core.migration_operations import ForgetModels


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('scoring', '0001_initial'),
        ('scoring', '0002_initial'),
        ('scoring', '0003_match_keys_disputes'),
        ('scoring', '0004_hand_submission_winner_columns'),
        ('scoring', '0005_players_from_clubs'),
        ('scoring', '0006_match_live_seq'),
        ('scoring', '0007_acted_by'),
    ]

    dependencies = [
        ('clubs', '0001_squashed_0002_role_invitation'),
        ('tournaments', '0001_squashed_0009_event_options_help_text'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Game',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('status', models.CharField(choices=[('playing', 'playing'), ('finished', 'finished')], default='playing', max_length=16)),
                ('first_dealer', models.PositiveSmallIntegerField(default=0)),
                ('result', models.JSONField(blank=True, default=dict)),
                ('winner_position', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('winner_team', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('margin', models.IntegerField(blank=True, null=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
            ],
            options={
                'ordering': ['match', 'number'],
            },
        ),
        migrations.CreateModel(
            name='Hand',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='hands', to='scoring.game')),
            ],
            options={
                'ordering': ['game', 'number'],
            },
        ),
        migrations.CreateModel(
            name='IdempotencyRecord',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(max_length=200)),
                ('scope', models.CharField(help_text='Who sent it: user id or match link.', max_length=200)),
                ('method', models.CharField(max_length=8)),
                ('path', models.CharField(max_length=300)),
                ('body_hash', models.CharField(max_length=64)),
                ('status_code', models.PositiveSmallIntegerField()),
                ('response', models.JSONField()),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('scope', 'key'), name='idempotency_unique_key')],
            },
        ),
        migrations.CreateModel(
            name='Match',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('table_number', models.PositiveIntegerField(blank=True, null=True)),
                ('bracket_key', models.CharField(blank=True, help_text='The bracket match this is (elimination events).', max_length=40)),
                ('rules', models.JSONField()),
                ('match_format', models.JSONField(default=dict)),
                ('status', models.CharField(choices=[('scheduled', 'scheduled'), ('playing', 'playing'), ('finished', 'finished')], default='playing', max_length=16)),
                ('decision', models.CharField(choices=[('played', 'played'), ('bye', 'bye'), ('walkover', 'walkover'), ('forfeit', 'both forfeit')], default='played', max_length=16)),
                ('winner_team', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('summary', models.JSONField(blank=True, default=dict)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('live_seq', models.PositiveBigIntegerField(default=0)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='matches', to='tournaments.event')),
                ('round', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='matches', to='tournaments.round')),
                ('winner', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.player')),
            ],
            options={
                'verbose_name_plural': 'matches',
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.AddField(
            model_name='game',
            name='match',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='games', to='scoring.match'),
        ),
        migrations.CreateModel(
            name='MatchKey',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('nonce', models.CharField(max_length=64)),
                ('digest', models.CharField(max_length=64, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('revoked_at', models.DateTimeField(blank=True, null=True)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='keys', to='scoring.match')),
                ('revoked_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['match', 'position', '-created_at'],
            },
        ),
        migrations.CreateModel(
            name='HistoricalHandSubmission',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('history_ip', models.GenericIPAddressField(blank=True, null=True)),
                ('history_user_agent', models.CharField(blank=True, max_length=300)),
                ('history_via', models.CharField(blank=True, choices=[('seat_link', 'seat link'), ('table_link', 'table link'), ('session', 'signed in'), ('token', 'API token')], max_length=16)),
                ('history_via_key', models.PositiveBigIntegerField(blank=True, null=True)),
                ('version', models.PositiveIntegerField()),
                ('entry', models.CharField(choices=[('cards', 'by cards'), ('counts', 'by counts'), ('dead', 'dead hand'), ('rummy', 'rummy hand')], max_length=16)),
                ('payload', models.JSONField(help_text='The input exactly as entered.')),
                ('result', models.JSONField(help_text="The engine's verdict: outcome, winner, points, ...")),
                ('winner_position', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('winner_team', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('outcome', models.CharField(blank=True, max_length=16)),
                ('status', models.CharField(choices=[('pending', 'waiting for confirmation'), ('confirmed', 'confirmed'), ('withdrawn', 'withdrawn'), ('superseded', 'superseded'), ('disputed', 'disputed')], default='pending', max_length=16)),
                ('submitted_via', models.CharField(blank=True, choices=[('seat_link', 'seat link'), ('table_link', 'table link'), ('session', 'signed in'), ('token', 'API token')], max_length=16)),
                ('confirmed_via', models.CharField(blank=True, choices=[('seat_link', 'seat link'), ('table_link', 'table link'), ('session', 'signed in'), ('token', 'API token')], max_length=16)),
                ('override_reason', models.TextField(blank=True)),
                ('dispute_reason', models.CharField(blank=True, max_length=500)),
                ('disputed_at', models.DateTimeField(blank=True, null=True)),
                ('disputed_via', models.CharField(blank=True, choices=[('seat_link', 'seat link'), ('table_link', 'table link'), ('session', 'signed in'), ('token', 'API token')], max_length=16)),
                ('ip_address', models.GenericIPAddressField(blank=True, null=True)),
                ('user_agent', models.CharField(blank=True, max_length=300)),
                ('created_at', models.DateTimeField(blank=True, editable=False)),
                ('confirmed_at', models.DateTimeField(blank=True, null=True)),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('confirmed_by_player', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.player')),
                ('confirmed_by_user', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('disputed_by_player', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.player')),
                ('disputed_by_user', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('hand', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='scoring.hand')),
                ('history_player', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='clubs.player')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('submitted_by_player', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.player')),
                ('submitted_by_user', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('confirmed_via_key', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='scoring.matchkey')),
                ('disputed_via_key', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='scoring.matchkey')),
                ('submitted_via_key', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='scoring.matchkey')),
            ],
            options={
                'verbose_name': 'historical hand submission',
                'verbose_name_plural': 'historical hand submissions',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HandSubmission',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('version', models.PositiveIntegerField()),
                ('entry', models.CharField(choices=[('cards', 'by cards'), ('counts', 'by counts'), ('dead', 'dead hand'), ('rummy', 'rummy hand')], max_length=16)),
                ('payload', models.JSONField(help_text='The input exactly as entered.')),
                ('result', models.JSONField(help_text="The engine's verdict: outcome, winner, points, ...")),
                ('winner_position', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('winner_team', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('outcome', models.CharField(blank=True, max_length=16)),
                ('status', models.CharField(choices=[('pending', 'waiting for confirmation'), ('confirmed', 'confirmed'), ('withdrawn', 'withdrawn'), ('superseded', 'superseded'), ('disputed', 'disputed')], default='pending', max_length=16)),
                ('submitted_via', models.CharField(blank=True, choices=[('seat_link', 'seat link'), ('table_link', 'table link'), ('session', 'signed in'), ('token', 'API token')], max_length=16)),
                ('confirmed_via', models.CharField(blank=True, choices=[('seat_link', 'seat link'), ('table_link', 'table link'), ('session', 'signed in'), ('token', 'API token')], max_length=16)),
                ('override_reason', models.TextField(blank=True)),
                ('dispute_reason', models.CharField(blank=True, max_length=500)),
                ('disputed_at', models.DateTimeField(blank=True, null=True)),
                ('disputed_via', models.CharField(blank=True, choices=[('seat_link', 'seat link'), ('table_link', 'table link'), ('session', 'signed in'), ('token', 'API token')], max_length=16)),
                ('ip_address', models.GenericIPAddressField(blank=True, null=True)),
                ('user_agent', models.CharField(blank=True, max_length=300)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('confirmed_at', models.DateTimeField(blank=True, null=True)),
                ('confirmed_by_player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='clubs.player')),
                ('confirmed_by_user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('disputed_by_player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='clubs.player')),
                ('disputed_by_user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('hand', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='submissions', to='scoring.hand')),
                ('submitted_by_player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='clubs.player')),
                ('submitted_by_user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('confirmed_via_key', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scoring.matchkey')),
                ('disputed_via_key', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scoring.matchkey')),
                ('submitted_via_key', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scoring.matchkey')),
            ],
            options={
                'ordering': ['hand', 'version'],
            },
        ),
        migrations.CreateModel(
            name='Seat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('team', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='scoring.match')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='clubs.player')),
            ],
            options={
                'ordering': ['match', 'position'],
            },
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.UniqueConstraint(fields=('game', 'number'), name='hand_unique_number'),
        ),
        migrations.AddIndex(
            model_name='match',
            index=models.Index(fields=['event', 'status'], name='scoring_mat_event_i_95a7e2_idx'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.UniqueConstraint(fields=('match', 'number'), name='game_unique_number'),
        ),
        migrations.AddConstraint(
            model_name='matchkey',
            constraint=models.UniqueConstraint(condition=models.Q(('position__isnull', False), ('revoked_at__isnull', True)), fields=('match', 'position'), name='matchkey_one_active_per_seat'),
        ),
        migrations.AddConstraint(
            model_name='matchkey',
            constraint=models.UniqueConstraint(condition=models.Q(('position__isnull', True), ('revoked_at__isnull', True)), fields=('match',), name='matchkey_one_active_table_link'),
        ),
        migrations.AddConstraint(
            model_name='handsubmission',
            constraint=models.UniqueConstraint(fields=('hand', 'version'), name='submission_unique_version'),
        ),
        migrations.AddConstraint(
            model_name='handsubmission',
            constraint=models.UniqueConstraint(condition=models.Q(('status', 'confirmed')), fields=('hand',), name='submission_one_confirmed_per_hand'),
        ),
        migrations.AddConstraint(
            model_name='handsubmission',
            constraint=models.UniqueConstraint(condition=models.Q(('status__in', ['pending', 'disputed'])), fields=('hand',), name='submission_one_open_per_hand'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(fields=('match', 'position'), name='seat_unique_position'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(fields=('match', 'player'), name='seat_unique_player'),
        ),
        # A database with all of scoring's old migrations applied and some of tournaments' migrates
        # by this squash and tournaments' old chain, whose 0001 made ``tournaments.Player``, ``Club``
        # and ``ClubRole`` (state only: their tables are clubs'); ``scoring`` 0005, replaced here,
        # forgot them. On a fresh database they were never there.
        ForgetModels(app_label='tournaments', names=['Player', 'ClubRole', 'Club']),
    ]
