"""Matches, seats, games, hands and hand submissions: data and constraints only.

A hand's result is never stored by editing: every entry is a new ``HandSubmission`` row (a
correction or a director's override is a new version), and the database guarantees one hand
number per game and at most one confirmed submission per hand. A submission's state only moves
forward (pending → confirmed / withdrawn / superseded) and every such move is kept by
django-simple-history, with who made it and from where.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


def _secret() -> str:
    """Kept for migration 0001 (the old per-match link secret, replaced by ``MatchKey``)."""
    return secrets.token_urlsafe(24)


class Confirmation(models.TextChoices):
    """Who confirms a hand entered at a match of an event (the event's ``confirmation``).

    Scoring applies the policy, so it owns its values; ``tournaments.Event.Confirmation`` is
    this class.
    """

    NONE = "none", _("no confirmation")
    OPPONENT = "opponent", _("opponent confirms")
    DIRECTOR = "director", _("director confirms")


class Credential(models.TextChoices):
    """What an act on a hand was made with (``*_via`` columns, ``history_via``): a seat's own
    link, the table link (one shared phone), a signed-in account's session, or an API token.
    A link's key is kept beside it (``*_via_key``); a token is recorded by its kind only."""

    SEAT_LINK = "seat_link", _("seat link")
    TABLE_LINK = "table_link", _("table link")
    SESSION = "session", _("signed in")
    TOKEN = "token", _("API token")


def _via() -> Any:
    """A ``*_via`` column: a :class:`Credential`, blank for an act made before they were kept."""
    return models.CharField(max_length=16, choices=Credential.choices, blank=True)


def _via_key() -> Any:
    """A ``*_via_key`` column: the link's key when the act was made with a link."""
    return models.ForeignKey(
        "scoring.MatchKey", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )


class Match(models.Model):
    """Players at one table playing under one rule set and match format."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("scheduled")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    class Decision(models.TextChoices):
        PLAYED = "played", _("played")
        BYE = "bye", _("bye")
        WALKOVER = "walkover", _("walkover")
        FORFEIT = "forfeit", _("both forfeit")

    event = models.ForeignKey("tournaments.Event", on_delete=models.PROTECT, related_name="matches")
    round = models.ForeignKey(
        "tournaments.Round", null=True, blank=True, on_delete=models.CASCADE, related_name="matches"
    )
    table_number = models.PositiveIntegerField(null=True, blank=True)
    bracket_key = models.CharField(
        max_length=40, blank=True, help_text=_("The bracket match this is (elimination events).")
    )
    # Copied from the event (with the match's own overrides) when the match starts, so a later
    # change to the event never rewrites a game already played.
    rules = models.JSONField()
    match_format = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    decision = models.CharField(max_length=16, choices=Decision.choices, default=Decision.PLAYED)
    # Who won: ``winner`` is the winning player; a partnership is won by a team, so there
    # ``winner`` stays empty and ``winner_team`` holds the team (``Seat.team``) instead.
    winner = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    winner_team = models.PositiveSmallIntegerField(null=True, blank=True)
    summary = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # What the live pages poll (``/api/matches/{id}/version/``): bumped in the transaction of
    # every write that changes what the match page shows (each write takes the match's lock by
    # bumping it), so it only grows, and a rolled-back write leaves it as it was.
    live_seq = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self) -> str:
        return f"Match {self.pk}"


class Seat(models.Model):
    """A player's place at a match: seat order, partnership team, three-player starting role."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    team = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at seat {self.position + 1} of match {self.match_id}"


class Game(models.Model):
    """One game of a match (a Hollywood set is one game whose hands feed three ledgers)."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    first_dealer = models.PositiveSmallIntegerField(default=0)
    # Filled from the engine's GameResult when the game closes (derived, rebuilt on correction).
    # ``winner_position`` is always a seat position; a partnership game is won by a team, kept in
    # ``winner_team`` (``Seat.team``) with ``winner_position`` empty.
    result = models.JSONField(default=dict, blank=True)
    winner_position = models.PositiveSmallIntegerField(null=True, blank=True)
    winner_team = models.PositiveSmallIntegerField(null=True, blank=True)
    margin = models.IntegerField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_unique_number"),
        ]

    def __str__(self) -> str:
        return f"Game {self.number} of match {self.match_id}"


class Hand(models.Model):
    """A numbered hand of a game; what happened in it is in its submissions."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_unique_number"),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} of game {self.game_id}"


class SubmissionHistoryOrigin(models.Model):
    """Extra columns of every history row of a submission: who acted and from where.

    ``history_user`` (from django-simple-history) is the signed-in user, if any; players at a club
    night often act through the match's private link, so the acting player is kept too, with the
    IP address and user agent of the request that made the change.
    """

    history_player = models.ForeignKey(
        "clubs.Player",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_constraint=False,
    )
    history_ip = models.GenericIPAddressField(null=True, blank=True)
    history_user_agent = models.CharField(max_length=300, blank=True)
    # The credential this change was made with (every move: entered, confirmed, disputed,
    # withdrawn, corrected) and, for a link, its key's id (no constraint: history is kept as is).
    history_via = models.CharField(max_length=16, choices=Credential.choices, blank=True)
    history_via_key = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        abstract = True


