"""The pass in the API: the holder's view (``GET /api/events/{id}/pass/`` with the secret in
``X-Pass-Key``: their table, the round's clock there, results and standing), self check-in and
dropping out (``POST …/pass/checkin/``, ``…/pass/withdraw/``), the holder's seat
(``/api/events/{id}/pass/seat/…``: the pass acts as that seat's link), and, for directors, the
event's passes with their links, revoke and reissue.

The seat routes are scoring's own seat-link API views with one change: their actor is the seat
link of the holder's current match (:func:`passes.services.pass_seat_key`, the rule the page's
one tap uses), and nothing else of the request (no account, no seat session). So the pass acts
for its holder's seat only, for their current match only, and every rule of scoring (the
two-person rule, who may confirm, dispute or withdraw) holds as it does for a seat link."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERROR, FORBIDDEN, NOT_FOUND
from core.errors import ApplicationError
from core.net import client_ip
from entries.models import Entry
from entries.services import entry_withdraw_own
from passes.links import PASS_HEADER, pass_url, secret_from
from passes.models import PlayerPass
from passes.selectors import entry_view, pass_view
from passes.services import (
    checkin_opens_at,
    link_open,
    pass_checkin,
    pass_ensure,
    pass_opened,
    pass_reissue,
    pass_revoke,
    pass_seat_key,
    pass_withdraw,
)
from scoring.apis import (
    HandConfirmApi,
    HandDisputeApi,
    HandWithdrawApi,
    MatchDetailApi,
    MatchHandsApi,
)
from scoring.apis.common import submission_or_404
from scoring.apis.shapes import HandOutput, MatchDetailOutput
from scoring.links import LinkRefused, key_link
from scoring.models import MatchKey
from scoring.permissions import Actor, link_refused_error
from tournaments.apis.common import BaseApi, managed_event
from tournaments.models import Event, Registration
from tournaments.selectors.clock import match_clock_state

PASS_PARAMETERS = [
    OpenApiParameter(
        PASS_HEADER,
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        required=True,
        description="The secret of the player's pass (the part after `#` in its link).",
    ),
]
THROTTLED = OpenApiResponse(ERROR, description="Too many invalid secrets from this address.")


class CurrentOutput(serializers.Serializer):
    match = serializers.IntegerField(source="match.pk")
    round = serializers.IntegerField(source="round_number", allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True, help_text="The holder's seat, from 1.")
    opponents = serializers.ListField(child=serializers.CharField())
    bye = serializers.BooleanField()
    finished = serializers.BooleanField()


class ResultOutput(serializers.Serializer):
    round = serializers.IntegerField(source="round_number", allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    opponents = serializers.ListField(child=serializers.CharField())
    outcome = serializers.CharField(
        help_text="`won`, `lost`, `drawn`, `bye`, `walkover` (won) or `forfeit` (both)."
    )


class StandingValueOutput(serializers.Serializer):
    name = serializers.CharField()
    value = serializers.JSONField()


class PassClockOutput(serializers.Serializer):
    round = serializers.IntegerField(source="round_number")
    phase = serializers.ChoiceField(
        choices=["ready", "running", "paused", "time"],
        help_text="ready: a length, not started; running; paused; time: the round's time is up.",
    )
    remaining = serializers.IntegerField(
        help_text="Seconds left at the holder's table (its extra time counted; never below 0)."
    )
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When time is up at the holder's table, while the clock runs."
    )
    extension = serializers.IntegerField(
        help_text="Extra time (seconds) a director gave the holder's table."
    )
    at_time = serializers.BooleanField(
        help_text="Time is up at the holder's table: finish the hand being played."
    )


class BracketNextOutput(serializers.Serializer):
    opponent = serializers.CharField(allow_null=True, help_text="The opponent, once known.")
    meets = serializers.ChoiceField(
        source="source",
        choices=["winner", "loser"],
        allow_null=True,
        help_text="Else the holder meets the winner (or loser) of the match of `feeder_players`.",
    )
    feeder_players = serializers.ListField(
        child=serializers.CharField(), help_text="Its players known so far (none, one or two)."
    )


class NextEventOutput(serializers.Serializer):
    event = serializers.IntegerField()
    name = serializers.CharField()
    link = serializers.CharField(help_text="The holder's pass link for it (`/p/#<secret>`).")


class PassViewOutput(serializers.Serializer):
    event = serializers.IntegerField()
    event_name = serializers.CharField()
    player = serializers.CharField()
    status = serializers.CharField(
        help_text="`registered`, `checked_in` or `dropped`; for the link of an entry without a "
        "place yet: `pending` (awaiting approval), `waiting`, `withdrawn` or `refused`."
    )
    waiting_position = serializers.IntegerField(
        allow_null=True,
        required=False,
        help_text="An entry on the waiting list: its place (1 moves up first); else null.",
    )
    checkin_opens = serializers.DateTimeField(
        allow_null=True,
        help_text="When self check-in with the pass opens (null: at any time).",
    )
    current = CurrentOutput(allow_null=True)
    clock = PassClockOutput(
        allow_null=True,
        help_text="The round's clock at the holder's table (null: no clock, or dropped out).",
    )
    results = ResultOutput(many=True)
    rank = serializers.IntegerField(allow_null=True)
    standing = StandingValueOutput(many=True)
    next = BracketNextOutput(
        allow_null=True,
        help_text="In a bracket, whom the holder meets next while that match is not made yet.",
    )
    next_event = NextEventOutput(
        allow_null=True,
        help_text="The playoff cut from this event, once the holder is in it, with their pass.",
    )


class PassRowOutput(serializers.Serializer):
    registration = serializers.IntegerField()
    player = serializers.CharField()
    status = serializers.CharField(help_text="`registered`, `checked_in` or `dropped`.")
    link = serializers.CharField(help_text="The pass's link; empty when it has none (revoked).")
    opened = serializers.BooleanField()


def _pass_data(player_pass: PlayerPass, request: Request) -> dict[str, Any]:
    view = pass_view(player_pass=player_pass)
    following = view.next_pass
    dropped = view.registration.status == Registration.Status.DROPPED
    return {
        "event": view.event.pk,
        "event_name": view.event.name,
        "player": view.registration.player.name,
        "status": view.registration.status,
        "waiting_position": None,
        "checkin_opens": checkin_opens_at(event=view.event),
        "current": view.current,
        # as the page shows it: the clock of the holder's table, while they are in the event
        "clock": match_clock_state(match=view.current.match)
        if view.current is not None and not dropped
        else None,
        "results": list(view.results),
        "rank": view.rank,
        "standing": [{"name": label, "value": value} for label, value in view.standing],
        "next": view.bracket_next,
        "next_event": {
            "event": following.registration.event_id,
            "name": following.registration.event.name,
            "link": pass_url(absolute=request.build_absolute_uri, player_pass=following),
        }
        if following is not None
        else None,
    }


def link_of_request(request: Request, event_id: int) -> PlayerPass | Entry:
    """What the request's ``X-Pass-Key`` opens for event ``event_id``: an active pass, or an
    entry still without a place (the link given at entry, :mod:`entries.links`). 404 for an
    unknown or revoked one (429 past the limit on invalid secrets), 403 for another event's."""
    secret = secret_from(request.headers.get(PASS_HEADER) or "")
    try:
        opened = link_open(secret=secret, ip=client_ip(request))
    except LinkRefused as refused:
        if refused.status == 404:
            raise ApplicationError(
                _("This pass is not valid: it was replaced or never existed."), status=404
            ) from None
        raise link_refused_error(refused) from None
    held_event = opened.event_id if isinstance(opened, Entry) else opened.registration.event_id
    if held_event != event_id:
        raise ApplicationError(_("Your pass is for another event."), status=403)
    return opened


