"""The projector view: an event for a wall screen. Large type, no controls; it turns between the
current round's pairings, the standings and the bracket by itself, and fetches its slides again
every 3 seconds (a plain periodic fetch of the fragment, ``/events/<id>/projector/slides/``),
so results appear without anyone touching it. Public: it shows what the event page shows.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from tournaments.models import Event
from tournaments.selectors import event_rounds, round_matches
from tournaments.selectors.clock import round_clock_state
from tournaments.views.common import event_or_404
from tournaments.views.events import (
    bracket_context,
    pairing_rows,
    round_scores,
    standings_context,
)

STANDINGS_ON_SCREEN = 16
"""Rows of standings one slide shows: what reads from the back of a room."""


def _slides(event: Event) -> dict[str, Any]:
    rounds = list(event_rounds(event=event))
    current = rounds[-1] if rounds else None
    pairings = (
        pairing_rows(round_matches(rnd=current), round_scores(rnd=current))
        if current is not None
        else []
    )
    standings = standings_context(event)
    return {
        **standings,
        "top_rows": standings["rows"][:STANDINGS_ON_SCREEN],
        "current_round": current,
        "pairings": pairings,
        "bracket": bracket_context(event),
        "clock": round_clock_state(rnd=current) if current is not None else None,
        "now": timezone.localtime(),
    }


@require_GET
def projector(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole screen: the slides and the script that turns and refreshes them."""
    event = event_or_404(pk)
    context = {**_slides(event), "turn": _seconds(request, "turn", 12), "every": 3}
    return render(request, "tournaments/projector.html", context)


def _seconds(request: HttpRequest, name: str, default: int) -> int:
    """``?turn=20``: how long each slide stays (4 to 120 seconds; anything else: the default)."""
    value = request.GET.get(name) or ""
    return int(value) if value.isascii() and value.isdigit() and 4 <= int(value) <= 120 else default


@require_GET
def projector_slides(request: HttpRequest, pk: int) -> HttpResponse:
    """The slides alone, fetched again every few seconds by the projector page."""
    event = event_or_404(pk)
    return render(request, "tournaments/_projector_slides.html", _slides(event))
