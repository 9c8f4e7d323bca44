"""Events: list and create, detail, finish, and creating an event's playoff."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.apis._common import _Api, _event, _managed_event, _paginate, _user
from tournaments.models import Club, Event
from tournaments.permissions import require, user_can_direct_club


class EventOutput(serializers.ModelSerializer):
    standings_stale = serializers.BooleanField(read_only=True)

    class Meta:
        model = Event
        fields = [
            "id",
            "club",
            "league",
            "name",
            "kind",
            "status",
            "starts_on",
            "rules",
            "match_format",
            "confirmation",
            "rounds_planned",
            "options",
            "tiebreaks",
            "lots_seed",
            "results_seq",
            "standings_seq",
            "standings_stale",
            "created_at",
        ]


class EventListApi(_Api):
    class EventListInputSerializer(serializers.Serializer):
        club = serializers.IntegerField()
        name = serializers.CharField(max_length=160)
        kind = serializers.ChoiceField(choices=Event.Kind.choices)
        rules = serializers.JSONField(required=False)
        match_format = serializers.JSONField(required=False, default=None)
        confirmation = serializers.ChoiceField(
            choices=Event.Confirmation.choices, required=False, default="opponent"
        )
        rounds_planned = serializers.IntegerField(required=False, allow_null=True, min_value=1)
        options = serializers.JSONField(required=False, default=dict)
        tiebreaks = serializers.ListField(child=serializers.CharField(), required=False)
        league = serializers.IntegerField(required=False, allow_null=True)
        starts_on = serializers.DateField(required=False, allow_null=True)

    @extend_schema(responses=EventOutput(many=True))
    def get(self, request: Request) -> Response:
        club, kind = request.query_params.get("club"), request.query_params.get("kind")
        qs = selectors.event_list(club_id=int(club) if club and club.isdigit() else None, kind=kind)
        return _paginate(request, self, qs, EventOutput)

    @extend_schema(request=EventListInputSerializer, responses={201: EventOutput})
    def post(self, request: Request) -> Response:
        data = self.EventListInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        club = get_object_or_404(Club, pk=v.pop("club"))
        require(
            user_can_direct_club(user=request.user, club=club),
            "only the club's admins and directors create events",
        )
        league_id = v.pop("league", None)
        league = get_object_or_404(Event, pk=league_id) if league_id else None
        event = services.event_create(club_id=club.pk, league=league, user=_user(request), **v)
        return Response(EventOutput(event).data, status=status.HTTP_201_CREATED)


class EventDetailApi(_Api):
    @extend_schema(responses=EventOutput)
    def get(self, request: Request, event_id: int) -> Response:
        return Response(EventOutput(_event(event_id)).data)


class EventFinishApi(_Api):
    @extend_schema(request=None, responses=EventOutput)
    def post(self, request: Request, event_id: int) -> Response:
        event = services.event_finish(event=_managed_event(request, event_id))
        return Response(EventOutput(event).data)


class EventPlayoffCreateApi(_Api):
    @extend_schema(request=None, responses={201: EventOutput})
    def post(self, request: Request, event_id: int) -> Response:
        event = _managed_event(request, event_id)
        playoff = services.event_playoff_create(event=event, user=_user(request))
        return Response(EventOutput(playoff).data, status=status.HTTP_201_CREATED)
