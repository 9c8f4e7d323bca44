"""The director's console of an event as JSON: the round's tables by state, how many are done,
whether the next round can be paired (or forced), every round, and the event's log."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import FORBIDDEN, NOT_FOUND
from core.parsing import AsciiIntegerField
from tournaments import selectors
from tournaments.apis.clock import ClockOutput
from tournaments.apis.common import BaseApi, managed_event
from tournaments.models import Round


class ConsoleTableOutput(serializers.Serializer):
    match = AsciiIntegerField(source="match_id")
    table_number = AsciiIntegerField(allow_null=True)
    players = serializers.ListField(child=serializers.CharField())
    state = serializers.ChoiceField(
        choices=["disputed", "waiting", "playing", "finished", "decided"],
        help_text="disputed: an entry is disputed; waiting: an entry waits for confirmation; "
        "playing: no open entry; finished: final result; decided: a bye, walkover or double "
        "forfeit the pairing decided. Tables come in this order.",
    )
    decision = serializers.CharField()
    winner = serializers.CharField(allow_null=True)
    open_entry = AsciiIntegerField(
        allow_null=True,
        help_text="The pending or disputed submission to settle (POST /api/hands/{id}/confirm/ "
        "or /override/).",
    )


class ConsoleRoundOutput(serializers.Serializer):
    number = AsciiIntegerField()
    status = serializers.CharField()
    finished = AsciiIntegerField(help_text="Tables of the round with a final result.")
    tables = AsciiIntegerField(help_text="Tables played in the round (byes not counted).")


class EventLogOutput(serializers.Serializer):
    kind = serializers.CharField()
    round_number = AsciiIntegerField(allow_null=True)
    reason = serializers.CharField()
    details = serializers.JSONField()
    user = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()

    def get_user(self, entry: Any) -> str | None:
        return entry.user.get_username() if entry.user is not None else None


class ConsoleOutput(serializers.Serializer):
    event = AsciiIntegerField(source="event.pk")
    round = serializers.SerializerMethodField()
    is_latest = serializers.BooleanField()
    finished = AsciiIntegerField(help_text="Tables of this round with a final result.")
    total = AsciiIntegerField(help_text="Tables played in this round.")
    tables = ConsoleTableOutput(many=True)
    rounds = ConsoleRoundOutput(many=True)
    can_pair = serializers.BooleanField(
        help_text="POST /api/events/{id}/rounds/ pairs the next round now."
    )
    can_force = serializers.BooleanField(
        help_text="Results are missing: the next round can be paired anyway with "
        '{"force": true, "reason": "..."}.'
    )
    next_round = AsciiIntegerField(allow_null=True)
    blocked = serializers.CharField(
        help_text="Why the next round cannot be paired: event_finished, bracket_drawn, pairing, "
        "pairing_failed, results_missing, all_rounds_paired, no_rounds; '' when it can."
    )
    log = EventLogOutput(many=True)
    clock = serializers.SerializerMethodField(
        help_text="The round's clock (as GET /api/events/{id}/rounds/{number}/clock/), null "
        "without a round."
    )
    after_time = serializers.SerializerMethodField(
        help_text="Matches of this round still playing after their time (extra time counted)."
    )

    def get_round(self, console: Any) -> int | None:
        return console.round.number if console.round is not None else None

    @extend_schema_field(ClockOutput(allow_null=True))
    def get_clock(self, console: Any) -> Any:
        return ClockOutput(console.round).data if console.round is not None else None

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_after_time(self, console: Any) -> list[int]:
        return [t.match_id for t in console.after_time]


class EventConsoleApi(BaseApi):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "round", int, required=False, description="A round number; the latest if absent."
            )
        ],
        responses={200: ConsoleOutput, 403: FORBIDDEN, 404: NOT_FOUND},
        description="The director's console of an event (directors only): the round's tables, "
        "missing and disputed results first.",
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = managed_event(request, event_id)
        raw = request.query_params.get("round", "")
        if raw and not (raw.isascii() and raw.isdigit()):
            raise Http404
        try:
            console = selectors.event_console(event=event, round_number=int(raw) if raw else None)
        except Round.DoesNotExist:
            raise Http404 from None
        return Response(ConsoleOutput(console).data)
