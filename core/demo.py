"""Demo data: what a new user sees after ``make run``.

Every step looks up what it would create first, so running it twice changes nothing. The club,
its events and their results come from each app's own demo loader, which goes through that app's
services.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model

from scoring.demo import demo_scoring_load
from tournaments.demo import demo_tournaments_load

DEMO_PASSWORD = "knock-demo"  # printed to the user on purpose: it is demo data


def demo_load(*, known_password: bool = True) -> list[str]:
    """Create the demo director account and the demo club; return a readable report.

    ``known_password`` False (production settings): the account gets a random password, shown
    once in the report, never the documented demo password."""
    user_model = get_user_model()
    director, created = user_model.objects.get_or_create(
        username="director", defaults={"is_staff": True, "is_superuser": True}
    )
    password = DEMO_PASSWORD if known_password else secrets.token_urlsafe(18)
    if created:
        director.set_password(password)
        director.save(update_fields=["password"])
        report = [f"Director account: director / {password} (created)"]
    else:
        report = ["Director account: director (kept, password unchanged)"]
        if known_password:
            report = [f"Director account: director / {DEMO_PASSWORD} (kept)"]
    report += demo_tournaments_load()
    report += demo_scoring_load()
    return report
