"""Who may do what in a club: admins run the club, directors (and admins) run its events.

The club-role rules every app above asks: tournaments builds "who directs an event" on
:func:`user_has_club_role`; pages and the API ask :func:`user_can_manage_club` and
:func:`user_can_direct_club`.
"""

from __future__ import annotations

from typing import Any

from clubs.models import Club, ClubRole


def user_can_manage_club(*, user: Any, club: Club) -> bool:
    """Club admins (and site superusers) run the club: its details, roles and player list."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return ClubRole.objects.filter(club=club, user=user, role=ClubRole.Role.ADMIN).exists()


def user_can_direct_club(*, user: Any, club: Club) -> bool:
    """Club admins and club directors may create events and add players."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return ClubRole.objects.filter(club=club, user=user).exists()


def user_has_club_role(*, user: Any, club_id: int) -> bool:
    """Whether a signed-in ``user`` holds any role (admin or director) in club ``club_id``.

    One query, which does not load the club. Superusers are not special here: the callers'
    rules say what a superuser may.
    """
    return ClubRole.objects.filter(club_id=club_id, user_id=user.pk).exists()
