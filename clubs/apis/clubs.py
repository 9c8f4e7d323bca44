"""Clubs: list and create, the Gem Rummy deck map, and the club's roles (list,
invite, revoke) and pending invitations (list, withdraw).

A club's detail (read and edit) lists its events, so it is ``tournaments.apis.clubs``; it
reuses :class:`ClubOutput`.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.apis.common import BaseApi, managed_club, request_user
from clubs.models import Club, ClubRole, RoleInvitation
from clubs.selectors import club_invitation_list, club_list, club_role_list
from clubs.services import (
    club_create,
    club_gem_deck_map_set,
    club_role_invite,
    club_role_revoke,
    role_invitation_cancel,
)
from core.api import FORBIDDEN, INVALID, NOT_FOUND, conflict
from core.i18n import engine_message
from core.pagination import Pagination, paginate
from core.parsing import AsciiIntegerField
from engine.cards import format_card, parse_card
from engine.errors import EngineError


class ClubOutput(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "description", "rating_period_days", "created_at"]


class ClubListApi(BaseApi):
    pagination_class = Pagination

    class ClubListInputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=120)
        slug = serializers.CharField(max_length=80, required=False, allow_blank=True)
        description = serializers.CharField(required=False, allow_blank=True)
        rating_period_days = AsciiIntegerField(required=False, min_value=1)

    @extend_schema(responses=ClubOutput(many=True))
    def get(self, request: Request) -> Response:
        return paginate(request, self, club_list(), ClubOutput)

    @extend_schema(request=ClubListInputSerializer, responses={201: ClubOutput})
    def post(self, request: Request) -> Response:
        data = self.ClubListInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = club_create(user=request_user(request), **data.validated_data)
        return Response(ClubOutput(club).data, status=status.HTTP_201_CREATED)


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {
            "oneOf": [
                {"type": "string"},
                {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2},
            ]
        },
        "example": {"AS": "ruby", "KS": ["ruby", "emerald"]},
    }
)
class DeckMapField(serializers.Field):
    """Card (any notation) to its gem; a king to a list of two gems. Cards come back canonical."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise serializers.ValidationError(_("Give the deck map as an object: card to gem."))
        mapping: dict[str, Any] = {}
        for key, gems in data.items():
            try:
                card = format_card(parse_card(str(key)))
            except EngineError as exc:
                raise serializers.ValidationError(f"{key}: {engine_message(exc)}") from exc
            if not (
                isinstance(gems, str)
                or (isinstance(gems, list) and gems and all(isinstance(g, str) for g in gems))
            ):
                raise serializers.ValidationError(
                    _("%(card)s: give a gem, or a list of two gems for a king.") % {"card": card}
                )
            if card in mapping:
                raise serializers.ValidationError(_("%(card)s is given twice.") % {"card": card})
            mapping[card] = gems
        return mapping

    def to_representation(self, value: Any) -> Any:
        return value or {}


