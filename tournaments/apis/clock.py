"""A round's clock: read it (anyone: every page of the round shows it) and run it (the event's
directors): give it a length, start, pause, resume, and give one table extra time."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import FORBIDDEN, INVALID, NOT_FOUND, conflict
from core.parsing import AsciiIntegerField
from tournaments.apis.common import BaseApi, event_or_404, managed_event, request_user
from tournaments.models import Round
from tournaments.selectors.clock import round_clock_state, round_tables_after_time
from tournaments.services.clock import (
    EXTRA_MINUTES_MAX,
    MINUTES_MAX,
    round_clock_extend,
    round_clock_pause,
    round_clock_resume,
    round_clock_set,
    round_clock_start,
)

ACTIONS = ("set", "start", "pause", "resume", "extend")


class ClockExtensionOutput(serializers.Serializer):
    match = AsciiIntegerField()
    seconds = AsciiIntegerField()


class ClockOutput(serializers.Serializer):
    round = AsciiIntegerField(source="number")
    phase = serializers.ChoiceField(
        choices=["unset", "ready", "running", "paused", "time"],
        help_text="unset: the round has no clock; ready: a length, not started; running; "
        "paused; time: the round's time is up (tables given extra time may still play).",
    )
    length = AsciiIntegerField(allow_null=True, help_text="The round's length in seconds.")
    remaining = AsciiIntegerField(
        allow_null=True, help_text="Seconds left for the round (never below 0)."
    )
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When time is up, while the clock runs (null otherwise)."
    )
    started_at = serializers.DateTimeField(allow_null=True)
    paused_at = serializers.DateTimeField(allow_null=True)
    extensions = ClockExtensionOutput(
        many=True, help_text="Extra time given to single tables, by match."
    )
    after_time = serializers.ListField(
        child=AsciiIntegerField(),
        help_text="Matches still playing after their time (their extra time counted).",
    )

    def to_representation(self, rnd: Any) -> Any:
        state = round_clock_state(rnd=rnd)
        extensions = sorted((rnd.clock_extensions or {}).items(), key=lambda kv: int(kv[0]))
        return {
            "round": rnd.number,
            "phase": state.phase if state is not None else "unset",
            "length": state.length if state is not None else None,
            "remaining": state.remaining if state is not None else None,
            "deadline": (
                serializers.DateTimeField().to_representation(state.deadline)
                if state is not None and state.deadline is not None
                else None
            ),
            "started_at": serializers.DateTimeField().to_representation(rnd.clock_started_at)
            if rnd.clock_started_at
            else None,
            "paused_at": serializers.DateTimeField().to_representation(rnd.clock_paused_at)
            if rnd.clock_paused_at
            else None,
            "extensions": [{"match": int(k), "seconds": int(v)} for k, v in extensions],
            "after_time": [m.pk for m in round_tables_after_time(rnd=rnd)],
        }


class RoundClockApi(BaseApi):
    class ClockInput(serializers.Serializer):
        action = serializers.ChoiceField(
            choices=list(ACTIONS),
            help_text="set: give the round a length (minutes; null: no clock, before it "
            "starts); start: start it now (with minutes, set them first); pause; resume; "
            "extend: give one table (match) minutes more (negative: take them back).",
        )
        minutes = AsciiIntegerField(
            required=False,
            allow_null=True,
            help_text=f"set and start: 1 to {MINUTES_MAX}; extend: the extra minutes, at most "
            f"{EXTRA_MINUTES_MAX} for one table in all.",
        )
        match = AsciiIntegerField(required=False, help_text="extend: the table's match id.")

    @extend_schema(
        responses={200: ClockOutput, 404: NOT_FOUND},
        description="A round's clock: its phase, what is left, the deadline while it runs, the "
        "tables given extra time, and the tables still playing after their time.",
    )
    def get(self, request: Request, event_id: int, number: int) -> Response:
        rnd = get_object_or_404(Round, event=event_or_404(event_id), number=number)
        return Response(ClockOutput(rnd).data)

    @extend_schema(
        request=ClockInput,
        responses={
            200: ClockOutput,
            400: INVALID,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict(
                "The clock cannot make that move now (not started, already paused, no length, "
                "the round not paired, the event finished)."
            ),
        },
        description="Run a round's clock (the event's directors). Every page of the round "
        "shows the change within a poll; each change is kept in the event's log.",
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = managed_event(request, event_id)
        # The body is read before the round is looked up: bad input is named whatever the round.
        data = self.ClockInput(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = get_object_or_404(Round, event=event, number=number)
        action = data.validated_data["action"]
        minutes = data.validated_data.get("minutes")
        user = request_user(request)
        if action == "set":
            if "minutes" not in data.validated_data:
                raise serializers.ValidationError({"minutes": [_required()]})
            rnd = round_clock_set(rnd=rnd, user=user, minutes=minutes)
        elif action == "start":
            rnd = round_clock_start(rnd=rnd, user=user, minutes=minutes)
        elif action == "pause":
            rnd = round_clock_pause(rnd=rnd, user=user)
        elif action == "resume":
            rnd = round_clock_resume(rnd=rnd, user=user)
        else:
            match = data.validated_data.get("match")
            if match is None or minutes is None:
                field = "match" if match is None else "minutes"
                raise serializers.ValidationError({field: [_required()]})
            rnd = round_clock_extend(rnd=rnd, user=user, match_id=match, minutes=minutes)
        return Response(ClockOutput(rnd).data)


def _required() -> str:
    return str(serializers.Field.default_error_messages["required"])
