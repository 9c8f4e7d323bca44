from django.apps import AppConfig


class PrintingConfig(AppConfig):
    """Printing and exports: above tournaments, imported by no other app; no models."""

    name = "printing"
