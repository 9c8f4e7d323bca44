"""Writes for clubs and their roles: create and edit a club, its Gem Rummy deck map, and granting
or revoking a role (inviting someone to one is :mod:`clubs.services.invitations`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.models import Club, ClubRole
from core.errors import ApplicationError
from core.i18n import engine_message
from core.names import name_clean
from engine.errors import EngineError
from engine.gem import DeckMap

if TYPE_CHECKING:
    from django.contrib.auth.models import User

RESERVED_CLUB_SLUGS = frozenset({"new"})
"""Addresses the site's own pages use (``/clubs/new/``), which no club may take."""


def club_fields_check(
    *, name: str, slug: str, rating_period_days: int, club: Club | None = None
) -> tuple[str, str]:
    """The cleaned name and address (slug) of a club being created, or ``club`` being edited.

    Raises the message a director can act on for an empty name, a rating period under a day, an
    address with no letter or digit, a reserved address, or an address another club has. Call it
    inside the transaction that writes the club.
    """
    name = name_clean(name, empty_message=_("A club needs a name."))
    if rating_period_days < 1:
        raise ApplicationError(
            _("The rating period is at least one day."), field="rating_period_days"
        )
    slug = slugify(slug or name)[:80]
    if not slug:
        raise ApplicationError(
            _("A club's address needs at least one letter or digit."), field="slug"
        )
    if slug in RESERVED_CLUB_SLUGS:
        raise ApplicationError(_("This address is reserved; choose another."), field="slug")
    taken = Club.objects.filter(slug=slug)
    if club is not None:
        taken = taken.exclude(pk=club.pk)
    if taken.exists():
        raise ApplicationError(
            _("The address %(slug)s is taken; choose another.") % {"slug": slug},
            status=409,
            field="slug",
        )
    return name, slug


def club_create(
    *,
    name: str,
    user: User | None,
    slug: str = "",
    description: str = "",
    rating_period_days: int = 30,
) -> Club:
    """Create a club; whoever creates it becomes its first admin."""
    with transaction.atomic():
        name, slug = club_fields_check(name=name, slug=slug, rating_period_days=rating_period_days)
        club = Club.objects.create(
            name=name, slug=slug, description=description, rating_period_days=rating_period_days
        )
        if user is not None:
            ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.ADMIN)
    return club


def club_update(
    *, club: Club, name: str, slug: str, description: str, rating_period_days: int
) -> Club:
    """Change a club's details; the slug (its address) stays unique."""
    with transaction.atomic():
        name, slug = club_fields_check(
            name=name, slug=slug, rating_period_days=rating_period_days, club=club
        )
        club.name, club.slug, club.description = name, slug, description
        club.rating_period_days = rating_period_days
        club.save(update_fields=["name", "slug", "description", "rating_period_days"])
    return club


def club_gem_deck_map_set(*, club: Club, mapping: Mapping[str, Any]) -> Club:
    """Store the club's Gem Rummy deck map after the engine has checked it (empty clears it).

    It is stored as given to :meth:`engine.gem.DeckMap.from_mapping` (card notation to a gem,
    a king to a list of two), so scoring reads it back with that one call.
    """
    data = dict(mapping)
    if data:
        try:
            DeckMap.from_mapping(data)
        except EngineError as exc:
            raise ApplicationError(engine_message(exc), field="gem_deck_map") from exc
    Club.objects.filter(pk=club.pk).update(gem_deck_map=data)
    club.gem_deck_map = data
    return club


def club_role_grant(*, club: Club, user: User, role: str) -> ClubRole:
    """Make ``user`` an admin or a director of ``club`` (granting twice changes nothing)."""
    if role not in ClubRole.Role.values:
        raise ApplicationError(
            _("A role is admin or director, not %(role)s.") % {"role": role}, field="role"
        )
    club_role, _created = ClubRole.objects.get_or_create(club=club, user=user, role=role)
    return club_role


def club_role_revoke(*, club: Club, user: User, role: str) -> None:
    """Take a role away; a club always keeps at least one admin."""
    with transaction.atomic():
        roles = ClubRole.objects.select_for_update().filter(club=club)
        if role == ClubRole.Role.ADMIN:
            admins = [r.user_id for r in roles if r.role == ClubRole.Role.ADMIN]
            if admins == [user.pk]:
                raise ApplicationError(
                    _("A club keeps at least one admin."), status=409, field="role"
                )
        roles.filter(user=user, role=role).delete()
