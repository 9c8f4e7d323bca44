"""Who may do what in a club: admins run the club, directors (and admins) run its events.

The club-role rules every app above asks: pages and the API ask :func:`user_can_manage_club` and
:func:`user_can_direct_club`; "who directs an event" (a club role counts) is
``tournaments.permissions.events_directed``.
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
