"""Writes for clubs, club roles and players."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from core.errors import ApplicationError
from tournaments.models import Club, ClubRole, Player


def club_create(
    *,
    name: str,
    user: User | None,
    slug: str = "",
    description: str = "",
    rating_period_days: int = 30,
) -> Club:
    """Create a club; whoever creates it becomes its first admin."""
    name = name.strip()
    if not name:
        raise ApplicationError("a club needs a name", field="name")
    if rating_period_days < 1:
        raise ApplicationError("the rating period is at least one day", field="rating_period_days")
    slug = slugify(slug or name)[:80]
    if not slug:
        raise ApplicationError("a club needs a slug made of letters or digits", field="slug")
    with transaction.atomic():
        if Club.objects.filter(slug=slug).exists():
            raise ApplicationError(f"the address {slug!r} is taken", status=409, field="slug")
        club = Club.objects.create(
            name=name, slug=slug, description=description, rating_period_days=rating_period_days
        )
        if user is not None:
            ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.ADMIN)
    return club


def club_role_grant(*, club: Club, user: User, role: str) -> ClubRole:
    """Make ``user`` an admin or a director of ``club`` (granting twice changes nothing)."""
    if role not in ClubRole.Role.values:
        raise ApplicationError(f"a role is admin or director, not {role!r}", field="role")
    club_role, _ = ClubRole.objects.get_or_create(club=club, user=user, role=role)
    return club_role


def player_create(
    *,
    club: Club,
    name: str,
    user: User | None = None,
    is_guest: bool = False,
    family: str = "",
) -> Player:
    """Add a player to a club's list; no account is needed (guests are common)."""
    name = name.strip()
    if not name:
        raise ApplicationError("a player needs a name", field="name")
    try:
        with transaction.atomic():
            return Player.objects.create(
                club=club, name=name, user=user, is_guest=is_guest, family=family.strip()
            )
    except IntegrityError as exc:
        raise ApplicationError(
            f"{club.name} already has a player called {name!r}", status=409, field="name"
        ) from exc
