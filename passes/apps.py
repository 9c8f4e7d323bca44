from django.apps import AppConfig


class PassesConfig(AppConfig):
    """Player passes: one link per registration for the event (issue #27)."""

    name = "passes"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from passes import receivers  # noqa: F401  (connects tournaments' signals)
        from passes.demo import demo_passes_load
        from tournaments.demo import demo_loader_register

        demo_loader_register(demo_passes_load)
