"""Reads for online entry: an event's entries as its directors list them, and the figures the
entry page and the console show."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from entries.models import Entry
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


def entry_mailable(*, registration: Registration) -> Entry | None:
    """The entry that made ``registration`` when its entrant gave an address (their mails go
    there, in their ``language``), else None."""
    return Entry.objects.filter(registration=registration).exclude(email="").first()
