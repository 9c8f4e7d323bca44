"""Tournaments' first tables, with no dependency on ``scoring``.

As generated (Django 5.2.19, 2026-11-29) this migration also gave ``RatingHistory`` a ``match``
foreign key to ``scoring.Match``, and so depended on ``scoring`` 0001, while ``scoring`` 0002
and 0003 depend on this one (``Match.event``, ``Match.round``): the two apps' migrations formed
a cycle. ``RatingHistory`` now belongs to ``ratings``, which may depend on ``scoring``: the
``match`` field is declared there (``ratings`` 0001), and its column is added there when it is
missing. An applied migration is never run again, so editing this file changes no database:

- a database that applied this migration as generated has the ``match_id`` column with its
  index and foreign key constraint; ``ratings`` 0001 finds it and leaves it alone;
- a fresh database gets the table without it here, and ``ratings`` 0001 adds the same column,
  index and constraint (the same names; only the column's position in the table differs).
"""

import django.db.models.deletion
import tournaments.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
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
                'ordering': ['name'],
            },
        ),
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
                ('options', models.JSONField(blank=True, default=dict, help_text='bye_points, late_entry_points, double_round_robin, groups, playoff_cut, third_place, grand_final_reset, avoid_same_table, forbid_same_club, forbid_family')),
                ('tiebreaks', models.JSONField(blank=True, default=list)),
                ('lots_seed', models.BigIntegerField(default=0)),
                ('draw', models.JSONField(blank=True, default=dict)),
                ('results_seq', models.PositiveBigIntegerField(default=0)),
                ('standings_seq', models.PositiveBigIntegerField(default=0)),
                ('standings_updated_at', models.DateTimeField(blank=True, null=True)),
                ('ratings_seq', models.PositiveBigIntegerField(default=0)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='events', to='tournaments.club')),
                ('directors', models.ManyToManyField(blank=True, related_name='directed_events', to=settings.AUTH_USER_MODEL)),
                ('league', models.ForeignKey(blank=True, limit_choices_to={'kind': 'league'}, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='league_events', to='tournaments.event')),
            ],
            options={
                'ordering': ['-starts_on', '-id'],
            },
        ),
        migrations.CreateModel(
            name='Player',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('is_guest', models.BooleanField(default=False, verbose_name='guest')),
                ('family', models.CharField(blank=True, help_text='Players of one family may be kept apart.', max_length=60, verbose_name='family')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='players', to='tournaments.club')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['name'],
            },
        ),
        migrations.CreateModel(
            name='ForbiddenPairing',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('hard', models.BooleanField(default=True)),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='forbidden_pairings', to='tournaments.event')),
                ('player_a', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.player')),
                ('player_b', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.player')),
            ],
        ),
        migrations.CreateModel(
            name='Rating',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('glicko2', 'Glicko-2 (two players)'), ('openskill', 'OpenSkill (three to six players, teams)')], max_length=16)),
                ('rating', models.FloatField()),
                ('deviation', models.FloatField()),
                ('volatility', models.FloatField(blank=True, null=True)),
                ('games', models.PositiveIntegerField(default=0)),
                ('period_start', models.DateField(blank=True, null=True)),
                ('base_rating', models.FloatField(blank=True, null=True)),
                ('base_deviation', models.FloatField(blank=True, null=True)),
                ('base_volatility', models.FloatField(blank=True, null=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='tournaments.club')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='tournaments.player')),
            ],
        ),
        migrations.CreateModel(
            name='RatingHistory',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('glicko2', 'Glicko-2 (two players)'), ('openskill', 'OpenSkill (three to six players, teams)')], max_length=16)),
                ('rating', models.FloatField()),
                ('deviation', models.FloatField()),
                ('volatility', models.FloatField(blank=True, null=True)),
                ('period_start', models.DateField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.club')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_history', to='tournaments.player')),
            ],
            options={
                'ordering': ['player', 'created_at', 'id'],
            },
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
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='registrations', to='tournaments.player')),
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
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.player')),
            ],
            options={
                'ordering': ['event', 'rank'],
            },
        ),
        migrations.CreateModel(
            name='ClubRole',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('admin', 'admin'), ('director', 'director')], max_length=16)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='roles', to='tournaments.club')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('club', 'user', 'role'), name='clubrole_unique')],
            },
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.CheckConstraint(condition=models.Q(('standings_seq__lte', models.F('results_seq'))), name='event_standings_not_ahead_of_results'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(fields=('club', 'name'), name='player_unique_name_in_club'),
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
            model_name='rating',
            constraint=models.UniqueConstraint(fields=('club', 'player', 'kind'), name='rating_unique'),
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
