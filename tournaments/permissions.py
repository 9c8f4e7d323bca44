"""Who may do what: club admins manage the club; directors (event or club) manage events.

Anyone may read clubs, players, public event pages, standings, brackets and ratings. A player's
own check-in link needs no account: its secret token is the credential.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from core.errors import ApplicationError
from tournaments.models import Club, ClubRole, Event


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


def user_can_manage_event(*, user: Any, event: Event) -> bool:
    """Who directs an event: its directors, its club's admins and directors, and superusers.

    The one definition of the rule: pages, the API and scoring (through
    ``scoring.selectors.event_is_director``) all ask here. Anonymous users and ``None`` never
    direct. At most two small queries, neither of which loads ``event.club``.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if getattr(user, "is_superuser", False):
        return True
    if ClubRole.objects.filter(club_id=event.club_id, user_id=user.pk).exists():
        return True
    return event.directors.filter(pk=user.pk).exists()


def require(allowed: bool, message: str | None = None) -> None:
    """Raise the application's 403 unless ``allowed`` (``message`` says who may)."""
    if not allowed:
        raise ApplicationError(message or _("You may not do this here."), status=403)


class ReadOnlyOrAuthenticated(BasePermission):
    """Reads are public; writes need a signed-in user (the view checks the role)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        return bool(request.user and request.user.is_authenticated)
