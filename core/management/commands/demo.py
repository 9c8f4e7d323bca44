"""``manage.py demo``: load the demo club. Idempotent: a second run changes nothing."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from core.demo import demo_load


class Command(BaseCommand):
    help = "Load Knock's demo data (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            report = demo_load()
        for line in report:
            self.stdout.write(line)
