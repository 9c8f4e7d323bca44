"""``Entry`` leaves the state of ``tournaments``: its table (``tournaments_entry``), with every
row, is ``entries``' now (``entries`` 0001). Nothing is done to the database.

It does not depend on ``entries``: the apps' migrations depend one way (``entries`` on
``tournaments``), as the models point."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0011_round_clock'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(
                    name='Entry',
                ),
            ],
        ),
    ]
