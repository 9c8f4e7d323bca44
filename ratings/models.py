"""Club ratings and their history: data and constraints only.

The tables keep the names they had in ``tournaments`` (``tournaments_rating``,
``tournaments_ratinghistory``); the writes are in ``ratings.services``, the reads in
``ratings.selectors``, the mathematics in ``ratings.algorithms`` (pure).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player


class Rating(models.Model):
    """A player's current club rating of one kind."""

    class Kind(models.TextChoices):
        GLICKO2 = "glicko2", _("Glicko-2 (two players)")
        OPENSKILL = "openskill", _("OpenSkill (three to six players, teams)")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField(null=True, blank=True)
    games = models.PositiveIntegerField(default=0)
    period_start = models.DateField(null=True, blank=True)
    # Glicko-2 rates a whole period from everybody's rating at its start: ``rating`` is the
    # provisional value after the period's games so far, ``base_*`` the value it started from.
    base_rating = models.FloatField(null=True, blank=True)
    base_deviation = models.FloatField(null=True, blank=True)
    base_volatility = models.FloatField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "tournaments_rating"
        constraints = [
            models.UniqueConstraint(fields=["club", "player", "kind"], name="rating_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.kind} {self.rating:.0f}"


class RatingHistory(models.Model):
    """Every change of a rating, with the match or period that caused it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    kind = models.CharField(max_length=16, choices=Rating.Kind.choices)
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField(null=True, blank=True)
    match = models.ForeignKey(
        "scoring.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    period_start = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tournaments_ratinghistory"
        ordering = ["player", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.player_id} {self.kind} {self.rating:.0f} at {self.created_at}"
