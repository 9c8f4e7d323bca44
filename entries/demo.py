"""The demo's open event (``manage.py demo``): entries open with a cap, the director's approval,
four entrants registered, one waiting for a place and one awaiting approval, all through the
entry services, so a new user sees online entry and the waiting list at once.

Registered with :func:`tournaments.demo.demo_loader_register` at start-up; idempotent: an event
that has entries already is kept as it is.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.core.cache import cache

from clubs.models import Club
from engine.rules import find_rules
from entries.models import Entry
from entries.services import entry_approve, entry_cache_key, entry_submit, event_entries_configure
from tournaments.demo import CLUB_SLUG, DEMO_IP
from tournaments.models import Event

OPEN_EVENT = "Demo Open (entries open)"
CAP = 4
REGISTERED = ("Ana Lee", "Ben Cho", "Cara Diaz")
AWAITING = "Fay Kim"
LAST_PLACE = "Dev Rao"
WAITING = "Eli Park"


def demo_open_event() -> Event | None:
    """The demo's open event, or None before the demo is loaded."""
    return Event.objects.filter(club__slug=CLUB_SLUG, name=OPEN_EVENT).first()


def demo_entries_load() -> list[str]:
    """Create (or keep) the open event and its entries; a line for the report."""
    club = Club.objects.get(slug=CLUB_SLUG)
    event = demo_open_event()
    if event is None:
        event = Event.objects.create(
            club=club,
            name=OPEN_EVENT,
            kind=Event.Kind.SWISS,
            status=Event.Status.REGISTRATION,
            starts_on=date.today() + timedelta(days=7),
            rounds_planned=3,
            rules=find_rules("standard").to_dict(),
            match_format={"kind": "single_game"},
            confirmation=Event.Confirmation.OPPONENT,
        )
    if not Entry.objects.filter(event=event).exists():
        event_entries_configure(
            event=event, entries_open=True, cap=CAP, approval=True, close_at=None
        )
        for name in REGISTERED:
            entry_approve(entry=entry_submit(event=event, name=name, ip=DEMO_IP))
        entry_submit(event=event, name=AWAITING, ip=DEMO_IP, note="Coming with a friend")
        entry_approve(entry=entry_submit(event=event, name=LAST_PLACE, ip=DEMO_IP))
        entry_submit(event=event, name=WAITING, ip=DEMO_IP, waiting_list=True, language="ko")
        cache.delete(entry_cache_key(DEMO_IP))  # the demo's own entries are not an address's
    counts = {
        status: Entry.objects.filter(event=event, status=status).count()
        for status in (Entry.Status.ACCEPTED, Entry.Status.WAITING, Entry.Status.PENDING)
    }
    return [
        f"Open event: {event.name} (/events/{event.pk}/enter/): entries open, cap {CAP}, "
        f"{counts[Entry.Status.ACCEPTED]} registered, {counts[Entry.Status.WAITING]} waiting, "
        f"{counts[Entry.Status.PENDING]} awaiting approval (/events/{event.pk}/entries/)"
    ]
