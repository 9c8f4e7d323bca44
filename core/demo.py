"""Demo data: what a new user sees after ``make run``.

Every step looks up what it would create first, so running it twice changes nothing.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

DEMO_PASSWORD = "knock-demo"  # printed to the user on purpose: it is demo data


def demo_load() -> list[str]:
    """Create the demo director account and return a readable report of what exists."""
    user_model = get_user_model()
    director, created = user_model.objects.get_or_create(
        username="director", defaults={"is_staff": True, "is_superuser": True}
    )
    if created:
        director.set_password(DEMO_PASSWORD)
        director.save(update_fields=["password"])
    return [f"Director account: director / {DEMO_PASSWORD} ({'created' if created else 'kept'})"]
