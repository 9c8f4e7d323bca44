"""``Rating`` and ``RatingHistory`` leave the state of ``tournaments``: their tables, with every
row, are ``ratings``' now (``ratings`` 0001). Nothing is done to the database."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0001_initial'),
        ('tournaments', '0007_workdue_moved_to_core'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(
                    name='Rating',
                ),
                migrations.DeleteModel(
                    name='RatingHistory',
                ),
            ],
        ),
    ]
