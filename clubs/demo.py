"""Demo data of the clubs app: the director account a new user signs in with after ``make run``.

``demo_director_load()`` is called first by ``tournaments.demo.demo_load``, which gathers every
app's loader. Idempotent: the account is looked up first and kept if it exists.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model

DEMO_PASSWORD = "knock-demo"  # printed to the user on purpose: it is demo data


def demo_director_load(*, known_password: bool = True) -> list[str]:
    """Create (or keep) the demo director account; return a readable line.

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
        return [f"Director account: director / {password} (created)"]
    if known_password:
        return [f"Director account: director / {DEMO_PASSWORD} (kept)"]
    return ["Director account: director (kept, password unchanged)"]
