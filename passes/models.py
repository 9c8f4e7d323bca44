"""A player's pass for an event: the nonce and digest of one private link per registration.

Made like the seat links (:mod:`scoring.links`): the secret is ``HMAC(link key, "pass:" +
nonce)``, the database keeps only the nonce and ``SHA-256(secret)``. Reissuing revokes the row
and adds a new one; at most one active pass per registration.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from tournaments.models import Registration


class PlayerPass(models.Model):
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="passes")
    nonce = models.CharField(max_length=32, unique=True)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # The first time the holder opened it (the console counts them).
    opened_at = models.DateTimeField(null=True, blank=True)
    # When the holder withdrew from the event with it (the console says so).
    withdrew_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["registration", "-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["registration"],
                condition=Q(revoked_at__isnull=True),
                name="pass_one_active_per_registration",
            ),
        ]

    def __str__(self) -> str:
        return f"pass {self.pk} of registration {self.registration_id}"
