"""The demo's passes (``manage.py demo``): every player registered for a demo event still to be
played holds a pass, and the report prints one of them to open, so a new user sees the pass at
once (docs/players.md).

Registered with :func:`tournaments.demo.demo_loader_register` at start-up, after the entries'
loader; idempotent: a player who holds a pass keeps it (the same link on every run).
"""

from __future__ import annotations

from django.urls import reverse

from entries.demo import demo_open_event
from passes.links import pass_url
from passes.services import pass_ensure, site_absolute
from tournaments.demo import CLUB_SLUG
from tournaments.models import Event, Registration


def demo_passes_load() -> list[str]:
    """Issue the passes missing in the demo club's open events; the lines for the report."""
    registrations = (
        Registration.objects.filter(
            event__club__slug=CLUB_SLUG,
            event__status__in=(Event.Status.REGISTRATION, Event.Status.RUNNING),
        )
        .exclude(status=Registration.Status.DROPPED)
        .select_related("event", "player")
        .order_by("event_id", "pk")
    )
    passes = [pass_ensure(registration=r) for r in registrations]
    lines = [f"Passes: {len(passes)} players of the demo's open and running events hold one"]
    event = demo_open_event()
    shown = next(
        (p for p in passes if event is not None and p.registration.event_id == event.pk), None
    )
    if shown is not None:
        lines.append(
            f"Open {shown.registration.player.name}'s pass for {shown.registration.event.name}: "
            f"{pass_url(absolute=site_absolute, player_pass=shown)} (a director finds every "
            f"pass at {reverse('event-passes', args=[shown.registration.event_id])})"
        )
    return lines
