"""Tournaments' foreign keys to clubs and players now name ``clubs`` (state only), and the old
``tournaments.Club``, ``ClubRole`` and ``Player`` leave the state.

The tables stay, with every row, owned by ``clubs`` now (``clubs`` 0001): nothing is done to the
database.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0001_initial'),
        ('tournaments', '0003_round_float_directions'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(
                    model_name='player',
                    name='club',
                ),
                migrations.AlterField(
                    model_name='rating',
                    name='club',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='clubs.club'),
                ),
                migrations.AlterField(
                    model_name='event',
                    name='club',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='events', to='clubs.club'),
                ),
                migrations.AlterField(
                    model_name='ratinghistory',
                    name='club',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.club'),
                ),
                migrations.RemoveField(
                    model_name='clubrole',
                    name='club',
                ),
                migrations.RemoveField(
                    model_name='clubrole',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='player',
                    name='user',
                ),
                migrations.AlterField(
                    model_name='forbiddenpairing',
                    name='player_b',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='standing',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='rating',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='forbiddenpairing',
                    name='player_a',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='ratinghistory',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_history', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='registration',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='registrations', to='clubs.player'),
                ),
                migrations.DeleteModel(
                    name='Club',
                ),
                migrations.DeleteModel(
                    name='ClubRole',
                ),
                migrations.DeleteModel(
                    name='Player',
                ),
            ],
        ),
    ]