def pass_of_request(request: Request, event_id: int) -> PlayerPass:
    """The active pass in the request's ``X-Pass-Key`` for event ``event_id`` (as
    :func:`link_of_request`; 409 for the link of an entry that has no place yet)."""
    opened = link_of_request(request, event_id)
    if isinstance(opened, Entry):
        raise ApplicationError(_("You have no place in this event yet."), status=409)
    return opened


def _entry_data(entry: Entry) -> dict[str, Any]:
    """An entry without a place, in the pass's shape: its status and place on the list."""
    view = entry_view(entry=entry)
    return {
        "event": view.event.pk,
        "event_name": view.event.name,
        "player": view.entry.name,
        "status": view.entry.status,
        "waiting_position": view.rank,
        "checkin_opens": None,
        "current": None,
        "clock": None,
        "results": [],
        "rank": None,
        "standing": [],
        "next": None,
        "next_event": None,
    }


def _view_data(opened: PlayerPass | Entry, request: Request) -> dict[str, Any]:
    if isinstance(opened, Entry):
        return _entry_data(opened)
    pass_opened(player_pass=opened)
    return _pass_data(opened, request)


class PassViewApi(APIView):
    """What the pass shows its holder, no account needed: the secret is the credential."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        operation_id="event_pass",
        parameters=PASS_PARAMETERS,
        responses={
            200: PassViewOutput,
            403: FORBIDDEN,
            404: NOT_FOUND,
            429: THROTTLED,
        },
        description="The holder's view of their pass: their current table, results and "
        "standing. 404 for an unknown or revoked pass, 403 for a pass of another event. The "
        "link given at entry answers here too: before the entrant has a place, with the "
        "entry's `status` (`pending`, `waiting`, `withdrawn`, `refused`) and "
        "`waiting_position`; then it is the pass.",
    )
    def get(self, request: Request, event_id: int) -> Response:
        opened = link_of_request(request, event_id)
        return Response(PassViewOutput(_view_data(opened, request)).data)


PASS_ACT_REFUSALS = {
    403: OpenApiResponse(ERROR, description="A pass of another event."),
    404: NOT_FOUND,
    409: OpenApiResponse(ERROR, description="Not now: the message says why."),
    429: THROTTLED,
}


class PassCheckinApi(APIView):
    """The holder checks in with their pass, from the time the director set."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        operation_id="event_pass_checkin",
        request=None,
        parameters=PASS_PARAMETERS,
        responses={200: PassViewOutput, **PASS_ACT_REFUSALS},
        description="Check the holder in (twice is harmless); the answer is the pass's view. "
        "409 before self check-in opens (the message says when), after dropping out, or once "
        "the event is finished.",
    )
    def post(self, request: Request, event_id: int) -> Response:
        player_pass = pass_of_request(request, event_id)
        pass_opened(player_pass=player_pass)
        pass_checkin(player_pass=player_pass)
        player_pass.registration.refresh_from_db()
        return Response(PassViewOutput(_pass_data(player_pass, request)).data)


