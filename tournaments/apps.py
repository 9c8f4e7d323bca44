from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring.organiser import organiser_register
        from tournaments import tasks  # noqa: F401  (registers the tasks the services send)
        from tournaments.organiser import TournamentsOrganiser

        organiser_register(organiser=TournamentsOrganiser())