class ClubGemDeckApi(BaseApi):
    """The club's Gem Rummy deck map: read it (anyone), set it (PUT) or remove it (DELETE)."""

    class ClubGemDeckInputSerializer(serializers.Serializer):
        gem_deck_map = DeckMapField(help_text="All 52 cards; an empty object removes the map.")

    class ClubGemDeckOutputSerializer(serializers.Serializer):
        gem_deck_map = DeckMapField()

    @extend_schema(
        operation_id="clubs_gem_deck_retrieve",
        summary="Read the club's Gem Rummy deck map",
        responses={200: ClubGemDeckOutputSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = get_object_or_404(Club, pk=club_id)
        return Response(self.ClubGemDeckOutputSerializer(club).data)

    @extend_schema(
        operation_id="clubs_gem_deck_set",
        summary="Set the club's Gem Rummy deck map",
        description="The engine checks the map (every card once, a king two gems) before it is "
        "stored. Only the club's admins. Same service as the club's edit page.",
        request=ClubGemDeckInputSerializer,
        responses={
            200: ClubGemDeckOutputSerializer,
            400: INVALID,
            403: FORBIDDEN,
            404: NOT_FOUND,
        },
    )
    def put(self, request: Request, club_id: int) -> Response:
        club = managed_club(request, club_id)
        data = self.ClubGemDeckInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = club_gem_deck_map_set(club=club, mapping=data.validated_data["gem_deck_map"])
        return Response(self.ClubGemDeckOutputSerializer(club).data)

    @extend_schema(
        operation_id="clubs_gem_deck_remove",
        summary="Remove the club's Gem Rummy deck map",
        request=None,
        responses={204: None, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def delete(self, request: Request, club_id: int) -> Response:
        club = managed_club(request, club_id)
        club_gem_deck_map_set(club=club, mapping={})
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubRoleOutput(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = ClubRole
        fields = ["id", "username", "role"]


class ClubInvitationOutput(serializers.ModelSerializer):
    status = serializers.SerializerMethodField()

    class Meta:
        model = RoleInvitation
        fields = ["id", "username", "role", "created_at", "status"]

    def get_status(self, invitation: RoleInvitation) -> str:
        return "pending" if invitation.accepted_at is None else "accepted"


class ClubRoleListApi(BaseApi):
    """Who holds which role in the club (GET) and inviting someone to one (POST); the club's
    admins only."""

    class ClubRoleGrantInputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        role = serializers.ChoiceField(choices=ClubRole.Role.choices)

    @extend_schema(
        operation_id="clubs_roles_list",
        summary="List the club's roles",
        responses={200: ClubRoleOutput(many=True), 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = managed_club(request, club_id)
        return Response(ClubRoleOutput(club_role_list(club=club), many=True).data)

    @extend_schema(
        operation_id="clubs_roles_grant",
        summary="Invite someone to a club role",
        description="Invites whoever holds `username` to be an admin or a director of the club. "
        "The answer is the same pending invitation whether or not an account has that name (so "
        "it tells nobody who has an account); the role counts once its holder accepts it "
        "(`POST /api/me/invitations/{id}/accept/`). Inviting the same name to the same role "
        "again while it is pending answers the same invitation. A name is refused (400) only "
        "for its form.",
        request=ClubRoleGrantInputSerializer,
        responses={201: ClubInvitationOutput, 400: INVALID, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = managed_club(request, club_id)
        data = self.ClubRoleGrantInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        invitation = club_role_invite(
            club=club,
            username=data.validated_data["username"],
            role=data.validated_data["role"],
            invited_by=request_user(request),
        )
        return Response(ClubInvitationOutput(invitation).data, status=status.HTTP_201_CREATED)


class ClubInvitationListApi(BaseApi):
    @extend_schema(
        operation_id="clubs_invitations_list",
        summary="List the club's pending role invitations",
        description="Invitations not yet accepted, oldest first; a declined one is gone. The "
        "club's admins only.",
        responses={200: ClubInvitationOutput(many=True), 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = managed_club(request, club_id)
        return Response(ClubInvitationOutput(club_invitation_list(club=club), many=True).data)


class ClubInvitationCancelApi(BaseApi):
    @extend_schema(
        operation_id="clubs_invitations_cancel",
        summary="Withdraw a pending role invitation",
        description="The club's admins only. An accepted invitation is a role: revoke the role.",
        request=None,
        responses={204: None, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def delete(self, request: Request, club_id: int, invitation_id: int) -> Response:
        club = managed_club(request, club_id)
        role_invitation_cancel(club=club, invitation_id=invitation_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubRoleRevokeApi(BaseApi):
    @extend_schema(
        operation_id="clubs_roles_revoke",
        summary="Revoke a club role",
        description="Take the role away from its holder. A club always keeps at least one admin. "
        "Only the club's admins. Same service as the club's roles page.",
        request=None,
        responses={
            204: None,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("This is the club's last admin (field: role)."),
        },
    )
    def delete(self, request: Request, club_id: int, role_id: int) -> Response:
        club = managed_club(request, club_id)
        role = get_object_or_404(ClubRole.objects.select_related("user"), pk=role_id, club=club)
        club_role_revoke(club=club, user=role.user, role=role.role)
        return Response(status=status.HTTP_204_NO_CONTENT)
