"""``WorkDue`` leaves the state of ``tournaments``: its table, with every row, is ``core``'s now
(``core`` 0004). Nothing is done to the database."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('core', '0004_workdue_from_tournaments'),
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
