"""Writes for clubs, club roles and players."""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.models import Club, ClubRole, Player
from core.errors import ApplicationError

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
    name = name.strip()
    if not name:
        raise ApplicationError(_("A club needs a name."), field="name")
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


def club_role_grant_named(*, club: Club, username: str, role: str) -> ClubRole:
    """Grant ``role`` to the active account named ``username``.

    An unknown name and a name that cannot hold a role (an inactive account) get the same
    answer, so the grant form tells nobody whether an account exists.
    """
    name = (username or "").strip()
    user = User.objects.filter(username=name, is_active=True).first() if name else None
    if user is None:
        raise ApplicationError(
            _(
                "No account named %(name)s can be given a role; check the spelling, or ask "
                "them to sign up first."
            )
            % {"name": name},
            field="username",
        )
    return club_role_grant(club=club, user=user, role=role)


def player_create(
    *,
    club: Club,
    name: str,
    user: User | None = None,
    is_guest: bool = False,
    family: str = "",
) -> Player:
    """Add a player to a club's list; no account is needed (guests are common)."""
    name = name.strip()
    if not name:
        raise ApplicationError(_("A player needs a name."), field="name")
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


def user_signup(*, username: str, password: str, email: str = "") -> User:
    """Create an account (a director starting out); it holds no club role until it starts a club.

    The username is refused if taken (ignoring case, so ``Mina`` and ``mina`` are not two people)
    or not a valid username; the password must pass the site's password validators.
    """
    username = username.strip()
    email = email.strip()
    if not username:
        raise ApplicationError(_("Choose a username."), field="username")
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError as exc:
        raise ApplicationError(" ".join(exc.messages), field="username") from exc
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
