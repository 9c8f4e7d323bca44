"""Registrations: list and register, check in (by a director or with the player's own token),
drop, and forbidden pairings.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.apis.players import PlayerOutput
from clubs.models import Player
from core.api import FORBIDDEN, INVALID, NOT_FOUND, conflict
from core.errors import ApplicationError
from core.pagination import Pagination
from core.parsing import AsciiIntegerField
from tournaments import selectors, services
from tournaments.apis.common import BaseApi, event_or_404, managed_event, paginate_list
from tournaments.links import token_from
from tournaments.models import Event, Registration
from tournaments.permissions import user_can_manage_event
from tournaments.services.edits import event_players_paste
from tournaments.services.events import registrations_checkin_all, registrations_create_many


class RegistrationOutput(serializers.ModelSerializer):
    player = PlayerOutput()

    class Meta:
        model = Registration
        fields = [
            "id",
            "player",
            "status",
            "seed",
            "joined_round",
            "dropped_after_round",
            "requested_byes",
            "created_at",
        ]


class RegistrationWithTokenOutput(RegistrationOutput):
    class Meta(RegistrationOutput.Meta):
        fields = [*RegistrationOutput.Meta.fields, "checkin_token"]


class RegistrationListApi(BaseApi):
    pagination_class = Pagination

    class RegistrationListInputSerializer(serializers.Serializer):
        player = AsciiIntegerField()
        seed = AsciiIntegerField(required=False, allow_null=True, min_value=1)
        requested_byes = serializers.ListField(
            child=AsciiIntegerField(min_value=1), required=False, default=list
        )
        checked_in = serializers.BooleanField(required=False, default=False)

    @extend_schema(responses=RegistrationOutput(many=True))
    def get(self, request: Request, event_id: int) -> Response:
        event = event_or_404(event_id)
        manager = user_can_manage_event(user=request.user, event=event)
        output = RegistrationWithTokenOutput if manager else RegistrationOutput
        return paginate_list(request, self, selectors.registration_list(event=event), output)

    @extend_schema(
        request=RegistrationListInputSerializer, responses={201: RegistrationWithTokenOutput}
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = managed_event(request, event_id)
        data = self.RegistrationListInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        player = get_object_or_404(Player, pk=v.pop("player"))
        registration = services.registration_create(event=event, player=player, **v)
        return Response(
            RegistrationWithTokenOutput(registration).data, status=status.HTTP_201_CREATED
        )


class RegistrationBulkCreateApi(BaseApi):
    """Register several players at once (the event page's "Register players" checklist)."""

    class RegistrationBulkCreateInputSerializer(serializers.Serializer):
        players = serializers.ListField(
            child=AsciiIntegerField(),
            allow_empty=False,
            max_length=500,
            help_text="Ids of the club's players to register (a repeated id counts once).",
        )
        checked_in = serializers.BooleanField(
            required=False, default=False, help_text="Check them in now."
        )

    @extend_schema(
        operation_id="events_registrations_bulk_create",
        summary="Register several players at once",
        description="Register every listed player in one transaction: all of them or none. "
        "Each player follows the rules of a single registration (the club's own players only; "
        "once rounds exist a player is a late entry joining at the next round; a round robin "
        "or bracket whose draw is made takes no late entries). An error names the player in "
        "`detail`, with `field` `players` and the player's id in `player`. Only the event's "
        "directors and the club's admins and directors. Same service as the event page's "
        "checklist.",
        request=RegistrationBulkCreateInputSerializer,
        responses={
            201: RegistrationWithTokenOutput(many=True),
            400: INVALID,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict(
                "A player is already registered, the event is finished, or its draw is made "
                "(`player` names the player)."
            ),
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = managed_event(request, event_id)
        data = self.RegistrationBulkCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ids = list(dict.fromkeys(data.validated_data["players"]))
        found = {p.pk: p for p in Player.objects.filter(pk__in=ids)}
        missing = [i for i in ids if i not in found]
        if missing:
            raise ApplicationError(
                _("No player has the id %(ids)s.") % {"ids": ", ".join(map(str, missing))},
                status=404,
                field="players",
            )
        registrations = registrations_create_many(
            event=event,
            players=[found[i] for i in ids],
            checked_in=data.validated_data["checked_in"],
        )
        return Response(
            RegistrationWithTokenOutput(registrations, many=True).data,
            status=status.HTTP_201_CREATED,
        )


class RegistrationPasteApi(BaseApi):
    """Register pasted names (the event page's "Paste names" box)."""

    class RegistrationPasteInputSerializer(serializers.Serializer):
        names = serializers.ListField(
            child=serializers.CharField(max_length=120, allow_blank=True),
            allow_empty=False,
            max_length=500,
            help_text="Player names, as pasted: blanks and repeats are dropped; a name the "
            "club does not have yet becomes a new club player.",
        )
        checked_in = serializers.BooleanField(
            required=False, default=False, help_text="Check them in now."
        )

    class RegistrationPasteOutputSerializer(serializers.Serializer):
        registered = RegistrationWithTokenOutput(many=True)
        skipped = serializers.ListField(
            child=serializers.CharField(), help_text="Names already registered."
        )

    @extend_schema(
        operation_id="events_registrations_paste",
        summary="Register pasted names",
        description="Register every pasted name in one transaction (all or none): names the "
        "club lacks are added as players first, names already registered are skipped. Only "
        "the event's directors and the club's admins and directors.",
        request=RegistrationPasteInputSerializer,
        responses={
            201: RegistrationPasteOutputSerializer,
            400: INVALID,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("The event is finished, or its draw is made (`player` names who)."),
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = managed_event(request, event_id)
        data = self.RegistrationPasteInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        done, skipped = event_players_paste(
            event=event,
            names=data.validated_data["names"],
            checked_in=data.validated_data["checked_in"],
        )
        return Response(
            {
                "registered": RegistrationWithTokenOutput(done, many=True).data,
                "skipped": skipped,
            },
            status=status.HTTP_201_CREATED,
        )


class RegistrationCheckinAllApi(BaseApi):
    """Check in everyone registered (the event page's "Check in all registered" button)."""

    @extend_schema(
        operation_id="events_registrations_checkin_all",
        summary="Check in all registered players",
        description="Check in every registration still `registered`; dropped players stay "
        "dropped. Returns the registrations checked in now (an empty list when there was "
        "nobody left). Only the event's directors and the club's admins and directors.",
        request=None,
        responses={
            200: RegistrationOutput(many=True),
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("The event is finished."),
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = managed_event(request, event_id)
        registrations = registrations_checkin_all(event=event)
        return Response(RegistrationOutput(registrations, many=True).data)


def _registration(event: Event, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("event__club", "player"),
        pk=registration_id,
        event=event,
    )


class RegistrationCheckinApi(BaseApi):
    @extend_schema(request=None, responses=RegistrationOutput)
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        event = managed_event(request, event_id)
        registration = services.registration_checkin(
            registration=_registration(event, registration_id)
        )
        return Response(RegistrationOutput(registration).data)


class RegistrationDropApi(BaseApi):
    @extend_schema(request=None, responses=RegistrationOutput)
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        event = managed_event(request, event_id)
        registration = services.registration_drop(
            registration=_registration(event, registration_id)
        )
        return Response(RegistrationOutput(registration).data)


class RegistrationSelfCheckinApi(APIView):
    """The player's own link with the token in the path: ``POST /api/checkin/<token>/``, no
    account needed. Kept for clients written against it; the token then reaches access logs
    (Knock's own redact it), so :class:`RegistrationSelfCheckinByLinkApi` is preferred."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        request=None,
        responses=RegistrationOutput,
        description="Check in with the token in the path. Prefer `POST /api/checkin/` with the "
        "token in the body: a path is written to access logs.",
    )
    def post(self, request: Request, token: str) -> Response:
        registration = services.registration_checkin_by_token(token=token)
        return Response(RegistrationOutput(registration).data)


class RegistrationSelfCheckinByLinkApi(APIView):
    """The player's own link: ``POST /api/checkin/`` with ``{"token": ...}`` (the token, or the
    whole ``/checkin/#<token>`` link), no account needed; the token stays out of every URL."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    class CheckinByLinkInputSerializer(serializers.Serializer):
        token = serializers.CharField(
            max_length=300,
            help_text="The check-in token, or the whole link (`https://<site>/checkin/#<token>`).",
        )

    @extend_schema(
        operation_id="checkin_by_link",
        request=CheckinByLinkInputSerializer,
        responses={200: RegistrationOutput, 400: INVALID, 404: NOT_FOUND},
        description="Check in with the player's own link, no account needed: the token (or the "
        "whole link) in the body.",
    )
    def post(self, request: Request) -> Response:
        data = self.CheckinByLinkInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        token = token_from(data.validated_data["token"])
        registration = services.registration_checkin_by_token(token=token)
        return Response(RegistrationOutput(registration).data)


class ForbiddenPairingCreateApi(BaseApi):
    class ForbiddenPairingCreateInputSerializer(serializers.Serializer):
        player_a = AsciiIntegerField()
        player_b = AsciiIntegerField()
        hard = serializers.BooleanField(required=False, default=True)

    @extend_schema(
        request=ForbiddenPairingCreateInputSerializer,
        responses={
            201: inline_serializer(
                "ForbiddenPairing",
                {
                    "id": AsciiIntegerField(),
                    "player_a": AsciiIntegerField(),
                    "player_b": AsciiIntegerField(),
                    "hard": serializers.BooleanField(),
                },
            )
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = managed_event(request, event_id)
        data = self.ForbiddenPairingCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        pairing = services.forbidden_pairing_create(
            event=event,
            player_a=get_object_or_404(Player, pk=v["player_a"]),
            player_b=get_object_or_404(Player, pk=v["player_b"]),
            hard=v["hard"],
        )
        return Response(
            {
                "id": pairing.pk,
                "player_a": pairing.player_a_id,
                "player_b": pairing.player_b_id,
                "hard": pairing.hard,
            },
            status=status.HTTP_201_CREATED,
        )
