"""Clubs: list and create, detail, and granting a club role."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.apis._common import _Api, _paginate, _user
from tournaments.models import Club
from tournaments.permissions import require, user_can_manage_club


class ClubOutput(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "description", "rating_period_days", "created_at"]


class ClubListApi(_Api):
    class ClubListInputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=120)
        slug = serializers.CharField(max_length=80, required=False, allow_blank=True)
        description = serializers.CharField(required=False, allow_blank=True)
        rating_period_days = serializers.IntegerField(required=False, min_value=1)

    @extend_schema(responses=ClubOutput(many=True))
    def get(self, request: Request) -> Response:
        return _paginate(request, self, selectors.club_list(), ClubOutput)

    @extend_schema(request=ClubListInputSerializer, responses={201: ClubOutput})
    def post(self, request: Request) -> Response:
        data = self.ClubListInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = services.club_create(user=_user(request), **data.validated_data)
        return Response(ClubOutput(club).data, status=status.HTTP_201_CREATED)


class ClubDetailApi(_Api):
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

    @extend_schema(responses=ClubDetailOutputSerializer)
    def get(self, request: Request, club_id: int) -> Response:
        club = get_object_or_404(Club, pk=club_id)
        return Response(self.ClubDetailOutputSerializer(club, context={"request": request}).data)


class ClubRoleGrantApi(_Api):
    class ClubRoleGrantInputSerializer(serializers.Serializer):
        username = serializers.CharField()
        role = serializers.ChoiceField(choices=["admin", "director"])

    @extend_schema(
        request=ClubRoleGrantInputSerializer,
        responses={
            201: inline_serializer(
                "ClubRole", {"username": serializers.CharField(), "role": serializers.CharField()}
            )
        },
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = get_object_or_404(Club, pk=club_id)
        require(user_can_manage_club(user=request.user, club=club), "only club admins grant roles")
        data = self.ClubRoleGrantInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = get_object_or_404(get_user_model(), username=data.validated_data["username"])
        role = services.club_role_grant(club=club, user=user, role=data.validated_data["role"])
        return Response(
            {"username": user.get_username(), "role": role.role}, status=status.HTTP_201_CREATED
        )
