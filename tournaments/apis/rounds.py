"""Rounds and their matches: list and pair the next round, detail, re-pair, and a forfeit."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import Player
from core.parsing import AsciiIntegerField
from scoring.models import Match
from scoring.permissions import Actor
from scoring.services import match_close_as_it_stands
from tournaments import selectors, services
from tournaments.apis.common import BaseApi, event_or_404, managed_event, request_user
from tournaments.models import Round


class SeatOutput(serializers.Serializer):
    player = AsciiIntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    position = AsciiIntegerField()


class MatchOutput(serializers.ModelSerializer):
    seats = SeatOutput(many=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "table_number",
            "bracket_key",
            "status",
            "decision",
            "winner",
            "seats",
            "summary",
        ]


class RoundOutput(serializers.ModelSerializer):
    error = serializers.SerializerMethodField(
        help_text="Why pairing failed, in the request's language ('' unless failed)."
    )
    error_code = serializers.CharField(
        read_only=True, help_text="Why pairing failed, as a code: player_blocked, no_pairing."
    )
    error_params = serializers.JSONField(read_only=True)
    matches = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = [
            "id",
            "number",
            "status",
            "error",
            "error_code",
            "error_params",
            "created_at",
            "matches",
        ]

    def get_error(self, rnd: Round) -> str:
        return rnd.error_message()

    def get_matches(self, rnd: Round) -> Any:
        return MatchOutput(selectors.round_matches(rnd=rnd), many=True).data


class RoundListApi(BaseApi):
    @extend_schema(responses=RoundOutput(many=True))
    def get(self, request: Request, event_id: int) -> Response:
        rounds = selectors.event_rounds(event=event_or_404(event_id))
        return Response(RoundOutput(rounds, many=True).data)

    class RoundPairInput(serializers.Serializer):
        force = serializers.BooleanField(
            default=False,
            help_text="Pair even though the last round still has tables without a final result "
            "(they stay open and count when they finish); needs a reason.",
        )
        reason = serializers.CharField(
            required=False,
            allow_blank=True,
            max_length=500,
            help_text="Why the round is forced; kept in the event's log (see the console).",
        )

    @extend_schema(
        request=RoundPairInput,
        responses={201: RoundOutput, 202: RoundOutput},
        description="Pair the next round (or draw the bracket). A big Swiss field answers 202 "
        "with a queued round: poll GET /api/events/{id}/rounds/{number}/ until its status is "
        "'paired' or 'failed'. The body is optional: send force and a reason to pair before "
        "every result of the last round is in.",
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = managed_event(request, event_id)
        data = self.RoundPairInput(data=request.data or {})
        data.is_valid(raise_exception=True)
        rnd = services.round_pair(
            event=event,
            user=request_user(request),
            force=data.validated_data["force"],
            reason=data.validated_data.get("reason", ""),
        )
        code = status.HTTP_202_ACCEPTED if rnd.status == Round.Status.QUEUED else 201
        return Response(RoundOutput(rnd).data, status=code)


class RoundDetailApi(BaseApi):
    @extend_schema(responses=RoundOutput)
    def get(self, request: Request, event_id: int, number: int) -> Response:
        rnd = get_object_or_404(Round, event_id=event_id, number=number)
        return Response(RoundOutput(rnd).data)


class RoundRepairApi(BaseApi):
    @extend_schema(request=None, responses=RoundOutput)
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = managed_event(request, event_id)
        rnd = get_object_or_404(Round, event=event, number=number)
        return Response(
            RoundOutput(services.round_repair(rnd=rnd, user=request_user(request))).data
        )


class MatchForfeitApi(BaseApi):
    class MatchForfeitInputSerializer(serializers.Serializer):
        players = serializers.ListField(child=AsciiIntegerField(), min_length=1)

    @extend_schema(request=MatchForfeitInputSerializer, responses=MatchOutput)
    def post(self, request: Request, event_id: int, match_id: int) -> Response:
        event = managed_event(request, event_id)
        match = get_object_or_404(Match, pk=match_id, event=event)
        data = self.MatchForfeitInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        players = list(Player.objects.filter(pk__in=data.validated_data["players"]))
        match = services.match_forfeit(match=match, players=players)
        return Response(
            MatchOutput(Match.objects.prefetch_related("seats__player").get(pk=match.pk)).data
        )


class MatchCloseAsItStandsApi(BaseApi):
    @extend_schema(
        operation_id="events_matches_close_as_it_stands",
        request=None,
        responses=MatchOutput,
        description="Close a table whose time is up as it stands (the event's `at_time` is "
        "`as_it_stands`, docs/rules.md §11): after the hand being played, the player or team "
        "ahead on the points of the hands played wins by the difference, with no game bonus, "
        "box bonus or shutout for the game in progress (a best-of: the games won count and the "
        "game in progress goes to its leader); level is a draw. 409 when the event plays on at "
        "time, the table's time is not up, the match is finished or a hand awaits "
        "confirmation.",
    )
    def post(self, request: Request, event_id: int, match_id: int) -> Response:
        event = managed_event(request, event_id)
        match = get_object_or_404(Match, pk=match_id, event=event)
        match_close_as_it_stands(match=match, actor=Actor.from_request(request))
        return Response(
            MatchOutput(Match.objects.prefetch_related("seats__player").get(pk=match.pk)).data
        )
