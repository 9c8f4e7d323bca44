"""A signed-in user's answer to a club role invitation (shown on their page, /me/)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.services import role_invitation_accept, role_invitation_decline
from core.errors import ApplicationError


@login_required
@require_POST
def invitation_accept(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """Accept: the role counts from now on. Someone else's invitation is a 404."""
    try:
        role = role_invitation_accept(invitation_id=invitation_id, user=request.user)  # type: ignore[arg-type]
    except ApplicationError as exc:
        raise Http404(exc.message) from exc
    messages.success(
        request,
        _("You are now %(role)s of %(club)s.")
        % {"role": role.get_role_display(), "club": role.club.name},
    )
    return redirect("dashboard")


@login_required
@require_POST
def invitation_decline(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """Decline: the invitation is deleted and no role is made."""
    try:
        invitation = role_invitation_decline(invitation_id=invitation_id, user=request.user)  # type: ignore[arg-type]
    except ApplicationError as exc:
        raise Http404(exc.message) from exc
    messages.success(
        request,
        _("You declined the invitation from %(club)s.") % {"club": invitation.club.name},
    )
    return redirect("dashboard")
