"""Demo data: what a new user sees after ``make run``.

Every step looks up what it would create first, so running it twice changes nothing. The club,
its events and their results come from each app's own demo loader, which goes through that app's
services.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from scoring.demo import demo_scoring_load
from tournaments.demo import demo_tournaments_load

DEMO_PASSWORD = "knock-demo"  # printed to the user on purpose: it is demo data


def demo_load() -> list[str]:
    """Create the demo director account and the demo club; return a readable report."""
    user_model = get_user_model()
    director, created = user_model.objects.get_or_create(
        username="director", defaults={"is_staff": True, "is_superuser": True}
    )
    if created:
        director.set_password(DEMO_PASSWORD)
        director.save(update_fields=["password"])
    report = [f"Director account: director / {DEMO_PASSWORD} ({'created' if created else 'kept'})"]
    report += demo_tournaments_load()
    report += demo_scoring_load()
    return report
