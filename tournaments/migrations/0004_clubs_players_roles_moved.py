"""Tournaments' foreign keys to clubs and players now name ``clubs`` (state only).

The tables stay, with every row, owned by ``clubs`` now (``clubs`` 0001): nothing is done to the
database.

The old ``tournaments.Club``, ``ClubRole`` and ``Player`` left the state here too, and this
migration depended on ``scoring`` 0005 (which points scoring's foreign keys at ``clubs.Player``):
until then ``tournaments.Player`` must stay in the state, or any later migration fails to render
it ("Related model 'tournaments.player' cannot be resolved"). That was the one dependency of
``tournaments`` on ``scoring``, and made the two apps' migrations depend on each other. Now
``scoring`` 0005 forgets the three models, after this migration (``scoring`` depends on
``tournaments``, as ``Match.event`` does): the state at the end is the same, no plan can render
it half-moved, and nothing is done to any database either way (an applied migration is not run
again). ``docs/architecture.md``.
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
            ],
        ),
    ]
