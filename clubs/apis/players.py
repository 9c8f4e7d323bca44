"""A club's players: list and create, paste many at once, detail and edit.

A player's ratings with their history are ``ratings.apis``.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.apis.common import BaseApi, directed_club
from clubs.models import Player
from clubs.permissions import user_can_direct_club
from clubs.selectors import player_list
from clubs.services import player_create, player_update, players_create_many
from core.api import FORBIDDEN, INVALID, NOT_FOUND, conflict
from core.pagination import Pagination, paginate
from core.parsing import AsciiIntegerField, query_int
from core.permissions import require

NAME_MAX = Player._meta.get_field("name").max_length or 120
FAMILY_MAX = Player._meta.get_field("family").max_length or 60


class PlayerOutput(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "club", "name", "is_guest", "family", "created_at"]


class PlayerListApi(BaseApi):
    pagination_class = Pagination

    class PlayerListInputSerializer(serializers.Serializer):
        club = AsciiIntegerField()
        name = serializers.CharField(max_length=120)
        is_guest = serializers.BooleanField(required=False, default=False)
        family = serializers.CharField(required=False, allow_blank=True, default="")

    @extend_schema(
        responses=PlayerOutput(many=True),
        parameters=[OpenApiParameter("club", int, description="Only this club's players.")],
    )
    def get(self, request: Request) -> Response:
        qs = player_list(club_id=query_int(request.query_params, "club"))
        return paginate(request, self, qs, PlayerOutput)

    @extend_schema(request=PlayerListInputSerializer, responses={201: PlayerOutput})
    def post(self, request: Request) -> Response:
        data = self.PlayerListInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        club = directed_club(request, v.pop("club"))
        player = player_create(club=club, **v)
        return Response(PlayerOutput(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailApi(BaseApi):
    """A player (GET, anyone) and editing one (PATCH, the club's admins and directors)."""

    class PlayerUpdateInputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=NAME_MAX, required=False)
        is_guest = serializers.BooleanField(required=False)
        family = serializers.CharField(
            max_length=FAMILY_MAX,
            required=False,
            allow_blank=True,
            help_text="Players of one family can be kept apart in pairings.",
        )

    @extend_schema(responses=PlayerOutput)
    def get(self, request: Request, player_id: int) -> Response:
        return Response(PlayerOutput(get_object_or_404(Player, pk=player_id)).data)

    @extend_schema(
        operation_id="players_update",
        summary="Edit a player",
        description="Rename a player or change the guest flag or family; fields left out keep "
        "their value. Names stay unique in the club. Only the club's admins and directors. "
        "Same service as the club's players page.",
        request=PlayerUpdateInputSerializer,
        responses={
            200: PlayerOutput,
            400: INVALID,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("The club already has a player of that name (field: name)."),
        },
    )
    def patch(self, request: Request, player_id: int) -> Response:
        player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
        require(
            user_can_direct_club(user=request.user, club=player.club),
            _("Only the club's admins and directors may do this."),
        )
        data = self.PlayerUpdateInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        player = player_update(
            player=player,
            name=v.get("name", player.name),
            is_guest=v.get("is_guest", player.is_guest),
            family=v.get("family", player.family),
        )
        return Response(PlayerOutput(player).data)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "array", "items": {"type": "string", "maxLength": NAME_MAX}},
            {"type": "string", "description": "One name per line, as pasted."},
        ]
    }
)
class PlayerNamesField(serializers.Field):
    """Names as a list, or as pasted text with one name per line; blank lines are ignored."""

    def to_internal_value(self, data: Any) -> list[str]:
        if isinstance(data, str):
            names = data.splitlines()
        elif isinstance(data, list) and all(isinstance(n, str) for n in data):
            names = data
        else:
            raise serializers.ValidationError(
                _("Give the names as a list, or as text with one name per line.")
            )
        names = [n.strip() for n in names if n.strip()]
        if not names:
            raise serializers.ValidationError(_("Paste at least one name."))
        too_long = [n for n in names if len(n) > NAME_MAX]
        if too_long:
            raise serializers.ValidationError(
                _("A name has at most %(n)s characters: %(name)s")
                % {"n": NAME_MAX, "name": too_long[0]}
            )
        return names

    def to_representation(self, value: Any) -> Any:
        return value


class PlayerBulkCreateApi(BaseApi):
    """Paste many players at once (the players page's paste box)."""

    class PlayerBulkCreateInputSerializer(serializers.Serializer):
        names = PlayerNamesField()
        is_guest = serializers.BooleanField(required=False, default=False)

    class PlayerBulkCreateOutputSerializer(serializers.Serializer):
        created = PlayerOutput(many=True)
        skipped = serializers.ListField(
            child=serializers.CharField(),
            help_text="Names the club already has (compared without case); nothing is changed.",
        )

    @extend_schema(
        operation_id="clubs_players_bulk_create",
        summary="Add many players at once",
        description="Add a list of names to the club (all or nothing). Names repeated in the "
        "list are added once; names the club already has are skipped and reported in "
        "`skipped`. `is_guest` applies to every new player. Only the club's admins and "
        "directors. Same service as the players page's paste box.",
        request=PlayerBulkCreateInputSerializer,
        responses={
            201: PlayerBulkCreateOutputSerializer,
            200: OpenApiResponse(
                PlayerBulkCreateOutputSerializer,
                description="Every name was already on the list: nothing was added.",
            ),
            400: INVALID,
            403: FORBIDDEN,
            404: NOT_FOUND,
        },
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = directed_club(request, club_id)
        data = self.PlayerBulkCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        created, skipped = players_create_many(
            club=club,
            names=data.validated_data["names"],
            is_guest=data.validated_data["is_guest"],
        )
        body = self.PlayerBulkCreateOutputSerializer({"created": created, "skipped": skipped}).data
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)
