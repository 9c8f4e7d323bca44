from django.apps import AppConfig


class EntriesConfig(AppConfig):
    """Online entry: the public entry page and API, the director's list, the waiting list."""

    name = "entries"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from entries import receivers  # noqa: F401  (connects tournaments' signals)
        from entries.demo import demo_entries_load
        from tournaments.demo import demo_loader_register

        demo_loader_register(demo_entries_load)
