"""Clubs, players and club roles: data and constraints only.

A club's rows are the ground floor of the apps: scoring seats players, tournaments runs a club's
events. Who may do what in a club lives in ``clubs.permissions``. The tables keep the names they
had in ``tournaments`` (``db_table``), moved without copying a row (migration 0001).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(unique=True, max_length=80)
    description = models.TextField(_("description"), blank=True)
    rating_period_days = models.PositiveIntegerField(
        _("rating period (days)"), default=30, help_text=_("Glicko-2 rating period.")
    )
    gem_deck_map = models.JSONField(
        _("Gem Rummy deck map"),
        default=dict,
        blank=True,
        help_text=_(
            "Which gem each card carries (Gem Rummy, RULES.md section 8), in the engine's own "
            'mapping form: {"AS": "ruby", ..., "KS": ["ruby", "emerald"]} (card notation to one '
            "gem, a king to two). Empty when the club has none. Read it with "
            "engine.gem.DeckMap.from_mapping(club.gem_deck_map); it is checked that way when saved."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tournaments_club"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ClubRole(models.Model):
    """A signed-in user's standing in a club: admins run the club, directors run its events."""

    class Role(models.TextChoices):
        ADMIN = "admin", _("admin")
        DIRECTOR = "director", _("director")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    role = models.CharField(max_length=16, choices=Role.choices)

    class Meta:
        db_table = "tournaments_clubrole"
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "role"], name="clubrole_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.role} of {self.club}"


class RoleInvitation(models.Model):
    """A club role offered to whoever holds ``username``; it counts once they accept.

    Keyed by the username as the admin typed it, never by an account: a grant stores the same
    row whether or not such an account exists (so it tells nobody who has one), and an account
    made later under that name (in any case) sees it. Accepting makes the ``ClubRole`` and
    stamps ``accepted_at``; declining or an admin's cancelling deletes the row.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(_("username"), max_length=150)
    role = models.CharField(max_length=16, choices=ClubRole.Role.choices)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                "club",
                "role",
                condition=models.Q(accepted_at__isnull=True),
                name="roleinvitation_one_pending",
            ),
            models.CheckConstraint(
                condition=models.Q(role__in=["admin", "director"]), name="roleinvitation_role"
            ),
        ]
        indexes = [models.Index(Lower("username"), name="roleinvitation_username")]

    def __str__(self) -> str:
        return f"{self.username} invited as {self.role} of {self.club}"


class Player(models.Model):
    """Someone who plays. A player needs no account: ``user`` is optional, guests are common."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(_("name"), max_length=120)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    is_guest = models.BooleanField(_("guest"), default=False)
    family = models.CharField(
        _("family"),
        max_length=60,
        blank=True,
        help_text=_("Players of one family may be kept apart."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tournaments_player"
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_unique_name_in_club"),
        ]

    def __str__(self) -> str:
        return self.name
