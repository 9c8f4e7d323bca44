"""Helpers shared by the tournament pages: finding the event or club a page is about, and who may
manage it. Not views."""

from __future__ import annotations

from typing import NoReturn

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.permissions import user_can_direct_club
from tournaments.models import Event

# -- events ----------------------------------------------------------------------------------


def _event(pk: int) -> Event:
    return get_object_or_404(Event.objects.select_related("club", "league"), pk=pk)


# -- director pages: clubs, players, roles, event settings ----------------------------------------
#
# Signed-out visitors are sent to sign in; signed-in users without the role get the site's 403
# page (templates/403.html: the refusal, who is signed in, and signing in as someone else).
# Every write goes through a service; an ``ApplicationError`` lands at the form field it names.


def _forbidden(request: HttpRequest, message: str) -> NoReturn:
    """Refuse with a 403 that shows ``message`` (``handler403``, core/error_views.py)."""
    raise PermissionDenied(message)


def _club(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def _directed_club(request: HttpRequest, slug: str) -> tuple[Club, HttpResponse | None]:
    club = _club(slug)
    if not user_can_direct_club(user=request.user, club=club):
        _forbidden(request, _("Only the club's admins and directors may do this."))
    return club, None
