"""Operational records: which Celery workers are alive, the work the workers still owe (the
outbox), and the API tokens."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# A heartbeat row whose hostname starts with this is Celery beat's, not a worker's: beat records
# every tick under ``beat@<host>`` (core.beat), and /healthz reports it apart from the workers.
BEAT_HOSTNAME_PREFIX = "beat@"


class WorkerHeartbeat(models.Model):
    """The last time a worker proved it consumes tasks from the broker (or beat that it ticks).

    Written every few seconds by a thread in each worker's main process (``core.signals``), and
    by the ``core.tasks.heartbeat`` task beat sends. The database is the record, so /healthz works
    the same with any broker and any number of workers. Beat's own row (``BEAT_HOSTNAME_PREFIX``)
    shares the table: one "last seen" per process, with no migration for a second kind.
    """

    hostname = models.CharField(max_length=255, unique=True)
    last_seen = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.hostname} @ {self.last_seen:%Y-%m-%d %H:%M:%S}"


class ApiToken(models.Model):
    """An API token, kept only as the SHA-256 digest of its key.

    The key (40 hex characters, as DRF's tokens were, so clients need no change) is shown once,
    when it is made; a copy of the database or of a backup holds no key that signs anyone in.
    ``prefix`` (its first characters) lets a person tell their tokens apart; it is no secret.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    name = models.CharField(max_length=100, blank=True)
    created = models.DateTimeField(default=timezone.now)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user_id})"


class WorkDue(models.Model):
    """A consequence of a stored result that a task still has to carry out ("work due").

    Written in the same transaction as the result, so a result is never stored without it;
    deleted by the task once the work is done. The message sent after commit is only a prompt:
    if the broker was down or the message was lost, the sweep (beat, and every worker's start-up)
    sends it again (``core.work``). ``task`` is the name of the Celery task that does the work,
    sent by name; ``key`` is the id it takes as its one argument (a match, a round).

    The table is the one ``tournaments`` made (``core`` 0004 moved the model here).
    """

    # The column keeps its old name: it held a kind ("ratings_match") that named the task.
    task = models.CharField(max_length=100, db_column="kind")
    key = models.PositiveBigIntegerField(help_text=_("The id the task takes (match, round)."))
    created_at = models.DateTimeField(auto_now_add=True)
    # When the last prompt went to the broker; empty when it could not be sent.
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)

    class Meta:
        db_table = "tournaments_workdue"
        ordering = ["id"]
        indexes = [models.Index(fields=["task", "key"], name="workdue_kind_key")]

    def __str__(self) -> str:
        return f"{self.task} {self.key}"
