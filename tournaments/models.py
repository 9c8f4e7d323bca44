"""Events, registrations, rounds and standings: data and constraints only.

Business rules live in ``tournaments.services`` (writes) and ``tournaments.selectors`` (reads); the
pairing, bracket and tie-break mathematics in ``competition`` (pure). Ratings are
the ``ratings`` app's.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from scoring.models import Confirmation
from tournaments.pairing_messages import pairing_error_text


def _token() -> str:
    return secrets.token_urlsafe(16)


class Event(models.Model):
    """One competition: a club night, a league, or a tournament of one format."""

    class Kind(models.TextChoices):
        CLUB_NIGHT = "club_night", _("club night")
        LEAGUE = "league", _("league")
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("round robin")
        SINGLE_ELIMINATION = "single_elim", _("single elimination")
        DOUBLE_ELIMINATION = "double_elim", _("double elimination")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    # Who confirms a hand: scoring applies the policy and owns its values.
    Confirmation = Confirmation

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="events")
    league = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="league_events",
        limit_choices_to={"kind": "league"},
    )
    # The event a playoff was cut from (``event_playoff_create``): its players' passes point on.
    playoff_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="playoffs"
    )
    name = models.CharField(_("name"), max_length=160)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION)
    starts_on = models.DateField(_("date"), null=True, blank=True)
    # The rule set as ``engine.RuleSet.to_dict()`` and the match format (see scoring.formats).
    rules = models.JSONField(_("rules"))
    match_format = models.JSONField(_("match format"), default=dict)
    confirmation = models.CharField(
        max_length=16, choices=Confirmation.choices, default=Confirmation.OPPONENT
    )
    # Tournament settings (ignored where they do not apply to the kind). Each option is declared
    # once, in ``tournaments.options``, which checks them before a service stores them.
    rounds_planned = models.PositiveIntegerField(null=True, blank=True)
    options = models.JSONField(
        default=dict,
        blank=True,
        help_text=_("Options this event sets, by name; one left out has its default."),
    )
    tiebreaks = models.JSONField(default=list, blank=True)
    lots_seed = models.BigIntegerField(default=0)
    # The draw fixed when the first round is paired, so later rounds and the bracket view never
    # depend on seeds edited afterwards: ``{"entrants": [...]}`` (elimination, player ids in seed
    # order) or ``{"groups": [[...], ...], "cycles": n}`` (round robin, Berger-number order).
    draw = models.JSONField(default=dict, blank=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="directed_events"
    )
    # Standings bookkeeping: every stored or confirmed result bumps ``results_seq`` in its own
    # transaction; the standings task records which sequence the stored standings reflect.
    results_seq = models.PositiveBigIntegerField(default=0)
    standings_seq = models.PositiveBigIntegerField(default=0)
    standings_updated_at = models.DateTimeField(null=True, blank=True)
    # Coalescing: set when a rebuild is sent to the broker, cleared when a worker starts it, so
    # results arriving meanwhile send nothing more (the rebuild will count them) and results
    # arriving while it runs send exactly one more. The sweep re-sends a rebuild whose message
    # has been outstanding too long (lost with a broker or a killed worker).
    standings_queued_at = models.DateTimeField(null=True, blank=True)
    # A rebuild that failed: why, and at which results sequence. Shown instead of "updating";
    # the sweep leaves it alone until newer results (or a director's retry) arrive.
    standings_error = models.TextField(blank=True)
    standings_error_seq = models.PositiveBigIntegerField(null=True, blank=True)
    ratings_seq = models.PositiveBigIntegerField(default=0)
    # Online entry (``entries``, which owns the entries): when entries close; the other entry
    # settings (open, cap, approval) are options (``tournaments.options``).
    entries_close_at = models.DateTimeField(_("entries close"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(standings_seq__lte=models.F("results_seq")),
                name="event_standings_not_ahead_of_results",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def standings_stale(self) -> bool:
        return self.standings_seq < self.results_seq


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("registered")
        CHECKED_IN = "checked_in", _("checked in")
        DROPPED = "dropped", _("dropped")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTERED)
    seed = models.PositiveIntegerField(null=True, blank=True)
    joined_round = models.PositiveIntegerField(
        default=1, help_text=_("A late entry joins at a later round.")
    )
    dropped_after_round = models.PositiveIntegerField(null=True, blank=True)
    requested_byes = models.JSONField(default=list, blank=True)
    checkin_token = models.CharField(max_length=40, default=_token, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seed", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="registration_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"


class ForbiddenPairing(models.Model):
    """Two players who must not (hard) or should not (soft) be paired in an event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="forbidden_pairings")
    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    hard = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player_a", "player_b"], name="forbidden_pairing_unique"
            ),
            models.CheckConstraint(
                condition=~Q(player_a=models.F("player_b")), name="forbidden_pairing_two_players"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_a_id} / {self.player_b_id} in {self.event_id}"


