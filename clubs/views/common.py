"""What the club pages (and the event pages of a club) share: finding the club a page is about,
and refusing who may not run it. Not views.

Signed-out visitors are sent to sign in (``login_required``); signed-in users without the role
get the site's 403 page (``PermissionDenied``, ``handler403`` in core/error_views.py). Every
write goes through a service; an ``ApplicationError`` lands at the form field it names.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.permissions import user_can_direct_club


def club_get(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def directed_club(request: HttpRequest, slug: str) -> Club:
    """The club, if the user is one of its admins or directors; otherwise the 403 page."""
    club = club_get(slug)
    if not user_can_direct_club(user=request.user, club=club):
        raise PermissionDenied(_("Only the club's admins and directors may do this."))
    return club
