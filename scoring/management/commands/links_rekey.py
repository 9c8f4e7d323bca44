"""``manage.py links_rekey``: after changing ``KNOCK_LINK_KEY`` (or ``SECRET_KEY`` without it),
make every active private link work again under the new key (the links themselves change:
reprint them)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from scoring.services.links import match_keys_rekey


class Command(BaseCommand):
    help = "Re-derive every active private link under the current link key (links change)."

    def handle(self, *args: Any, **options: Any) -> None:
        updated = match_keys_rekey()
        self.stdout.write(f"{updated} link(s) re-derived under the current key: reprint them.")
