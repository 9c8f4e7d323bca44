"""API tokens: exchange a username and password for a token, and revoke it.

A client sends the token as ``Authorization: Token <key>``. A user has one token at a time:
asking again returns the same one until it is revoked; revoking it signs every client using it
out.
"""

from __future__ import annotations

from typing import cast

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ErrorResponse
from core.errors import ApplicationError

TOKEN_ERROR = ErrorResponse(
    inline_serializer("TokenError", {"detail": serializers.CharField()}), name="TokenRefused"
)


class AuthTokenApi(APIView):
    """``POST``: username and password in, token out. ``DELETE``: revoke your token."""

    @extend_schema_serializer(component_name="TokenRequest")
    class InputSerializer(serializers.Serializer[dict[str, str]]):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=4096, trim_whitespace=False)

    @extend_schema_serializer(component_name="Token")
    class OutputSerializer(serializers.Serializer[dict[str, str]]):
        token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")
        username = serializers.CharField()

    def get_permissions(self) -> list[BasePermission]:
        if self.request.method == "DELETE":
            return [IsAuthenticated()]
        return [AllowAny()]

    @extend_schema(
        operation_id="auth_token_create",
        summary="Get an API token",
        description="Exchange a username and password for the user's API token (the same token "
        "until it is revoked). A wrong username or password, or an inactive account, is 400.",
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            400: OpenApiResponse(TOKEN_ERROR, description="Wrong username or password."),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(
            request._request,
            username=data.validated_data["username"],
            password=data.validated_data["password"],
        )
        if user is None:
            raise ApplicationError(_("Wrong username or password."))
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key, "username": user.get_username()})

    @extend_schema(
        operation_id="auth_token_revoke",
        summary="Revoke your API token",
        description="Delete the signed-in user's token: every client using it is signed out. "
        "A new one can be asked for at any time.",
        request=None,
        responses={
            204: None,
            403: OpenApiResponse(TOKEN_ERROR, description="Not signed in."),
        },
    )
    def delete(self, request: Request) -> Response:
        Token.objects.filter(user=cast(User, request.user)).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [path("auth/token/", AuthTokenApi.as_view(), name="api-auth-token")]
