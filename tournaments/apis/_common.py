"""What the tournament APIs share: pagination, the signed-in user, the base view, the error
shape, and the club and event lookups (any one, or one the user runs).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Club
from clubs.permissions import user_can_direct_club, user_can_manage_club
from core.pagination import paginate
from scoring.apis import ERROR
from tournaments.models import Event
from tournaments.permissions import ReadOnlyOrAuthenticated, require, user_can_manage_event

# The error responses the director endpoints document. A service's ApplicationError is
# ``{"detail", "field"?}``; input the serializer refuses is ``{"<field>": ["message", ...]}``.
INVALID = OpenApiResponse(
    ERROR,
    description="Invalid input: {detail, field} from a service, or {<field>: [messages]} when "
    "the input does not parse.",
)
FORBIDDEN = OpenApiResponse(
    ERROR, description="Not signed in, or signed in without the role this needs."
)
NOT_FOUND = OpenApiResponse(ERROR, description="No such object.")


def conflict(description: str) -> OpenApiResponse:
    """A 409: the request clashes with what is stored (``field`` names the input at fault)."""
    return OpenApiResponse(ERROR, description=description)


def _paginate(request: Request, view: APIView, queryset: Any, serializer: type) -> Response:
    """One page of a list view's items (the view sets ``pagination_class = Pagination``)."""
    return paginate(request, view, queryset, serializer)


def _user(request: Request) -> User | None:
    user = request.user
    return user if isinstance(user, User) else None


class _Api(APIView):
    permission_classes = [ReadOnlyOrAuthenticated]


def _event(event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("club"), pk=event_id)


def _managed_event(request: Request, event_id: int) -> Event:
    event = _event(event_id)
    require(
        user_can_manage_event(user=request.user, event=event),
        _("Only this event's directors and the club's admins and directors may do this."),
    )
    return event


def _club(club_id: int) -> Club:
    return get_object_or_404(Club, pk=club_id)


def _managed_club(request: Request, club_id: int) -> Club:
    """The club, if the user is one of its admins (or a superuser): details, deck map, roles."""
    club = _club(club_id)
    require(
        user_can_manage_club(user=request.user, club=club),
        _("Only the club's admins may do this."),
    )
    return club


def _directed_club(request: Request, club_id: int) -> Club:
    """The club, if the user is one of its admins or directors: its player list."""
    club = _club(club_id)
    require(
        user_can_direct_club(user=request.user, club=club),
        _("Only the club's admins and directors may do this."),
    )
    return club