class HandSubmission(models.Model):
    """One entry of a hand's result: the input as given and the engine's verdict on it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for confirmation")
        CONFIRMED = "confirmed", _("confirmed")
        WITHDRAWN = "withdrawn", _("withdrawn")
        SUPERSEDED = "superseded", _("superseded")
        DISPUTED = "disputed", _("disputed")

    class Entry(models.TextChoices):
        CARDS = "cards", _("by cards")
        COUNTS = "counts", _("by counts")
        DEAD = "dead", _("dead hand")
        RUMMY = "rummy", _("rummy hand")

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="submissions")
    version = models.PositiveIntegerField()
    entry = models.CharField(max_length=16, choices=Entry.choices)
    payload = models.JSONField(help_text=_("The input exactly as entered."))
    result = models.JSONField(help_text=_("The engine's verdict: outcome, winner, points, ..."))
    # Who won the hand and how, copied from ``result`` when the row is written (see
    # ``verdict_columns``), so that standings read plain columns: a dead hand's winner is SQL
    # NULL on every database, where a JSON ``null`` read by key is not (SQLite gives 'null').
    winner_position = models.PositiveSmallIntegerField(null=True, blank=True)
    winner_team = models.PositiveSmallIntegerField(null=True, blank=True)
    outcome = models.CharField(max_length=16, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    submitted_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_by_player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by_player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Which credential made the entry, the confirmation and the dispute (see ``Credential``):
    # one table link on both sides means one phone at the table did both.
    submitted_via = _via()
    submitted_via_key = _via_key()
    confirmed_via = _via()
    confirmed_via_key = _via_key()
    override_reason = models.TextField(blank=True)
    # A dispute: the other side did not agree. The entry stays open (not counted) until its
    # submitter withdraws it or a director settles it (confirms it, or overrides it).
    dispute_reason = models.CharField(max_length=500, blank=True)
    disputed_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    disputed_by_player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    disputed_at = models.DateTimeField(null=True, blank=True)
    disputed_via = _via()
    disputed_via_key = _via_key()
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    user_agent = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords(bases=[SubmissionHistoryOrigin])

    class Meta:
        ordering = ["hand", "version"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "version"], name="submission_unique_version"),
            models.UniqueConstraint(
                fields=["hand"],
                condition=Q(status="confirmed"),
                name="submission_one_confirmed_per_hand",
            ),
            models.UniqueConstraint(
                fields=["hand"],
                condition=Q(status__in=["pending", "disputed"]),
                name="submission_one_open_per_hand",
            ),
        ]

    def __str__(self) -> str:
        return f"Hand {self.hand_id} v{self.version} ({self.status})"

    @staticmethod
    def verdict_columns(result: Mapping[str, Any]) -> dict[str, Any]:
        """The columns a verdict fills: the winning seat, or the winning team of a partnership
        (both partners won it; ``winner_position`` stays empty), and the outcome. A dead hand
        has neither winner."""

        def whole(value: object) -> int | None:
            return value if isinstance(value, int) and not isinstance(value, bool) else None

        team = whole(result.get("winner_team"))
        return {
            "winner_team": team,
            "winner_position": whole(result.get("winner")) if team is None else None,
            "outcome": str(result.get("outcome") or "")[:16],
        }


class MatchKey(models.Model):
    """One private link of a match: a seat's own (``position`` set) or the table link (None).

    The secret itself is not stored: it is derived from ``nonce`` and the server's link key
    (:mod:`scoring.links`), so a copy of the database alone does not reveal any link, while a
    director can still be shown it. ``digest`` (SHA-256 of the secret) finds a key from a link.
    A reissued or revoked key keeps its row (``revoked_at``) so that a revoked link is known.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="keys")
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    nonce = models.CharField(max_length=64)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["match", "position", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "position"],
                condition=Q(revoked_at__isnull=True, position__isnull=False),
                name="matchkey_one_active_per_seat",
            ),
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(revoked_at__isnull=True, position__isnull=True),
                name="matchkey_one_active_table_link",
            ),
        ]

    def __str__(self) -> str:
        where = "table" if self.position is None else f"seat {self.position + 1}"
        return f"Link of match {self.match_id} ({where})"


class IdempotencyRecord(models.Model):
    """The first response to a request sent with an ``Idempotency-Key`` header, for replays."""

    key = models.CharField(max_length=200)
    scope = models.CharField(max_length=200, help_text=_("Who sent it: user id or match link."))
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=300)
    body_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="idempotency_unique_key"),
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.key}"
