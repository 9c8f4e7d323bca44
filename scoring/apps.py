from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring import signals  # noqa: F401  (connects the history receiver)
