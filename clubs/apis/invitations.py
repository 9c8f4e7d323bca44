"""The signed-in user's club role invitations: list them, accept one (the role counts from then
on) or decline one (it is deleted). The page is /me/, where signing in lands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.apis.common import BaseApi, request_user
from clubs.models import ClubRole, RoleInvitation
from clubs.selectors import user_role_invitations
from clubs.services import role_invitation_accept, role_invitation_decline
from core.api import FORBIDDEN, NOT_FOUND
from core.parsing import AsciiIntegerField
from core.permissions import require

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class MyInvitationOutput(serializers.ModelSerializer):
    club = AsciiIntegerField(source="club_id")
    club_name = serializers.CharField(source="club.name")
    club_slug = serializers.CharField(source="club.slug")
    invited_by = serializers.CharField(source="invited_by.username", allow_null=True, default=None)

    class Meta:
        model = RoleInvitation
        fields = ["id", "club", "club_name", "club_slug", "role", "invited_by", "created_at"]


class AcceptedRoleOutput(serializers.ModelSerializer):
    club = AsciiIntegerField(source="club_id")
    club_name = serializers.CharField(source="club.name")

    class Meta:
        model = ClubRole
        fields = ["id", "club", "club_name", "role"]


def signed_in_user(request: Request) -> User:
    user = request_user(request)
    require(user is not None, _("Sign in to see your invitations."))
    assert user is not None
    return user


class MyInvitationListApi(BaseApi):
    @extend_schema(
        operation_id="me_invitations_list",
        summary="List my pending club role invitations",
        description="Invitations addressed to the signed-in user's username, oldest first.",
        responses={200: MyInvitationOutput(many=True), 403: FORBIDDEN},
    )
    def get(self, request: Request) -> Response:
        user = signed_in_user(request)
        return Response(MyInvitationOutput(user_role_invitations(user=user), many=True).data)


class MyInvitationAcceptApi(BaseApi):
    @extend_schema(
        operation_id="me_invitations_accept",
        summary="Accept a club role invitation",
        description="The role counts from now on. An invitation addressed to someone else, "
        "already answered or missing is a 404.",
        request=None,
        responses={200: AcceptedRoleOutput, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def post(self, request: Request, invitation_id: int) -> Response:
        user = signed_in_user(request)
        role = role_invitation_accept(invitation_id=invitation_id, user=user)
        return Response(AcceptedRoleOutput(role).data)


class MyInvitationDeclineApi(BaseApi):
    @extend_schema(
        operation_id="me_invitations_decline",
        summary="Decline a club role invitation",
        description="The invitation is deleted; no role is made. Someone else's is a 404.",
        request=None,
        responses={204: None, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def post(self, request: Request, invitation_id: int) -> Response:
        user = signed_in_user(request)
        role_invitation_decline(invitation_id=invitation_id, user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)
