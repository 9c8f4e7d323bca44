"""Accounts of the people who run clubs: who may sign up, and signing up."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.models import RoleInvitation
from core.errors import ApplicationError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

SIGNUP_MODES = ("open", "invitation", "closed")


def signup_mode() -> str:
    """Who may make an account here (``KNOCK_SIGNUP``): anyone (``open``), only a username a
    club admin has invited and who has not answered yet (``invitation``), or nobody
    (``closed``: accounts come from ``manage.py createsuperuser`` or the admin)."""
    mode = str(getattr(settings, "KNOCK_SIGNUP", "open"))
    return mode if mode in SIGNUP_MODES else "closed"


def user_signup(*, username: str, password: str, email: str = "") -> User:
    """Create an account (a director starting out); it holds no club role until it starts a club.

    The username is refused if taken (ignoring case, so ``Mina`` and ``mina`` are not two people)
    or not a valid username; the password must pass the site's password validators. The site's
    sign-up mode (:func:`signup_mode`) may refuse it first (403).
    """
    mode = signup_mode()
    if mode == "closed":
        raise ApplicationError(
            _("This site does not take new accounts; ask its administrator for one."), status=403
        )
    username = username.strip()
    email = email.strip()
    if not username:
        raise ApplicationError(_("Choose a username."), field="username")
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError as exc:
        raise ApplicationError(" ".join(exc.messages), field="username") from exc
    if (
        mode == "invitation"
        and not RoleInvitation.objects.filter(
            username__iexact=username, accepted_at__isnull=True
        ).exists()
    ):
        raise ApplicationError(
            _(
                "Accounts here are by invitation: use the username a club admin invited, or ask "
                "one to invite you first."
            ),
            status=403,
            field="username",
        )
    taken = _("The username %(username)s is taken; choose another.") % {"username": username}
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise ApplicationError(taken, status=409, field="username")
    try:
        password_validation.validate_password(
            password, get_user_model()(username=username, email=email)
        )
    except ValidationError as exc:
        raise ApplicationError(" ".join(exc.messages), field="password") from exc
    try:
        with transaction.atomic():
            return get_user_model().objects.create_user(
                username=username, email=email, password=password
            )
    except IntegrityError as exc:  # taken between the check and the write
        raise ApplicationError(taken, status=409, field="username") from exc
