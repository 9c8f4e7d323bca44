"""``manage.py backup``: a consistent, dated, signed copy of the database, safe while Knock runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from core.backups import backup_create, backup_prune
from core.errors import ApplicationError


class Command(BaseCommand):
    help = (
        "Write a consistent copy of the database (SQLite online backup, or pg_dump custom "
        "format) with the migrations it was taken at, signed with SECRET_KEY, as one private "
        "file knock-YYYYMMDD-HHMMSS.sqlite3.tar (or .pgdump.tar) in KNOCK_BACKUP_DIR (default "
        "var/backups)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--dir", type=Path, help="where to write it")
        parser.add_argument("--keep", type=int, help="then delete all but the newest KEEP")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            path = backup_create(directory=options["dir"])
            if options["keep"]:
                for old in backup_prune(keep=options["keep"], directory=path.parent):
                    self.stdout.write(f"deleted {old}")
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(self.style.SUCCESS(f"Backup written: {path}"))
