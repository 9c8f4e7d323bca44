from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registers the deploy checks; connects the worker heartbeat on start.
        from core import checks, signals  # noqa: F401
        from core.private import private_files_tighten

        # var/, the database and the backups are the owner's only; an older version left them
        # readable by everyone (core.private).
        private_files_tighten()
