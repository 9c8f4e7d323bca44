"""An event's live version: what open event pages (standings, pairings, bracket) poll."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.views import APIView

from core.api import ERROR, version_response
from core.permissions import ReadOnlyOrAuthenticated
from scoring.apis.live import IF_NONE_MATCH, NOT_MODIFIED, VersionOutput
from tournaments.selectors.live import event_version


class EventVersionApi(APIView):
    """The event's live version, for polling: ETag and 304."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(
        operation_id="events_version",
        parameters=[IF_NONE_MATCH],
        responses={200: VersionOutput, 304: NOT_MODIFIED, 404: ERROR},
        description="A number that grows with every result stored, confirmed, disputed or "
        "withdrawn at the event, every round paired and every standings update (ETag: the "
        "number in quotes). Poll it with If-None-Match and fetch standings, pairings or the "
        "bracket only when it changed.",
    )
    def get(self, request: Request, event_id: int) -> HttpResponse:
        version = event_version(event_id=event_id)
        if version is None:
            raise Http404
        return version_response(request, version=version, poll_ms=settings.KNOCK_LIVE_POLL_MS)
