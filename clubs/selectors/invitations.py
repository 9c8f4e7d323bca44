"""Club role invitations: those waiting for a user's answer, and those a club has out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import QuerySet

from clubs.models import Club, RoleInvitation

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def user_role_invitations(*, user: User) -> QuerySet[RoleInvitation]:
    """The pending invitations addressed to ``user``'s username (in any case), oldest first."""
    return (
        RoleInvitation.objects.filter(
            username__iexact=user.get_username(), accepted_at__isnull=True
        )
        .select_related("club", "invited_by")
        .order_by("created_at", "id")
    )


def club_invitation_list(*, club: Club) -> QuerySet[RoleInvitation]:
    """The club's invitations still waiting for an answer, oldest first."""
    return (
        RoleInvitation.objects.filter(club=club, accepted_at__isnull=True)
        .select_related("invited_by")
        .order_by("created_at", "id")
    )
