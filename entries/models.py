"""Online entry: one entrant's request to play in an event, and what became of it.

The table is ``tournaments_entry`` (``tournaments`` 0010 made it; ``entries`` 0001 took the
model over keeping every row). An entry points at the event and, once accepted, at its
registration; tournaments knows nothing of entries.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from tournaments.models import Event, Registration


class Entry(models.Model):
    """One online entry for an event (``/events/<id>/enter/``) and what became of it.

    An accepted entry has its ``registration``; a waiting one its ``waiting_position`` (1 moves up
    first); a merged duplicate points at the entry it was merged into. The rules are
    ``entries.services``'.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("awaiting approval")
        ACCEPTED = "accepted", _("accepted")
        WAITING = "waiting", _("on the waiting list")
        REFUSED = "refused", _("refused")
        WITHDRAWN = "withdrawn", _("withdrawn")

    ACTIVE = (Status.PENDING, Status.ACCEPTED, Status.WAITING)

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    name = models.CharField(_("name"), max_length=120)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    email = models.EmailField(_("email"), blank=True)
    note = models.CharField(_("note"), max_length=500, blank=True)
    # The language the entrant entered in: their mails are written in it.
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    waiting_position = models.PositiveIntegerField(null=True, blank=True)
    registration = models.OneToOneField(
        Registration, null=True, blank=True, on_delete=models.SET_NULL, related_name="entry"
    )
    # The entrant's private link (``/p/#<secret>``, :mod:`entries.links`): the nonce and the
    # secret's digest only. Until the entry has a registration the link shows where it stands;
    # then it is the pass (issued with this nonce), and only the pass opens.
    nonce = models.CharField(max_length=32, blank=True, default="")
    digest = models.CharField(max_length=64, blank=True, default="", db_index=True)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="merged"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "tournaments_entry"  # made by ``tournaments`` 0010, kept with its rows
        ordering = ["event", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(status__in=["pending", "accepted", "waiting"]),
                name="entry_one_active_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} for {self.event_id}"
