"""The signed-in user's own page as JSON: the clubs they run, the events they direct (running
first) and the matches they play (open ones first) — where signing in lands on the site."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import FORBIDDEN
from core.parsing import AsciiIntegerField
from core.permissions import require
from tournaments.apis.common import BaseApi, request_user
from tournaments.selectors.dashboard import user_dashboard


class MyClubOutput(serializers.Serializer):
    id = AsciiIntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    role = serializers.ChoiceField(choices=["admin", "director"])


class MyEventOutput(serializers.Serializer):
    id = AsciiIntegerField()
    name = serializers.CharField()
    kind = serializers.CharField()
    status = serializers.CharField()
    club = AsciiIntegerField(source="club_id")
    starts_on = serializers.DateField(allow_null=True)
    open_tables = AsciiIntegerField(help_text="Matches of the event without a final result.")


class MyMatchOutput(serializers.Serializer):
    match = AsciiIntegerField(source="match.pk")
    event = AsciiIntegerField(source="match.event_id")
    event_name = serializers.CharField(source="match.event.name")
    table_number = AsciiIntegerField(source="match.table_number", allow_null=True)
    opponents = serializers.SerializerMethodField()
    result = serializers.ChoiceField(choices=["playing", "won", "lost", "draw", "forfeit"])

    def get_opponents(self, row: Any) -> list[str]:
        return [p.name for p in row.opponents]


class MeOutput(serializers.Serializer):
    clubs = serializers.SerializerMethodField()
    events = MyEventOutput(many=True)
    matches = MyMatchOutput(many=True)

    @extend_schema_field(MyClubOutput(many=True))
    def get_clubs(self, board: Any) -> list[dict[str, Any]]:
        return [
            {"id": c.pk, "name": c.name, "slug": c.slug, "role": role} for c, role in board.clubs
        ]


class MeApi(BaseApi):
    @extend_schema(
        responses={200: MeOutput, 403: FORBIDDEN},
        description="The signed-in user's clubs (with their role), the events they direct "
        "(running first, each with its console at GET /api/events/{id}/console/) and their own "
        "matches (open ones first). The page is /me/, where signing in lands.",
    )
    def get(self, request: Request) -> Response:
        user = request_user(request)
        require(user is not None, _("Sign in to see your clubs, events and matches."))
        assert user is not None
        return Response(MeOutput(user_dashboard(user=user)).data)
