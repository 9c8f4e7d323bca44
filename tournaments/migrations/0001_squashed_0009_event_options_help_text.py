"""Events, registrations, rounds, standings and the event log, squashed (``tournaments`` 0001
to 0009).

A fresh database makes ``tournaments``' tables here, after ``clubs`` (events belong to a club,
registrations name players) and before ``scoring``, never the other way round: the clubs'
tables are ``clubs``' own squash's, ``WorkDue`` is ``core`` 0004's, ``Rating`` and
``RatingHistory`` are ``ratings`` 0001's. Every database migrated before has ``tournaments``
0001 to 0005 applied, so Django runs the old chain there for what is missing (it uses a squash
only when none or all of the migrations it replaces are applied).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import tournaments.models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('tournaments', '0001_initial'),
        ('tournaments', '0002_durable_work_and_standings_state'),
        ('tournaments', '0003_round_float_directions'),
        ('tournaments', '0004_clubs_players_roles_moved'),
        ('tournaments', '0005_event_log'),
        ('tournaments', '0006_event_options_confirm_by_seat_link'),
        ('tournaments', '0007_workdue_moved_to_core'),
        ('tournaments', '0008_ratings_moved'),
        ('tournaments', '0009_event_options_help_text'),
    ]

    dependencies = [
        ('clubs', '0001_squashed_0002_role_invitation'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Event',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=160, verbose_name='name')),
                ('kind', models.CharField(choices=[('club_night', 'club night'), ('league', 'league'), ('swiss', 'Swiss'), ('round_robin', 'round robin'), ('single_elim', 'single elimination'), ('double_elim', 'double elimination')], max_length=16, verbose_name='kind')),
                ('status', models.CharField(choices=[('registration', 'registration'), ('running', 'running'), ('finished', 'finished')], default='registration', max_length=16)),
                ('starts_on', models.DateField(blank=True, null=True, verbose_name='date')),
                ('rules', models.JSONField(verbose_name='rules')),
                ('match_format', models.JSONField(default=dict, verbose_name='match format')),
                ('confirmation', models.CharField(choices=[('none', 'no confirmation'), ('opponent', 'opponent confirms'), ('director', 'director confirms')], default='opponent', max_length=16)),
                ('rounds_planned', models.PositiveIntegerField(blank=True, null=True)),
                ('options', models.JSONField(blank=True, default=dict, help_text='Options this event sets, by name; one left out has its default.')),
                ('tiebreaks', models.JSONField(blank=True, default=list)),
                ('lots_seed', models.BigIntegerField(default=0)),
                ('draw', models.JSONField(blank=True, default=dict)),
                ('results_seq', models.PositiveBigIntegerField(default=0)),
                ('standings_seq', models.PositiveBigIntegerField(default=0)),
                ('standings_updated_at', models.DateTimeField(blank=True, null=True)),
                ('standings_queued_at', models.DateTimeField(blank=True, null=True)),
                ('standings_error', models.TextField(blank=True)),
                ('standings_error_seq', models.PositiveBigIntegerField(blank=True, null=True)),
                ('ratings_seq', models.PositiveBigIntegerField(default=0)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='events', to='clubs.club')),
                ('directors', models.ManyToManyField(blank=True, related_name='directed_events', to=settings.AUTH_USER_MODEL)),
                ('league', models.ForeignKey(blank=True, limit_choices_to={'kind': 'league'}, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='league_events', to='tournaments.event')),
            ],
            options={
                'ordering': ['-starts_on', '-id'],
            },
        ),
        migrations.CreateModel(
            name='EventLog',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('round_forced', 'round paired before the last one was complete')], max_length=32)),
                ('round_number', models.PositiveIntegerField(blank=True, null=True)),
                ('reason', models.CharField(max_length=500)),
                ('details', models.JSONField(blank=True, default=dict)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='log', to='tournaments.event')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['event', '-created_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='ForbiddenPairing',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('hard', models.BooleanField(default=True)),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='forbidden_pairings', to='tournaments.event')),
                ('player_a', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.player')),
                ('player_b', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.player')),
            ],
        ),
        migrations.CreateModel(
            name='Registration',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('registered', 'registered'), ('checked_in', 'checked in'), ('dropped', 'dropped')], default='registered', max_length=16)),
                ('seed', models.PositiveIntegerField(blank=True, null=True)),
                ('joined_round', models.PositiveIntegerField(default=1, help_text='A late entry joins at a later round.')),
                ('dropped_after_round', models.PositiveIntegerField(blank=True, null=True)),
                ('requested_byes', models.JSONField(blank=True, default=list)),
                ('checkin_token', models.CharField(default=tournaments.models._token, max_length=40, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='registrations', to='tournaments.event')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='registrations', to='clubs.player')),
            ],
            options={
                'ordering': ['seed', 'id'],
            },
        ),
        migrations.CreateModel(
            name='Round',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('status', models.CharField(choices=[('queued', 'pairing queued'), ('paired', 'paired'), ('failed', 'pairing failed'), ('finished', 'finished')], default='queued', max_length=16)),
                ('error_code', models.CharField(blank=True, max_length=32)),
                ('error_params', models.JSONField(blank=True, default=dict)),
                ('error', models.TextField(blank=True)),
                ('floats', models.JSONField(blank=True, default=dict)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rounds', to='tournaments.event')),
            ],
            options={
                'ordering': ['event', 'number'],
            },
        ),
        migrations.CreateModel(
            name='Standing',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('rank', models.PositiveIntegerField()),
                ('values', models.JSONField(default=dict)),
                ('seq', models.PositiveBigIntegerField()),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='tournaments.event')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.player')),
            ],
            options={
                'ordering': ['event', 'rank'],
            },
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.CheckConstraint(condition=models.Q(('standings_seq__lte', models.F('results_seq'))), name='event_standings_not_ahead_of_results'),
        ),
        migrations.AddConstraint(
            model_name='forbiddenpairing',
            constraint=models.UniqueConstraint(fields=('event', 'player_a', 'player_b'), name='forbidden_pairing_unique'),
        ),
        migrations.AddConstraint(
            model_name='forbiddenpairing',
            constraint=models.CheckConstraint(condition=models.Q(('player_a', models.F('player_b')), _negated=True), name='forbidden_pairing_two_players'),
        ),
        migrations.AddConstraint(
            model_name='registration',
            constraint=models.UniqueConstraint(fields=('event', 'player'), name='registration_unique'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.UniqueConstraint(fields=('event', 'number'), name='round_unique_number'),
        ),
        migrations.AddConstraint(
            model_name='standing',
            constraint=models.UniqueConstraint(fields=('event', 'player'), name='standing_unique_player'),
        ),
    ]
