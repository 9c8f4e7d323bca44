"""API tokens: make one with a username and password, list yours, revoke them.

A client sends the token as ``Authorization: Token <key>``. The key is shown once, when it is
made: the database keeps only its digest (:class:`core.models.ApiToken`, and why not
django-rest-knox in :mod:`core.tokens`). So each ``POST`` makes a new token (the old one cannot
be shown again); ``DELETE`` revokes the token the request carries, or all of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.contrib.auth import authenticate
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ErrorResponse
from core.errors import ApplicationError
from core.models import ApiToken
from core.selectors import api_tokens_of
from core.services import api_token_create, api_token_revoke, api_token_revoke_all

if TYPE_CHECKING:
    from django.contrib.auth.models import User

TOKEN_ERROR = ErrorResponse(
    inline_serializer("TokenError", {"detail": serializers.CharField()}), name="TokenRefused"
)
NOT_SIGNED_IN = OpenApiResponse(TOKEN_ERROR, description="Not signed in.")
BAD_TOKEN = OpenApiResponse(
    TOKEN_ERROR, description="The token sent is wrong or revoked, or its account inactive."
)


class AuthTokenApi(APIView):
    """``GET``: your tokens. ``POST``: username and password in, a new token out (once).
    ``DELETE``: revoke the token you send, or all of yours."""

    @extend_schema_serializer(component_name="TokenRequest")
    class InputSerializer(serializers.Serializer[dict[str, str]]):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=4096, trim_whitespace=False)
        name = serializers.CharField(
            max_length=100,
            required=False,
            default="",
            allow_blank=True,
            help_text="Optional: what the token is for (a laptop, a script), to tell it apart.",
        )

    @extend_schema_serializer(component_name="Token")
    class OutputSerializer(serializers.Serializer[dict[str, str]]):
        token = serializers.CharField(
            help_text="Send it as `Authorization: Token <token>`. Shown this once: Knock "
            "keeps only its digest."
        )
        username = serializers.CharField()
        prefix = serializers.CharField(help_text="The token's first characters, to tell it apart.")
        name = serializers.CharField()

    @extend_schema_serializer(component_name="TokenInfo")
    class InfoSerializer(serializers.Serializer[Any]):
        prefix = serializers.CharField(help_text="The token's first characters.")
        name = serializers.CharField()
        created = serializers.DateTimeField()
        last_used = serializers.DateTimeField(
            allow_null=True, help_text="To within five minutes; null if never used."
        )
        current = serializers.SerializerMethodField(
            help_text="Whether this request was signed in with this token."
        )

        def get_current(self, token: ApiToken) -> bool:
            return bool(token.pk == self.context["current"])

    class RevokeSerializer(serializers.Serializer[dict[str, bool]]):
        all = serializers.BooleanField(required=False, default=False)

    def get_permissions(self) -> list[BasePermission]:
        if self.request.method == "POST":
            return [AllowAny()]
        return [IsAuthenticated()]

    @extend_schema(
        operation_id="auth_token_list",
        summary="List your API tokens",
        description="The signed-in user's tokens, newest first: their first characters, name, "
        "when made and last used. Never the keys: Knock does not keep them.",
        responses={200: InfoSerializer(many=True), 401: BAD_TOKEN, 403: NOT_SIGNED_IN},
    )
    def get(self, request: Request) -> Response:
        tokens = api_tokens_of(user=cast("User", request.user))
        current = request.auth.pk if isinstance(request.auth, ApiToken) else None
        return Response(self.InfoSerializer(tokens, many=True, context={"current": current}).data)

    @extend_schema(
        operation_id="auth_token_create",
        summary="Get a new API token",
        description="Exchange a username and password for a new API token. Its key is in this "
        "answer only (Knock keeps a digest): keep it. Each call makes another token; a user keeps "
        "at most 20, and making one more revokes the one unused longest. A wrong username or "
        "password, or an inactive account, is 400.",
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
        token, key = api_token_create(user=cast("User", user), name=data.validated_data["name"])
        body: dict[str, Any] = {
            "token": key,
            "username": user.get_username(),
            "prefix": token.prefix,
            "name": token.name,
        }
        return Response(body)

    @extend_schema(
        operation_id="auth_token_revoke",
        summary="Revoke your API token",
        description="With a token: revoke that token (`?all=true`: every token of the account). "
        "From a signed-in session: every token of the account. Every client using a revoked "
        "token is signed out (401); a new token can be asked for at any time.",
        parameters=[
            OpenApiParameter(
                "all", bool, description="Revoke every token of the account.", required=False
            )
        ],
        request=None,
        responses={
            204: None,
            400: OpenApiResponse(TOKEN_ERROR, description="`all` is not true or false."),
            401: BAD_TOKEN,
            403: NOT_SIGNED_IN,
        },
    )
    def delete(self, request: Request) -> Response:
        query = self.RevokeSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        if isinstance(request.auth, ApiToken) and not query.validated_data["all"]:
            api_token_revoke(token=request.auth)
        else:
            api_token_revoke_all(user=cast("User", request.user))
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [path("auth/token/", AuthTokenApi.as_view(), name="api-auth-token")]
