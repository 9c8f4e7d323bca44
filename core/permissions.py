"""What every app's API asks before the role rules: reads are public, writes need a signed-in
user, and a refusal is the application's 403.

The role rules themselves live with what they guard (``clubs.permissions``,
``tournaments.permissions``, ``scoring.permissions``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from core.errors import ApplicationError


def require(allowed: bool, message: str | None = None) -> None:
    """Raise the application's 403 unless ``allowed`` (``message`` says who may)."""
    if not allowed:
        raise ApplicationError(message or _("You may not do this here."), status=403)


class ReadOnlyOrAuthenticated(BasePermission):
    """Reads are public; writes need a signed-in user (the view checks the role)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        return bool(request.user and request.user.is_authenticated)
