"""Helpers shared by the tournament pages: finding the event or club a page is about, and who may
manage it. Not views."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.permissions import user_can_direct_club
from tournaments.models import Event

# -- events ----------------------------------------------------------------------------------


def _event(pk: int) -> Event:
    return get_object_or_404(Event.objects.select_related("club", "league"), pk=pk)


# -- director pages: clubs, players, roles, event settings ----------------------------------------
#
# Signed-out visitors are sent to sign in; signed-in users without the role get a 403 page.
# Every write goes through a service; an ``ApplicationError`` lands at the form field it names.


def _forbidden(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "tournaments/forbidden.html", {"message": message}, status=403)


def _club(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def _directed_club(request: HttpRequest, slug: str) -> tuple[Club, HttpResponse | None]:
    club = _club(slug)
    if not user_can_direct_club(user=request.user, club=club):
        return club, _forbidden(request, _("Only the club's admins and directors may do this."))
    return club, None
