"""Players: list and create, detail, and a player's ratings with their history."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.apis._common import _Api, _paginate
from tournaments.models import Club, Player
from tournaments.permissions import require, user_can_direct_club


class PlayerOutput(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "club", "name", "is_guest", "family", "created_at"]


class PlayerListApi(_Api):
    class PlayerListInputSerializer(serializers.Serializer):
        club = serializers.IntegerField()
        name = serializers.CharField(max_length=120)
        is_guest = serializers.BooleanField(required=False, default=False)
        family = serializers.CharField(required=False, allow_blank=True, default="")

    @extend_schema(responses=PlayerOutput(many=True))
    def get(self, request: Request) -> Response:
        club = request.query_params.get("club")
        qs = selectors.player_list(club_id=int(club) if club and club.isdigit() else None)
        return _paginate(request, self, qs, PlayerOutput)

    @extend_schema(request=PlayerListInputSerializer, responses={201: PlayerOutput})
    def post(self, request: Request) -> Response:
        data = self.PlayerListInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        club = get_object_or_404(Club, pk=v.pop("club"))
        require(
            user_can_direct_club(user=request.user, club=club),
            "only the club's admins and directors add players",
        )
        player = services.player_create(club=club, **v)
        return Response(PlayerOutput(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailApi(_Api):
    @extend_schema(responses=PlayerOutput)
    def get(self, request: Request, player_id: int) -> Response:
        return Response(PlayerOutput(get_object_or_404(Player, pk=player_id)).data)


class PlayerRatingsApi(_Api):
    class RatingOutput(serializers.Serializer):
        kind = serializers.CharField()
        club = serializers.IntegerField(source="club_id")
        rating = serializers.FloatField()
        deviation = serializers.FloatField()
        volatility = serializers.FloatField(allow_null=True)
        games = serializers.IntegerField()
        period_start = serializers.DateField(allow_null=True)

    class HistoryOutput(serializers.Serializer):
        kind = serializers.CharField()
        rating = serializers.FloatField()
        deviation = serializers.FloatField()
        match = serializers.IntegerField(source="match_id", allow_null=True)
        period_start = serializers.DateField(allow_null=True)
        created_at = serializers.DateTimeField()

    class PlayerRatingsOutputSerializer(serializers.Serializer):
        player = PlayerOutput()
        current = serializers.SerializerMethodField()
        history = serializers.SerializerMethodField()

        def get_current(self, data: dict[str, Any]) -> Any:
            return PlayerRatingsApi.RatingOutput(data["current"], many=True).data

        def get_history(self, data: dict[str, Any]) -> Any:
            return PlayerRatingsApi.HistoryOutput(data["history"], many=True).data

    @extend_schema(responses=PlayerRatingsOutputSerializer)
    def get(self, request: Request, player_id: int) -> Response:
        player = get_object_or_404(Player, pk=player_id)
        return Response(
            self.PlayerRatingsOutputSerializer(selectors.player_ratings(player=player)).data
        )
