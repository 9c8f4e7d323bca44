"""A club's detail (GET, anyone) and editing it (PATCH, the club's admins).

The detail lists the club's events, so it lives with the events; the rest of a club's API (list
and create, Gem Rummy deck map, roles, invitations, players) is ``clubs.apis``.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.apis.clubs import ClubOutput
from clubs.apis.common import managed_club
from clubs.models import Club
from clubs.permissions import user_can_manage_club
from clubs.services import club_update
from core.api import FORBIDDEN, INVALID, NOT_FOUND, conflict
from core.parsing import AsciiIntegerField
from tournaments import selectors
from tournaments.apis.common import BaseApi


class ClubDetailApi(BaseApi):
    """A club (GET, anyone) and editing it (PATCH, the club's admins)."""

    class ClubDetailOutputSerializer(ClubOutput):
        events = serializers.SerializerMethodField()
        players = serializers.SerializerMethodField()
        can_manage = serializers.SerializerMethodField()

        class Meta(ClubOutput.Meta):
            fields = [*ClubOutput.Meta.fields, "events", "players", "can_manage"]

        def get_events(self, club: Club) -> list[dict[str, Any]]:
            return [
                {
                    "id": e.pk,
                    "name": e.name,
                    "kind": e.kind,
                    "status": e.status,
                    "starts_on": e.starts_on,
                }
                for e in selectors.event_list(club_id=club.pk)[:50]
            ]

        def get_players(self, club: Club) -> int:
            return club.players.count()

        def get_can_manage(self, club: Club) -> bool:
            return user_can_manage_club(user=self.context["request"].user, club=club)

    class ClubUpdateInputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=120, required=False)
        slug = serializers.CharField(
            max_length=80,
            required=False,
            allow_blank=True,
            help_text="The club's address; blank makes it from the name.",
        )
        description = serializers.CharField(required=False, allow_blank=True)
        rating_period_days = AsciiIntegerField(required=False, min_value=1)

    @extend_schema(responses=ClubDetailOutputSerializer)
    def get(self, request: Request, club_id: int) -> Response:
        club = get_object_or_404(Club, pk=club_id)
        return Response(self.ClubDetailOutputSerializer(club, context={"request": request}).data)

    @extend_schema(
        operation_id="clubs_update",
        summary="Edit a club",
        description="Change the name, address (slug), description or rating period; fields left "
        "out keep their value. Only the club's admins. Same service as the club's edit page.",
        request=ClubUpdateInputSerializer,
        responses={
            200: ClubOutput,
            400: INVALID,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("Another club has this address (field: slug)."),
        },
    )
    def patch(self, request: Request, club_id: int) -> Response:
        club = managed_club(request, club_id)
        data = self.ClubUpdateInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        name = v.get("name", club.name)
        slug = v.get("slug", club.slug)
        club = club_update(
            club=club,
            name=name,
            slug=slug,
            description=v.get("description", club.description),
            rating_period_days=v.get("rating_period_days", club.rating_period_days),
        )
        return Response(ClubOutput(club).data)
