"""``manage.py restore FILE``: put a backup back, into an empty database only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from core.backups import backup_restore
from core.errors import ApplicationError


class Command(BaseCommand):
    help = "Restore a backup written by `manage.py backup` into an empty database."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            backup_restore(path=options["file"])
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(self.style.SUCCESS(f"Restored {options['file']}."))
