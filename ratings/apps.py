from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """Club ratings: above scoring and clubs, below tournaments, importing no tournaments code."""

    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"
