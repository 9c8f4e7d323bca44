"""``manage.py restore FILE``: check a backup, then put it back, into an empty database only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from core.backups import backup_restore
from core.errors import ApplicationError


class Command(BaseCommand):
    help = (
        "Restore a backup written by `manage.py backup` into an empty database. The file is "
        "checked first (a Knock backup, whole, unchanged, signed with this install's "
        "SECRET_KEY, taken at this version's migrations); anything else is refused and nothing "
        "is changed."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--allow-foreign-key",
            action="store_true",
            help=(
                "accept a backup signed with another SECRET_KEY (another install): skips the "
                "signature check only; the format, size, checksum, integrity and migrations "
                "are still checked"
            ),
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["allow_foreign_key"]:
            self.stderr.write(
                "--allow-foreign-key: the signature is not checked; the file's format, size, "
                "checksum, integrity and migrations are."
            )
        try:
            backup_restore(path=options["file"], allow_foreign_key=options["allow_foreign_key"])
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(self.style.SUCCESS(f"Restored {options['file']}."))