class PassWithdrawApi(APIView):
    """The holder drops out of the event: not paired again; the director's console names them."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        operation_id="event_pass_withdraw",
        request=None,
        parameters=PASS_PARAMETERS,
        responses={200: PassViewOutput, **PASS_ACT_REFUSALS},
        description="Drop the holder out of the event (twice is harmless): they are not paired "
        "again, an open match of theirs is a walkover, and the console tells the directors. "
        "The answer is the pass's view. 409 once the event is finished. With the link of an "
        "entry that has no place yet (awaiting approval or waiting), the entry is withdrawn "
        "and nothing else changes (nobody moves up); 409 when it is withdrawn already or was "
        "refused.",
    )
    def post(self, request: Request, event_id: int) -> Response:
        opened = link_of_request(request, event_id)
        if isinstance(opened, Entry):
            entry_withdraw_own(entry=opened)
            return Response(PassViewOutput(_entry_data(opened)).data)
        pass_opened(player_pass=opened)
        pass_withdraw(player_pass=opened)
        opened.registration.refresh_from_db()
        return Response(PassViewOutput(_pass_data(opened, request)).data)


# -- the holder's seat -----------------------------------------------------------------------------

SEAT_REFUSALS = {
    403: OpenApiResponse(
        ERROR,
        description="A pass of another event, a match that is not the holder's current one, "
        "or an act scoring refuses to that seat (the other seat's, the two-person rule).",
    ),
    404: NOT_FOUND,
    409: OpenApiResponse(ERROR, description="No match to play now, or scoring's own 409."),
    429: THROTTLED,
}


class PassSeatMixin(APIView):
    """Scoring's seat-link view, acting as the seat of the pass's holder at their current match.

    ``seat_open`` finds the pass and its seat key (refusing as the pass's rules say) and keeps
    the key for :meth:`actor`, which scoring's view calls: an actor holding that one link and
    nothing else of the request.
    """

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    seat_key: MatchKey | None = None
    pass_secret_sent: str = ""

    def seat_open(
        self, request: Request, event_id: int, submission_id: int | None = None
    ) -> MatchKey:
        """The seat key the pass acts with; for a hand (``submission_id``), its match must be
        the holder's current one (the pass first: a bad pass learns nothing of the hand)."""
        player_pass = pass_of_request(request, event_id)
        match_id = None
        if submission_id is not None:
            match_id = submission_or_404(submission_id).hand.game.match_id
        self.seat_key = pass_seat_key(player_pass=player_pass, match_id=match_id)
        self.pass_secret_sent = secret_from(request.headers.get(PASS_HEADER) or "")
        return self.seat_key

    def actor(self, request: Request) -> Actor:
        if self.seat_key is None:  # pragma: no cover - every route opens the seat first
            raise ApplicationError(_("This pass is not for that match."), status=403)
        return Actor(
            token=self.pass_secret_sent,
            token_link=key_link(self.seat_key),
            token_checked=True,
            ip=client_ip(request),
            user_agent=(request.headers.get("User-Agent") or "")[:300],
        )


class PassSeatOutput(serializers.Serializer):
    match = serializers.IntegerField()
    position = serializers.IntegerField(help_text="The holder's seat as the API counts (from 0).")
    seat = serializers.IntegerField(help_text="The holder's seat as the pages count (from 1).")
    detail = MatchDetailOutput(
        help_text="The match as its seat link sees it, with the entry waiting for confirmation."
    )


class PassSeatApi(PassSeatMixin, MatchDetailApi):
    """The holder's seat at their current match, as that seat's link sees the match."""

    @extend_schema(
        operation_id="event_pass_seat",
        parameters=PASS_PARAMETERS,
        responses={200: PassSeatOutput, **SEAT_REFUSALS},
        description="The holder's current match and seat, and the match as that seat's link "
        "sees it. Enter, confirm, dispute and withdraw hands at `pass/seat/hands/…` with the "
        "same header: the pass acts as that seat's link, for this match only.",
    )
    def get(self, request: Request, event_id: int) -> Response:
        key = self.seat_open(request, event_id)
        detail = super().get(request, match_id=key.match_id)
        position = key.position if key.position is not None else 0
        return Response(
            {
                "match": key.match_id,
                "position": position,
                "seat": position + 1,
                "detail": detail.data,
            }
        )


class PassSeatHandsApi(PassSeatMixin, MatchHandsApi):
    """The hands of the holder's current match, or enter the next one as their seat."""

    @extend_schema(
        operation_id="event_pass_seat_hands_list",
        parameters=PASS_PARAMETERS,
        responses={200: HandOutput(many=True), **SEAT_REFUSALS},
        description="The hands of the holder's current match (as `matches_hands_list`).",
    )
    def get(self, request: Request, event_id: int) -> Response:
        key = self.seat_open(request, event_id)
        return super().get(request, match_id=key.match_id)

    @extend_schema(
        operation_id="event_pass_seat_hands_submit",
        request=MatchHandsApi.InputSerializer,
        parameters=PASS_PARAMETERS,
        responses={201: HandOutput, 400: ERROR, **SEAT_REFUSALS},
        description="Enter the next hand of the holder's current match as their seat (as "
        "`matches_hands_submit`); the opponent confirms it.",
    )
    def post(self, request: Request, event_id: int) -> Response:
        key = self.seat_open(request, event_id)
        return super().post(request, match_id=key.match_id)


class PassSeatConfirmApi(PassSeatMixin, HandConfirmApi):
    @extend_schema(
        operation_id="event_pass_seat_confirm",
        request=HandConfirmApi.InputSerializer,
        parameters=PASS_PARAMETERS,
        responses={200: HandOutput, **SEAT_REFUSALS},
        description="Confirm the opponent's entry at the holder's current match.",
    )
    def post(self, request: Request, event_id: int, submission_id: int) -> Response:  # type: ignore[override]
        self.seat_open(request, event_id, submission_id)
        return super().post(request, submission_id=submission_id)


class PassSeatDisputeApi(PassSeatMixin, HandDisputeApi):
    @extend_schema(
        operation_id="event_pass_seat_dispute",
        request=HandDisputeApi.InputSerializer,
        parameters=PASS_PARAMETERS,
        responses={200: OpenApiTypes.OBJECT, 400: ERROR, **SEAT_REFUSALS},
        description="Dispute the opponent's entry at the holder's current match, with a reason.",
    )
    def post(self, request: Request, event_id: int, submission_id: int) -> Response:  # type: ignore[override]
        self.seat_open(request, event_id, submission_id)
        return super().post(request, submission_id=submission_id)


class PassSeatWithdrawApi(PassSeatMixin, HandWithdrawApi):
    @extend_schema(
        operation_id="event_pass_seat_withdraw",
        request=HandWithdrawApi.InputSerializer,
        parameters=PASS_PARAMETERS,
        responses={200: HandOutput, **SEAT_REFUSALS},
        description="Withdraw the holder's own entry before it is confirmed.",
    )
    def post(self, request: Request, event_id: int, submission_id: int) -> Response:  # type: ignore[override]
        self.seat_open(request, event_id, submission_id)
        return super().post(request, submission_id=submission_id)


def _row(request: Request, registration: Registration) -> dict[str, Any]:
    active = PlayerPass.objects.filter(registration=registration, revoked_at__isnull=True).first()
    return {
        "registration": registration.pk,
        "player": registration.player.name,
        "status": registration.status,
        "link": pass_url(absolute=request.build_absolute_uri, player_pass=active)
        if active is not None
        else "",
        "opened": bool(active is not None and active.opened_at is not None),
    }


def _registration(event: Event, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("event", "player"), pk=registration_id, event=event
    )


class EventPassesApi(BaseApi):
    @extend_schema(
        operation_id="event_passes",
        responses={200: PassRowOutput(many=True), 403: FORBIDDEN, 404: NOT_FOUND},
        description="Every registered player's pass with its link (directors). A player "
        "without one (registered before passes existed) is issued one now.",
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = managed_event(request, event_id)
        rows = []
        for registration in Registration.objects.filter(event=event).select_related("player"):
            if registration.status != Registration.Status.DROPPED:
                pass_ensure(registration=registration)
            rows.append(_row(request, registration))
        return Response(PassRowOutput(rows, many=True).data)


class PassReissueApi(BaseApi):
    @extend_schema(
        operation_id="event_pass_reissue",
        request=None,
        responses={200: PassRowOutput, 403: FORBIDDEN, 404: NOT_FOUND},
        description="Revoke the player's pass and issue a new one: the old link answers 404.",
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        event = managed_event(request, event_id)
        registration = _registration(event, registration_id)
        pass_reissue(registration=registration, user=request.user)
        return Response(PassRowOutput(_row(request, registration)).data)


class PassRevokeApi(BaseApi):
    @extend_schema(
        operation_id="event_pass_revoke",
        request=None,
        responses={200: PassRowOutput, 403: FORBIDDEN, 404: NOT_FOUND},
        description="Revoke the player's pass: its link answers 404 until a director reissues it.",
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        event = managed_event(request, event_id)
        registration = _registration(event, registration_id)
        pass_revoke(registration=registration, user=request.user)
        return Response(PassRowOutput(_row(request, registration)).data)
