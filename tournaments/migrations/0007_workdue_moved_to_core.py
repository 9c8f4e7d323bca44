"""``WorkDue`` leaves the state of ``tournaments``: its table, with every row, is ``core``'s now
(``core`` 0004). Nothing is done to the database.

It does not depend on ``core`` 0004: forgetting a model nothing points at needs no other app's
state, and ``core`` 0004 depends on ``tournaments`` (the table was made here), so that
dependency made a cycle between the apps' migrations. (An applied migration is not run again:
dropping a dependency changes no database.)"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0006_event_options_confirm_by_seat_link'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(
                    name='WorkDue',
                ),
            ],
        ),
    ]