# The kinds played as a bracket (a match's winner meets another's), and the kinds played in rounds.
ELIMINATION_KINDS = (Event.Kind.SINGLE_ELIMINATION, Event.Kind.DOUBLE_ELIMINATION)
ROUND_KINDS = (Event.Kind.SWISS, Event.Kind.ROUND_ROBIN, *ELIMINATION_KINDS)


class Round(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("pairing queued")
        PAIRED = "paired", _("paired")
        FAILED = "failed", _("pairing failed")
        FINISHED = "finished", _("finished")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    # Why pairing failed, as data (``PairingError.code`` and its params, e.g. ``{"player": 7}``),
    # so that each reader sees it in their own language: read it with ``error_message()``.
    # ``error`` is the same reason as text in the site's default language (for old rows and
    # reasons without a code).
    error_code = models.CharField(max_length=32, blank=True)
    error_params = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    # Who floated this round and which way (Swiss only): ``{"<player id>": "down" | "up"}``. A
    # player met a lower score (or had the pairing bye: "down") or a higher one ("up"); the next
    # round's pairing avoids floating them the same way again.
    floats = models.JSONField(default=dict, blank=True)
    # The round's clock (``competition.clock``; ``tournaments.services.clock``): its length in
    # seconds (None: no clock), when the director started it and paused it, the seconds paused
    # before, and each table's extra seconds (``{"<match id>": seconds}``). ``clock_seq`` moves
    # with every change of the clock, so the event's live version does.
    clock_length = models.PositiveIntegerField(null=True, blank=True)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_paused_at = models.DateTimeField(null=True, blank=True)
    clock_paused_total = models.PositiveIntegerField(default=0)
    clock_extensions = models.JSONField(default=dict, blank=True)
    clock_seq = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.event} round {self.number}"

    def error_message(self) -> str:
        """Why pairing failed, in the active language (rendered now, not when it failed)."""
        if not self.error_code:
            return self.error
        params = self.error_params or {}
        pid = params.get("player")
        player = Player.objects.filter(pk=pid).first() if isinstance(pid, int) else None
        return pairing_error_text(
            number=self.number,
            code=self.error_code,
            params=params,
            player_name=player.name if player else None,
        )


class EventLog(models.Model):
    """What a director did to an event that the record should keep: who, when, why.

    Today one kind: a round paired while the previous one still had tables without a final
    result ("forced"), with the director's reason. Rows are only ever added.
    """

    class Kind(models.TextChoices):
        ROUND_FORCED = "round_forced", _("round paired before the last one was complete")
        ENTRY_PROMOTED = "entry_promoted", _("an entrant moved up from the waiting list")
        ROUND_CLOCK = "round_clock", _("the round's clock")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="log")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    round_number = models.PositiveIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=500)
    details = models.JSONField(default=dict, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} in {self.event_id}"


class Standing(models.Model):
    """One row of an event's standings as of ``seq``; rebuilt whole, never incremented."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField()
    values = models.JSONField(default=dict)
    seq = models.PositiveBigIntegerField()

    class Meta:
        ordering = ["event", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="standing_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player_id} in {self.event_id}"
