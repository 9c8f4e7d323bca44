"""Reads for online entry: an event's entries as its directors list them, and the figures the
entry page and the console show."""

from __future__ import annotations

import hmac
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from entries.links import entry_secret
from entries.models import Entry
from scoring.links import digest_of, looks_like_secret
from tournaments.models import Event, Registration
from tournaments.selectors.options import event_options


def event_places_taken(*, event: Event) -> int:
    """Players holding a place: registrations not dropped."""
    return event.registrations.exclude(status=Registration.Status.DROPPED).count()


def event_entry_room(*, event: Event) -> bool:
    """True while the event has a free place (always, without a cap)."""
    cap = event_options(event=event).entries_cap
    return cap is None or event_places_taken(event=event) < cap


def event_started(*, event: Event) -> bool:
    """Finished, or a round paired: the waiting list no longer moves and entries are closed."""
    return event.status == Event.Status.FINISHED or event.rounds.exists()


def event_entries_problem(*, event: Event) -> str | None:
    """Why ``event`` takes no entries now (a message for the entrant), or None."""
    if not event_options(event=event).entries_open:
        return _("This event does not take entries online.")
    if event_started(event=event):
        return _("Entries for this event are closed: it has started.")
    if event.entries_close_at is not None and timezone.now() >= event.entries_close_at:
        return _("Entries for this event are closed.")
    return None


def entry_list(*, event: Event) -> QuerySet[Entry]:
    """Every entry of ``event``, oldest first (the player and registration joined)."""
    return (
        Entry.objects.filter(event=event)
        .select_related("player", "registration", "merged_into")
        .order_by("created_at", "id")
    )


def entry_summary(*, event: Event) -> dict[str, Any]:
    """What the entry page and the director's list say: the cap, the places taken and left,
    how many wait and await approval, and the closing time."""
    options = event_options(event=event)
    taken = event.registrations.exclude(status=Registration.Status.DROPPED).count()
    counts = dict.fromkeys(Entry.Status.values, 0)
    for status in Entry.objects.filter(event=event).values_list("status", flat=True):
        counts[status] += 1
    cap = options.entries_cap
    return {
        "open": options.entries_open,
        "approval": options.entries_approval,
        "cap": cap,
        "taken": taken,
        "left": None if cap is None else max(cap - taken, 0),
        "waiting": counts[Entry.Status.WAITING],
        "pending": counts[Entry.Status.PENDING],
        "close_at": event.entries_close_at,
    }


def _cut_from(event_id: int) -> int | None:
    return Event.objects.filter(pk=event_id).values_list("playoff_of_id", flat=True).first()


def entry_mailable(*, registration: Registration) -> Entry | None:
    """The entry that made ``registration`` when its entrant gave an address (their mails go
    there, in their ``language``), else None. A playoff's registration has no entry of its
    own: its player's entry in the event the playoff was cut from (and so on up) stands."""
    entry = Entry.objects.filter(registration=registration).exclude(email="").first()
    seen = {registration.event_id}
    event_id = _cut_from(registration.event_id) if entry is None else None
    while entry is None and event_id is not None and event_id not in seen:
        seen.add(event_id)
        entry = (
            Entry.objects.filter(event_id=event_id, registration__player_id=registration.player_id)
            .exclude(email="")
            .first()
        )
        event_id = _cut_from(event_id)
    return entry


def event_mailable(*, event_id: int) -> bool:
    """Whether a registered entrant of the event (or of the event its playoff was cut from,
    and so on up) gave an address: a cheap test before mailing a round."""
    seen: set[int] = set()
    current: int | None = event_id
    while current is not None and current not in seen:
        seen.add(current)
        current = _cut_from(current)
    return (
        Entry.objects.filter(event_id__in=seen, registration__isnull=False)
        .exclude(email="")
        .exists()
    )


# -- the entrant's own link ------------------------------------------------------------------


def entry_find(*, secret: str) -> Entry | None:
    """The entry whose link is ``secret`` while it has no registration (awaiting approval,
    waiting, withdrawn or refused), else None: once registered, only its pass opens."""
    if not looks_like_secret(secret):
        return None
    found = (
        Entry.objects.select_related("event")
        .filter(digest=digest_of(secret), registration__isnull=True)
        .exclude(nonce="")
        .first()
    )
    if found is None or not hmac.compare_digest(entry_secret(found), secret):
        return None
    return found


def entry_waiting_rank(*, entry: Entry) -> int | None:
    """Where a waiting entry stands on its event's waiting list (1 moves up first), or None."""
    if entry.status != Entry.Status.WAITING or entry.waiting_position is None:
        return None
    ahead = Entry.objects.filter(event_id=entry.event_id, status=Entry.Status.WAITING).filter(
        Q(waiting_position__lt=entry.waiting_position)
        | Q(waiting_position=entry.waiting_position, pk__lt=entry.pk)
    )
    return ahead.count() + 1


def entry_pass_nonce(*, registration: Registration) -> str:
    """The nonce of the link the entrant of ``registration`` was given at entry ("" if none):
    their pass is issued with it, so that link opens the pass. The entry is the player's
    entry in play for the event (the one being accepted has no registration yet)."""
    entry = (
        Entry.objects.filter(
            event_id=registration.event_id,
            player_id=registration.player_id,
            status__in=Entry.ACTIVE,
        )
        .filter(Q(registration__isnull=True) | Q(registration=registration))
        .exclude(nonce="")
        .first()
    )
    return entry.nonce if entry is not None else ""
