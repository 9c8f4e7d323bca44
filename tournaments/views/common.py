"""Helpers shared by the tournament pages: finding the event a page is about, and refusing who
may not manage it (a club's lookups are ``clubs.views.common``). Not views."""

from __future__ import annotations

from typing import NoReturn

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from tournaments.models import Event

# -- events ----------------------------------------------------------------------------------


def event_or_404(pk: int) -> Event:
    return get_object_or_404(Event.objects.select_related("club", "league"), pk=pk)


# -- director pages: event settings, console, printing ----------------------------------------
#
# Signed-out visitors are sent to sign in; signed-in users without the role get the site's 403
# page (templates/403.html: the refusal, who is signed in, and signing in as someone else).
# Every write goes through a service; an ``ApplicationError`` lands at the form field it names.


def forbidden(request: HttpRequest, message: str) -> NoReturn:
    """Refuse with a 403 that shows ``message`` (``handler403``, core/error_views.py)."""
    raise PermissionDenied(message)
