"""Tournaments' foreign keys to clubs and players now name ``clubs`` (state only), and the old
``tournaments.Club``, ``ClubRole`` and ``Player`` leave the state.

The tables stay, with every row, owned by ``clubs`` now (``clubs`` 0001): nothing is done to the
database.

It depends on ``scoring`` 0005, which points scoring's foreign keys (declared in ``scoring`` 0002
and 0003) from ``tournaments.Player`` to ``clubs.Player``: until then ``tournaments.Player`` must
stay in the state, or any later migration fails to render it ("Related model
'tournaments.player' cannot be resolved"). Without it, ``migrate tournaments 0004`` on a fresh
database planned this migration before ``scoring`` 0002, and the next ``migrate`` failed. Every
database that has applied this migration has applied ``scoring`` 0005 too (a full ``migrate``
plans it first), so adding the dependency breaks no history. It is the one dependency of
``tournaments`` on ``scoring``, and comes from clubs' move: ``docs/architecture.md``.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0001_initial'),
        ('scoring', '0005_players_from_clubs'),
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
