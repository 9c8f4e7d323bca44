"""Scoring's foreign keys to players now name ``clubs.Player`` (state only).

The player table is unchanged (``tournaments_player``, see ``clubs`` 0001), so the columns and
their constraints already point at the right table: nothing is done to the database.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0001_initial'),
        ('scoring', '0004_hand_submission_winner_columns'),
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
    ]
