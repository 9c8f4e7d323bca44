"""``manage.py demo``: load the demo club. Idempotent: a second run changes nothing.

The demo's director account has a password printed on screen: fine on a laptop, never on a
real site. Under production settings (``DEBUG`` off and a ``SECRET_KEY`` from the environment,
i.e. ``config.settings.production``) the command refuses unless ``--force`` is given, and even
then the director account gets a random password (printed once) instead of the known one.
"""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from tournaments.demo import demo_load


def production_settings() -> bool:
    return os.environ.get("DJANGO_SETTINGS_MODULE", "").endswith(".production")


class Command(BaseCommand):
    help = "Load Knock's demo data (idempotent). Refuses production settings unless --force."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="Load the demo on production settings anyway (with a random password).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        production = production_settings()
        if production and not options["force"]:
            raise CommandError(
                "These are production settings: the demo would add a demo club and a director "
                "account. Run it with --force if you really mean it (the account then gets a "
                "random password)."
            )
        with transaction.atomic():
            report = demo_load(known_password=not production)
        for line in report:
            self.stdout.write(line)
