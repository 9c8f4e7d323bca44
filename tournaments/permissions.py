"""Who may do what with events: directors (event or club) manage them.

The club-role rules (who runs a club, who may direct in it) are in ``clubs.permissions``.

Anyone may read clubs, players, public event pages, standings, brackets and ratings. A player's
own check-in link needs no account: its secret token is the credential.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from clubs.permissions import user_has_club_role
from core.errors import ApplicationError
from tournaments.models import Event


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
    if user_has_club_role(user=user, club_id=event.club_id):
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
