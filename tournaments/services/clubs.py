"""Writes for clubs, club roles and players."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.models import Club, ClubRole, Player, RoleInvitation
from core.errors import ApplicationError
from core.names import name_clean

RESERVED_CLUB_SLUGS = frozenset({"new"})
"""Addresses the site's own pages use (``/clubs/new/``), which no club may take."""


def club_fields_check(
    *, name: str, slug: str, rating_period_days: int, club: Club | None = None
) -> tuple[str, str]:
    """The cleaned name and address (slug) of a club being created, or ``club`` being edited.

    Raises the message a director can act on for an empty name, a rating period under a day, an
    address with no letter or digit, a reserved address, or an address another club has. Call it
    inside the transaction that writes the club.
    """
    name = name_clean(name, empty_message=_("A club needs a name."))
    if rating_period_days < 1:
        raise ApplicationError(
            _("The rating period is at least one day."), field="rating_period_days"
        )
    slug = slugify(slug or name)[:80]
    if not slug:
        raise ApplicationError(
            _("A club's address needs at least one letter or digit."), field="slug"
        )
    if slug in RESERVED_CLUB_SLUGS:
        raise ApplicationError(_("This address is reserved; choose another."), field="slug")
    taken = Club.objects.filter(slug=slug)
    if club is not None:
        taken = taken.exclude(pk=club.pk)
    if taken.exists():
        raise ApplicationError(
            _("The address %(slug)s is taken; choose another.") % {"slug": slug},
            status=409,
            field="slug",
        )
    return name, slug


def club_create(
    *,
    name: str,
    user: User | None,
    slug: str = "",
    description: str = "",
    rating_period_days: int = 30,
) -> Club:
    """Create a club; whoever creates it becomes its first admin."""
    with transaction.atomic():
        name, slug = club_fields_check(name=name, slug=slug, rating_period_days=rating_period_days)
        club = Club.objects.create(
            name=name, slug=slug, description=description, rating_period_days=rating_period_days
        )
        if user is not None:
            ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.ADMIN)
    return club


def club_role_grant(*, club: Club, user: User, role: str) -> ClubRole:
    """Make ``user`` an admin or a director of ``club`` (granting twice changes nothing)."""
    if role not in ClubRole.Role.values:
        raise ApplicationError(
            _("A role is admin or director, not %(role)s.") % {"role": role}, field="role"
        )
    club_role, _created = ClubRole.objects.get_or_create(club=club, user=user, role=role)
    return club_role


def player_create(
    *,
    club: Club,
    name: str,
    user: User | None = None,
    is_guest: bool = False,
    family: str = "",
) -> Player:
    """Add a player to a club's list; no account is needed (guests are common)."""
    name = name_clean(name, empty_message=_("A player needs a name."))
    try:
        with transaction.atomic():
            return Player.objects.create(
                club=club, name=name, user=user, is_guest=is_guest, family=family.strip()
            )
    except IntegrityError as exc:
        raise ApplicationError(
            _("%(club)s already has a player called %(name)s.") % {"club": club.name, "name": name},
            status=409,
            field="name",
        ) from exc


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
    if User.objects.filter(username__iexact=username).exists():
        raise ApplicationError(taken, status=409, field="username")
    try:
        password_validation.validate_password(password, User(username=username, email=email))
    except ValidationError as exc:
        raise ApplicationError(" ".join(exc.messages), field="password") from exc
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError as exc:  # taken between the check and the write
        raise ApplicationError(taken, status=409, field="username") from exc
