"""Events: list and create, detail and settings, finish, creating an event's playoff, and the
rule presets an event starts from.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.apis.common import directed_club
from core.api import FORBIDDEN, INVALID, NOT_FOUND, conflict
from core.pagination import Pagination
from core.parsing import AsciiIntegerField, query_int
from engine.rules import RULE_PRESETS
from tournaments import selectors, services
from tournaments.apis.common import (
    BaseApi,
    event_or_404,
    managed_event,
    paginate_list,
    request_user,
)
from tournaments.models import Event
from tournaments.options import options_api_text
from tournaments.services.edits import event_update

OPTIONS_HELP = format_lazy(
    "{}\n\n{}\n\n{}",
    "Options that differ from the defaults (an option left out has its default; a value of the "
    "wrong type or out of bounds is a 400 with field options, naming the option):",
    lazy(options_api_text, str)(),
    "With confirm_by_seat_link true, a confirmation or dispute made with the table link is "
    "refused (403); the other side answers on their own seat's link, signed in or with a token.",
)
"""The options' documentation, written from their one declaration when the schema is built."""


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


class EventListApi(BaseApi):
    pagination_class = Pagination

    class EventListInputSerializer(serializers.Serializer):
        club = AsciiIntegerField()
        name = serializers.CharField(max_length=160)
        kind = serializers.ChoiceField(choices=Event.Kind.choices)
        rules = serializers.JSONField(required=False)
        match_format = serializers.JSONField(required=False, default=None)
        confirmation = serializers.ChoiceField(
            choices=Event.Confirmation.choices, required=False, default="opponent"
        )
        rounds_planned = AsciiIntegerField(required=False, allow_null=True, min_value=1)
        options = serializers.JSONField(required=False, default=dict, help_text=OPTIONS_HELP)
        tiebreaks = serializers.ListField(child=serializers.CharField(), required=False)
        league = AsciiIntegerField(required=False, allow_null=True)
        starts_on = serializers.DateField(required=False, allow_null=True)

    @extend_schema(
        responses=EventOutput(many=True),
        parameters=[
            OpenApiParameter("club", int, description="Only this club's events."),
            OpenApiParameter("kind", str, enum=Event.Kind.values, description="Only this kind."),
        ],
    )
    def get(self, request: Request) -> Response:
        club = query_int(request.query_params, "club")
        qs = selectors.event_list(club_id=club, kind=request.query_params.get("kind"))
        return paginate_list(request, self, qs, EventOutput)

    @extend_schema(request=EventListInputSerializer, responses={201: EventOutput})
    def post(self, request: Request) -> Response:
        data = self.EventListInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        club = directed_club(request, v.pop("club"))
        league_id = v.pop("league", None)
        league = get_object_or_404(Event, pk=league_id) if league_id else None
        event = services.event_create(
            club_id=club.pk, league=league, user=request_user(request), **v
        )
        return Response(EventOutput(event).data, status=status.HTTP_201_CREATED)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "description": "A preset name, e.g. oklahoma."},
            {
                "type": "object",
                "additionalProperties": True,
                "description": "With name: that preset with the parameters given changed (a "
                "rule set as GET returns it stays as it is). Without name: the event's "
                "current rules with the parameters given changed.",
            },
        ]
    }
)
class RulesField(serializers.Field):
    """A rule preset's name or a rule set as an object (``GET /api/rule-presets/`` lists both)."""

    def to_internal_value(self, data: Any) -> str | dict[str, Any]:
        if isinstance(data, str | dict):
            return data
        raise serializers.ValidationError(_("Give a preset name or a rule set object."))

    def to_representation(self, value: Any) -> Any:
        return value


class EventDetailApi(BaseApi):
    """An event (GET, anyone) and its settings (PATCH, the event's directors)."""

    class EventUpdateInputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=160, required=False)
        starts_on = serializers.DateField(required=False, allow_null=True)
        rules = RulesField(required=False)
        match_format = serializers.DictField(
            required=False,
            allow_null=True,
            help_text='{"kind": "single_game" | "best_of" (games) | "hollywood" | '
            '"fixed_hands" (hands)}; null is a single game.',
        )
        confirmation = serializers.ChoiceField(choices=Event.Confirmation.choices, required=False)
        rounds_planned = AsciiIntegerField(required=False, allow_null=True, min_value=1)
        tiebreaks = serializers.ListField(
            child=serializers.CharField(),
            required=False,
            allow_null=True,
            help_text="The whole order (replaces it); empty is the usual order for the kind.",
        )
        options = serializers.DictField(
            required=False,
            allow_null=True,
            help_text=format_lazy(
                "Every option (replaces them); null or {{}} is the defaults. {}", OPTIONS_HELP
            ),
        )

    @extend_schema(responses=EventOutput)
    def get(self, request: Request, event_id: int) -> Response:
        return Response(EventOutput(event_or_404(event_id)).data)

    @extend_schema(
        operation_id="events_update",
        summary="Change an event's settings",
        description="Change the name, date, rules, match format, confirmation policy, rounds "
        "planned, tie-breaks or options; fields left out keep their value. rules is a preset "
        "name (that preset), an object with name (that preset with the parameters given "
        "changed, as at creation; a rule set as GET returns it stays as it is) or an object "
        "without name: the event's current rules with just those parameters changed, e.g. "
        '{"target": 200}. The rules and match '
        "format are fixed once the event's first match exists (409, field rules or "
        "match_format); a finished event's settings are final (409). Changing tie-breaks or "
        "options after results exist rebuilds the standings. Only the event's directors and "
        "the club's admins and directors. Same service as the event's settings page.",
        request=EventUpdateInputSerializer,
        responses={
            200: EventOutput,
            400: INVALID,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict(
                "Play has started and the rules or match format would change, or the event is "
                "finished."
            ),
        },
    )
    def patch(self, request: Request, event_id: int) -> Response:
        event = managed_event(request, event_id)
        data = self.EventUpdateInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        event = event_update(
            event=event,
            name=v.get("name", event.name),
            starts_on=v.get("starts_on", event.starts_on),
            rules=v.get("rules", event.rules),
            match_format=v.get("match_format", event.match_format),
            confirmation=v.get("confirmation", event.confirmation),
            rounds_planned=v.get("rounds_planned", event.rounds_planned),
            tiebreaks=v.get("tiebreaks", event.tiebreaks),
            options=v.get("options", event.options),
        )
        return Response(EventOutput(event).data)


class EventFinishApi(BaseApi):
    @extend_schema(request=None, responses=EventOutput)
    def post(self, request: Request, event_id: int) -> Response:
        event = services.event_finish(event=managed_event(request, event_id))
        return Response(EventOutput(event).data)


class EventPlayoffCreateApi(BaseApi):
    @extend_schema(request=None, responses={201: EventOutput})
    def post(self, request: Request, event_id: int) -> Response:
        event = managed_event(request, event_id)
        playoff = services.event_playoff_create(event=event, user=request_user(request))
        return Response(EventOutput(playoff).data, status=status.HTTP_201_CREATED)


class RulePresetListApi(BaseApi):
    """The rule presets an event can start from (the settings page's "load preset")."""

    class RulePresetOutputSerializer(serializers.Serializer):
        name = serializers.CharField()
        rules = serializers.DictField(help_text="The full rule set, as events store it.")

    @extend_schema(
        operation_id="rule_presets_list",
        summary="List the rule presets",
        responses={200: RulePresetOutputSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        presets = [{"name": name, "rules": rules.to_dict()} for name, rules in RULE_PRESETS.items()]
        return Response(self.RulePresetOutputSerializer(presets, many=True).data)
