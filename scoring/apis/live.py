"""A match's live version: what open match pages poll, cheaply, to know something changed."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request

from core.api import version_response
from scoring.apis.common import ERROR, BaseApi
from scoring.selectors.changes import match_version

IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="The ETag of the version the client holds: 304 while it is still current.",
)


class VersionOutput(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=0,
        help_text="Changes with every change the page shows (a match's only grows); compare for "
        "equality.",
    )
    poll_ms = serializers.IntegerField(
        min_value=1, help_text="How often the server asks to be polled, in milliseconds."
    )


NOT_MODIFIED = OpenApiResponse(description="The version named in If-None-Match is current.")


class MatchVersionApi(BaseApi):
    """The match's live version, for polling: one indexed read, ETag and 304."""

    @extend_schema(
        operation_id="matches_version",
        parameters=[IF_NONE_MATCH],
        responses={200: VersionOutput, 304: NOT_MODIFIED, 404: ERROR},
        description="A number that grows with every entry, confirmation, dispute, withdrawal, "
        "correction or decision at the match (ETag: the number in quotes). Poll it with "
        "If-None-Match and fetch the match only when it changed. Public: it tells that the "
        "table changed, never what.",
    )
    def get(self, request: Request, match_id: int) -> HttpResponse:
        version = match_version(match_id=match_id)
        if version is None:
            raise Http404
        return version_response(request, version=version, poll_ms=settings.KNOCK_LIVE_POLL_MS)
