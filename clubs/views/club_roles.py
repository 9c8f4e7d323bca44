"""A club's roles: invite, list and revoke admins and directors (club admins).

Granting a role sends an invitation: the page answers the same whether or not an account holds
the name, and the role counts once its holder accepts it on their own page (/me/).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.forms import RoleGrantForm
from clubs.models import Club, ClubRole, RoleInvitation
from clubs.permissions import user_can_manage_club
from clubs.selectors import club_invitation_list, club_role_list
from clubs.services import club_role_invite, club_role_revoke, role_invitation_cancel
from clubs.views.common import club_get
from core.errors import ApplicationError

# -- club roles ------------------------------------------------------------------------------


def _roles_page(
    request: HttpRequest, club: Club, form: RoleGrantForm | None = None
) -> HttpResponse:
    return render(
        request,
        "clubs/club_roles.html",
        {
            "club": club,
            "roles": list(club_role_list(club=club)),
            "invitations": list(club_invitation_list(club=club)),
            "form": form or RoleGrantForm(),
        },
        status=400 if form is not None and form.errors else 200,
    )


@login_required
def club_roles(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_get(slug)
    if not user_can_manage_club(user=request.user, club=club):
        raise PermissionDenied(_("Only the club's admins may grant roles."))
    if request.method != "POST":
        return _roles_page(request, club)
    form = RoleGrantForm(request.POST)
    if form.is_valid():
        try:
            invitation = club_role_invite(
                club=club,
                username=form.cleaned_data["username"],
                role=form.cleaned_data["role"],
                invited_by=request.user,  # type: ignore[arg-type]
            )
        except ApplicationError as exc:
            form.add_service_error(exc)
        else:
            messages.success(
                request,
                _(
                    "Invitation sent to %(user)s to be %(role)s of the club: it takes effect "
                    "when they accept it."
                )
                % {"user": invitation.username, "role": invitation.get_role_display()},
            )
            return redirect("club-roles", slug=club.slug)
    return _roles_page(request, club, form)


@login_required
@require_POST
def club_role_revoke_view(request: HttpRequest, slug: str, role_id: int) -> HttpResponse:
    club = club_get(slug)
    if not user_can_manage_club(user=request.user, club=club):
        raise PermissionDenied(_("Only the club's admins may grant roles."))
    role = get_object_or_404(ClubRole.objects.select_related("user"), pk=role_id, club=club)
    try:
        club_role_revoke(club=club, user=role.user, role=role.role)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("%(user)s is no longer %(role)s of the club.")
            % {"user": role.user.get_username(), "role": role.get_role_display()},
        )
    return redirect("club-roles", slug=club.slug)


@login_required
@require_POST
def club_invitation_cancel_view(
    request: HttpRequest, slug: str, invitation_id: int
) -> HttpResponse:
    club = club_get(slug)
    if not user_can_manage_club(user=request.user, club=club):
        raise PermissionDenied(_("Only the club's admins may grant roles."))
    get_object_or_404(RoleInvitation, pk=invitation_id, club=club, accepted_at__isnull=True)
    try:
        invitation = role_invitation_cancel(club=club, invitation_id=invitation_id)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("The invitation to %(user)s is withdrawn.") % {"user": invitation.username},
        )
    return redirect("club-roles", slug=club.slug)
