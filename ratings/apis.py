"""The REST API of club ratings: a player's current ratings and their history (read-only).

The player in the answer is the players API's own ``PlayerOutput``, so the schema keeps one
shape for a player.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.apis.players import PlayerOutput
from clubs.models import Player
from core.parsing import AsciiIntegerField
from core.permissions import ReadOnlyOrAuthenticated
from ratings.selectors import player_ratings


class PlayerRatingsApi(APIView):
    permission_classes = [ReadOnlyOrAuthenticated]

    class RatingOutput(serializers.Serializer):
        kind = serializers.CharField()
        club = AsciiIntegerField(source="club_id")
        rating = serializers.FloatField()
        deviation = serializers.FloatField()
        volatility = serializers.FloatField(allow_null=True)
        games = AsciiIntegerField()
        period_start = serializers.DateField(allow_null=True)

    class HistoryOutput(serializers.Serializer):
        kind = serializers.CharField()
        rating = serializers.FloatField()
        deviation = serializers.FloatField()
        match = AsciiIntegerField(source="match_id", allow_null=True)
        period_start = serializers.DateField(allow_null=True)
        played_at = serializers.DateTimeField(
            source="match.finished_at",
            allow_null=True,
            help_text="When the match that moved the rating finished (null: a period without "
            "a match). The history is in this order.",
        )
        created_at = serializers.DateTimeField(help_text="When the row was calculated.")

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
        return Response(self.PlayerRatingsOutputSerializer(player_ratings(player=player)).data)
