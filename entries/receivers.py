"""Tournaments' signals, answered: a dropped registration withdraws its entry and moves the
waiting list up; the console and the event page show the entries' figures."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from entries.selectors import entry_summary, event_entries_problem
from entries.services import entries_promote, entry_registration_dropped
from tournaments.models import Registration
from tournaments.signals import event_page_extras, registration_dropped


@receiver(registration_dropped, sender=Registration)
def entries_on_drop(sender: Any, registration: Registration, **kwargs: Any) -> None:
    """Inside the drop's transaction: before the first round the place is free, and the first
    waiting entrant takes it."""
    entry_registration_dropped(registration=registration)
    entries_promote(event=registration.event)


@receiver(event_page_extras)
def entries_page_extras(sender: Any, event: Any, page: str, **kwargs: Any) -> dict[str, Any]:
    if page == "console":
        return {"entries": entry_summary(event=event)}
    if page == "event-detail":
        return {"entries_open": event_entries_problem(event=event) is None}
    return {}
