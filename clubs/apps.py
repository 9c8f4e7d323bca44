from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """Clubs, players, roles and invitations, and the accounts of the people who run them: below
    scoring and tournaments, importing neither."""

    name = "clubs"
    default_auto_field = "django.db.models.BigAutoField"
