"""Scoring's foreign keys to players now name ``clubs.Player`` (state only).

The player table is unchanged (``tournaments_player``, see ``clubs`` 0001), so the columns and
their constraints already point at the right table: nothing is done to the database. Then the
old ``tournaments.Club``, ``ClubRole`` and ``Player`` leave the state (``tournaments`` 0004 has
pointed tournaments' own foreign keys at ``clubs``; nothing names them any more).
"""

import django.db.models.deletion
from django.db import migrations, models

from core.migration_operations import ForgetModels


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0001_initial'),
        ('scoring', '0004_hand_submission_winner_columns'),
        # tournaments' own foreign keys point at ``clubs`` there; then nothing names the old models
        ('tournaments', '0004_clubs_players_roles_moved'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name='handsubmission',
                    name='confirmed_by_player',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='handsubmission',
                    name='disputed_by_player',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='handsubmission',
                    name='submitted_by_player',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='historicalhandsubmission',
                    name='confirmed_by_player',
                    field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='historicalhandsubmission',
                    name='disputed_by_player',
                    field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='historicalhandsubmission',
                    name='history_player',
                    field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='historicalhandsubmission',
                    name='submitted_by_player',
                    field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='match',
                    name='winner',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='seat',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='clubs.player'),
                ),
            ],
        ),
        # The old models leave the state once nothing points at them (their tables are ``clubs``').
        ForgetModels(app_label='tournaments', names=['Player', 'ClubRole', 'Club']),
    ]
