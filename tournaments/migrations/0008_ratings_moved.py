"""``Rating`` and ``RatingHistory`` leave the state of ``tournaments``: their tables, with every
row, are ``ratings``' now (``ratings`` 0001). Nothing is done to the database.

It does not depend on ``ratings`` 0001: forgetting a model nothing points at needs no other
app's state, and ``ratings`` depends on ``scoring``, which depends on ``tournaments``, so that
dependency made a cycle between the apps' migrations. (An applied migration is not run again:
dropping a dependency changes no database.)"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
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
