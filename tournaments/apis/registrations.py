"""Registrations: list and register, check in (by a director or with the player's own token),
drop, and forbidden pairings.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors, services
from tournaments.apis._common import _Api, _event, _managed_event, _paginate
from tournaments.apis.players import PlayerOutput
from tournaments.models import Event, Player, Registration
from tournaments.permissions import user_can_manage_event


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


class RegistrationListApi(_Api):
    class RegistrationListInputSerializer(serializers.Serializer):
        player = serializers.IntegerField()
        seed = serializers.IntegerField(required=False, allow_null=True, min_value=1)
        requested_byes = serializers.ListField(
            child=serializers.IntegerField(min_value=1), required=False, default=list
        )
        checked_in = serializers.BooleanField(required=False, default=False)

    @extend_schema(responses=RegistrationOutput(many=True))
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        manager = user_can_manage_event(user=request.user, event=event)
        output = RegistrationWithTokenOutput if manager else RegistrationOutput
        return _paginate(request, self, selectors.registration_list(event=event), output)

    @extend_schema(
        request=RegistrationListInputSerializer, responses={201: RegistrationWithTokenOutput}
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = _managed_event(request, event_id)
        data = self.RegistrationListInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        player = get_object_or_404(Player, pk=v.pop("player"))
        registration = services.registration_create(event=event, player=player, **v)
        return Response(
            RegistrationWithTokenOutput(registration).data, status=status.HTTP_201_CREATED
        )


def _registration(event: Event, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("event__club", "player"),
        pk=registration_id,
        event=event,
    )


class RegistrationCheckinApi(_Api):
    @extend_schema(request=None, responses=RegistrationOutput)
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        event = _managed_event(request, event_id)
        registration = services.registration_checkin(
            registration=_registration(event, registration_id)
        )
        return Response(RegistrationOutput(registration).data)


class RegistrationDropApi(_Api):
    @extend_schema(request=None, responses=RegistrationOutput)
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        event = _managed_event(request, event_id)
        registration = services.registration_drop(
            registration=_registration(event, registration_id)
        )
        return Response(RegistrationOutput(registration).data)


class RegistrationSelfCheckinApi(APIView):
    """The player's own link: ``POST /api/checkin/<token>/``, no account needed."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(request=None, responses=RegistrationOutput)
    def post(self, request: Request, token: str) -> Response:
        registration = services.registration_checkin_by_token(token=token)
        return Response(RegistrationOutput(registration).data)


class ForbiddenPairingCreateApi(_Api):
    class ForbiddenPairingCreateInputSerializer(serializers.Serializer):
        player_a = serializers.IntegerField()
        player_b = serializers.IntegerField()
        hard = serializers.BooleanField(required=False, default=True)

    @extend_schema(
        request=ForbiddenPairingCreateInputSerializer,
        responses={
            201: inline_serializer(
                "ForbiddenPairing",
                {
                    "id": serializers.IntegerField(),
                    "player_a": serializers.IntegerField(),
                    "player_b": serializers.IntegerField(),
                    "hard": serializers.BooleanField(),
                },
            )
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = _managed_event(request, event_id)
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
