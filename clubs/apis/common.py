"""What the club APIs share (and the apps above reuse): the base view, the signed-in user, and
the club lookups (any club, or one the user runs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.views import APIView

from clubs.models import Club
from clubs.permissions import user_can_direct_club, user_can_manage_club
from core.permissions import ReadOnlyOrAuthenticated, require

if TYPE_CHECKING:
    from django.contrib.auth.models import User


# No docstring: the schema takes a view's docstring as its operations' description.
class BaseApi(APIView):
    permission_classes = [ReadOnlyOrAuthenticated]


def request_user(request: Request) -> User | None:
    """The signed-in user, or None (an API token's user counts as signed in)."""
    user = request.user
    return user if isinstance(user, get_user_model()) else None


def club_get(club_id: int) -> Club:
    return get_object_or_404(Club, pk=club_id)


def managed_club(request: Request, club_id: int) -> Club:
    """The club, if the user is one of its admins (or a superuser): details, deck map, roles."""
    club = club_get(club_id)
    require(
        user_can_manage_club(user=request.user, club=club),
        _("Only the club's admins may do this."),
    )
    return club


def directed_club(request: Request, club_id: int) -> Club:
    """The club, if the user is one of its admins or directors: its player list."""
    club = club_get(club_id)
    require(
        user_can_direct_club(user=request.user, club=club),
        _("Only the club's admins and directors may do this."),
    )
    return club
