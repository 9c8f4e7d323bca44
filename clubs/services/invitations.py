"""Club roles by invitation: an admin invites a username, the account holding it accepts or
declines, and only an accepted invitation makes the role (docs/security.md, "Club roles").

Inviting never looks an account up: it validates the name's form and stores one pending row,
the same work and the same answer whether or not anyone holds that name, so the grant tells
nobody who has an account.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, ClubRole, RoleInvitation
from core.errors import ApplicationError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

USERNAME_MAX_LENGTH = 150


def _role_check(role: str) -> None:
    if role not in ClubRole.Role.values:
        raise ApplicationError(
            _("A role is admin or director, not %(role)s.") % {"role": role}, field="role"
        )


def _username_check(username: str) -> str:
    """The name as it would be stored; refused only for its form (never for who holds it)."""
    name = (username or "").strip()
    if not name:
        raise ApplicationError(_("Enter the username of the person to invite."), field="username")
    if len(name) > USERNAME_MAX_LENGTH:
        raise ApplicationError(
            _("A username has at most %(n)d characters.") % {"n": USERNAME_MAX_LENGTH},
            field="username",
        )
    try:
        UnicodeUsernameValidator()(name)
    except ValidationError as exc:
        raise ApplicationError(" ".join(exc.messages), field="username") from exc
    return name


def club_role_invite(
    *, club: Club, username: str, role: str, invited_by: User | None
) -> RoleInvitation:
    """Invite whoever holds ``username`` (in any case) to be ``role`` of ``club``.

    The role counts only once they accept. Inviting the same name to the same role again while
    the first invitation is pending returns that invitation. No account is looked up.
    """
    _role_check(role)
    name = _username_check(username)
    pending = RoleInvitation.objects.filter(
        club=club, role=role, username__iexact=name, accepted_at__isnull=True
    )
    with transaction.atomic():
        invitation = pending.first()
        if invitation is not None:
            return invitation
        try:
            with transaction.atomic():
                return RoleInvitation.objects.create(
                    club=club, username=name, role=role, invited_by=invited_by
                )
        except IntegrityError:  # the same invitation made between the check and the write
            found = pending.first()
            if found is None:
                raise
            return found


def _pending_for(*, invitation_id: int, user: User) -> RoleInvitation:
    """The pending invitation ``invitation_id`` addressed to ``user``'s username, locked.

    Anyone else's invitation, an answered one and a missing one are the same 404.
    """
    invitation = (
        RoleInvitation.objects.select_for_update()
        .select_related("club")
        .filter(
            pk=invitation_id,
            username__iexact=user.get_username(),
            accepted_at__isnull=True,
        )
        .first()
    )
    if invitation is None or not user.is_active:
        raise ApplicationError(_("There is no such invitation for you."), status=404)
    return invitation


def role_invitation_accept(*, invitation_id: int, user: User) -> ClubRole:
    """Accept an invitation addressed to ``user``: the role counts from now on."""
    with transaction.atomic():
        invitation = _pending_for(invitation_id=invitation_id, user=user)
        club_role, _created = ClubRole.objects.get_or_create(
            club=invitation.club, user=user, role=invitation.role
        )
        invitation.accepted_at = timezone.now()
        invitation.accepted_by = user
        invitation.save(update_fields=["accepted_at", "accepted_by"])
    return club_role


def role_invitation_decline(*, invitation_id: int, user: User) -> RoleInvitation:
    """Decline an invitation addressed to ``user``: it is deleted, no role is made."""
    with transaction.atomic():
        invitation = _pending_for(invitation_id=invitation_id, user=user)
        invitation.delete()
    return invitation


def role_invitation_cancel(*, club: Club, invitation_id: int) -> RoleInvitation:
    """An admin takes back a pending invitation of ``club`` (an accepted one is a role: revoke
    the role instead)."""
    with transaction.atomic():
        invitation = (
            RoleInvitation.objects.select_for_update()
            .filter(pk=invitation_id, club=club, accepted_at__isnull=True)
            .first()
        )
        if invitation is None:
            raise ApplicationError(_("There is no such pending invitation."), status=404)
        invitation.delete()
    return invitation
