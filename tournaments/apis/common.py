"""What the tournament APIs share: pagination, the signed-in user, the base view, the error
responses (``core.api``), and the event lookups (any one, or one the user runs). The club
lookups are ``clubs.apis.common``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.pagination import paginate
from core.permissions import ReadOnlyOrAuthenticated, require
from tournaments.models import Event
from tournaments.permissions import user_can_manage_event

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def paginate_list(request: Request, view: APIView, queryset: Any, serializer: type) -> Response:
    """One page of a list view's items (the view sets ``pagination_class = Pagination``)."""
    return paginate(request, view, queryset, serializer)


def request_user(request: Request) -> User | None:
    user = request.user
    return user if isinstance(user, get_user_model()) else None


class BaseApi(APIView):
    permission_classes = [ReadOnlyOrAuthenticated]


def event_or_404(event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("club"), pk=event_id)


def managed_event(request: Request, event_id: int) -> Event:
    event = event_or_404(event_id)
    require(
        user_can_manage_event(user=request.user, event=event),
        _("Only this event's directors and the club's admins and directors may do this."),
    )
    return event
