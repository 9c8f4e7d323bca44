"""Django admin for API tokens: see them (never their keys), make one for an account, revoke."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest
from django.utils.translation import gettext as _

from core.models import ApiToken
from core.services import api_token_create


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["prefix", "user", "name", "created", "last_used"]
    list_select_related = ["user"]
    search_fields = ["user__username", "prefix", "name"]
    fields = ["user", "name"]
    raw_id_fields = ["user"]

    def get_readonly_fields(self, request: HttpRequest, obj: ApiToken | None = None) -> Any:
        if obj is None:
            return []
        return ["user", "name", "prefix", "created", "last_used"]

    def get_fields(self, request: HttpRequest, obj: ApiToken | None = None) -> Any:
        if obj is None:
            return ["user", "name"]
        return ["user", "name", "prefix", "created", "last_used"]

    def save_model(self, request: HttpRequest, obj: ApiToken, form: Any, change: bool) -> None:
        if change:
            return  # nothing of a token is edited; it is revoked (deleted) or kept
        made, key = api_token_create(user=obj.user, name=obj.name)
        obj.pk, obj.digest, obj.prefix, obj.created = (
            made.pk,
            made.digest,
            made.prefix,
            made.created,
        )
        obj._state.adding = False
        messages.warning(
            request,
            _("The new token for %(user)s is %(key)s. Copy it now: it will not be shown again.")
            % {"user": obj.user.get_username(), "key": key},
        )
