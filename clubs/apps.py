from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """Clubs, players and roles: below scoring and tournaments, importing neither."""

    name = "clubs"
    default_auto_field = "django.db.models.BigAutoField"
