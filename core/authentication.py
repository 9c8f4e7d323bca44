"""``Authorization: Token <key>`` against Knock's :class:`core.models.ApiToken` (digests only).

It is DRF's :class:`~rest_framework.authentication.TokenAuthentication` (same header, same
parsing, same errors, the same ``tokenAuth`` scheme in the OpenAPI schema) with the lookup
replaced: the presented key is hashed and the digest looked up, so the database never holds a
key (why Knock's own model rather than django-rest-knox: :mod:`core.tokens`).

It comes first in ``DEFAULT_AUTHENTICATION_CLASSES`` so that a request carrying a token that
signs no one in (wrong, revoked, its account inactive) is answered ``401`` with
``WWW-Authenticate: Token``; a request without a token is answered as before (``403`` when a
session or a token is needed).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.request import Request

from core.models import ApiToken
from core.selectors import api_token_by_key
from core.services import api_token_touch


class ApiTokenAuthentication(TokenAuthentication):
    keyword = "Token"
    model = ApiToken

    def authenticate_credentials(self, key: str) -> tuple[AbstractBaseUser, ApiToken]:
        token = api_token_by_key(key=key)
        if token is None:
            raise exceptions.AuthenticationFailed(
                _("This API token is not valid: it was revoked, or never existed.")
            )
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("This account is inactive."))
        api_token_touch(token=token)
        return token.user, token

    def authenticate_header(self, request: Request) -> Any:
        """``Token`` (so a 401) only for a request that sent a token; otherwise no header
        (so the 403 a request without credentials always had)."""
        sent = get_authorization_header(request).split()
        if sent and sent[0].lower() == self.keyword.lower().encode():
            return self.keyword
        return None
