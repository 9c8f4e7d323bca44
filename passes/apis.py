"""The pass in the API: the holder's view (``GET /api/events/{id}/pass/`` with the secret in
``X-Pass-Key``) and, for directors, the event's passes with their links, revoke and reissue."""

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
from passes.links import PASS_HEADER, pass_url, secret_from
from passes.models import PlayerPass
from passes.selectors import pass_view
from passes.services import pass_ensure, pass_open, pass_opened, pass_reissue, pass_revoke
from scoring.links import LinkRefused
from scoring.permissions import link_refused_error
from tournaments.apis.common import BaseApi, managed_event
from tournaments.models import Event, Registration

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


class PassViewOutput(serializers.Serializer):
    event = serializers.IntegerField()
    event_name = serializers.CharField()
    player = serializers.CharField()
    status = serializers.CharField(help_text="`registered`, `checked_in` or `dropped`.")
    current = CurrentOutput(allow_null=True)
    results = ResultOutput(many=True)
    rank = serializers.IntegerField(allow_null=True)
    standing = StandingValueOutput(many=True)


class PassRowOutput(serializers.Serializer):
    registration = serializers.IntegerField()
    player = serializers.CharField()
    status = serializers.CharField(help_text="`registered`, `checked_in` or `dropped`.")
    link = serializers.CharField(help_text="The pass's link; empty when it has none (revoked).")
    opened = serializers.BooleanField()


def _pass_data(player_pass: PlayerPass) -> dict[str, Any]:
    view = pass_view(player_pass=player_pass)
    return {
        "event": view.event.pk,
        "event_name": view.event.name,
        "player": view.registration.player.name,
        "status": view.registration.status,
        "current": view.current,
        "results": list(view.results),
        "rank": view.rank,
        "standing": [{"name": label, "value": value} for label, value in view.standing],
    }


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
        "standing. 404 for an unknown or revoked pass, 403 for a pass of another event.",
    )
    def get(self, request: Request, event_id: int) -> Response:
        secret = secret_from(request.headers.get(PASS_HEADER) or "")
        try:
            player_pass = pass_open(secret=secret, ip=client_ip(request))
        except LinkRefused as refused:
            if refused.status == 404:
                raise ApplicationError(
                    _("This pass is not valid: it was replaced or never existed."), status=404
                ) from None
            raise link_refused_error(refused) from None
        if player_pass.registration.event_id != event_id:
            raise ApplicationError(_("Your pass is for another event."), status=403)
        pass_opened(player_pass=player_pass)
        return Response(PassViewOutput(_pass_data(player_pass)).data)


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
