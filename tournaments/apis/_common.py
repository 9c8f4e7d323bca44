"""What the tournament APIs share: pagination, the signed-in user, the base view and the event
lookups (any event, or one the user manages).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Event
from tournaments.permissions import ReadOnlyOrAuthenticated, require, user_can_manage_event


def _paginate(request: Request, view: APIView, queryset: Any, serializer: type) -> Response:
    paginator: LimitOffsetPagination = LimitOffsetPagination()
    page: Any = paginator.paginate_queryset(queryset, request, view=view)
    return paginator.get_paginated_response(serializer(page, many=True).data)


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
        "only this event's directors and the club's admins and directors may do this",
    )
    return event
