"""The director's console of an event: the round's tables by state, pairing the next round (or
forcing it with a reason), every earlier round one tap away. Reads ``event_console``; writes
go through ``event_pair`` (``tournaments.views.event_director``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core.errors import ApplicationError
from scoring.models import Match
from scoring.permissions import Actor
from scoring.selectors import matches_live_scores
from scoring.services import match_close_as_it_stands
from tournaments.models import Round
from tournaments.options import AT_TIME_CHOICES
from tournaments.permissions import user_can_manage_event
from tournaments.selectors import event_console, event_option
from tournaments.signals import console_notes_for, event_page_extras_for
from tournaments.views.common import event_or_404, forbidden

STATE_LABELS: dict[str, Any] = {
    "playing": gettext_lazy("playing"),
    "waiting": gettext_lazy("waiting for confirmation"),
    "disputed": gettext_lazy("disputed"),
    "finished": gettext_lazy("finished"),
    "decided": gettext_lazy("decided by the pairing"),
}

BLOCKED_LABELS: dict[str, Any] = {
    "event_finished": gettext_lazy("The event is finished."),
    "bracket_drawn": gettext_lazy(
        "The bracket is drawn; it advances by itself as results come in."
    ),
    "pairing": gettext_lazy("The round is being paired: the tables appear in a moment."),
    "pairing_failed": gettext_lazy("Pairing failed: re-pair the round from the event page."),
    "results_missing": gettext_lazy(
        "The next round can be paired when every table of this round has a final result."
    ),
    "all_rounds_paired": gettext_lazy("Every planned round has been paired."),
    "no_rounds": gettext_lazy(
        "Club nights and leagues have no rounds: players sit down with anyone."
    ),
}


def _label(table: Any) -> Any:
    """A table's badge: its state, or for a result nobody played, how it was decided (a bye,
    a walkover, both forfeiting): a walkover comes from a drop or a forfeit, not the pairing."""
    if table.state == "decided" and table.decision in Match.Decision.values:
        return Match.Decision(table.decision).label
    return STATE_LABELS[table.state]


@login_required
def event_console_view(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_or_404(pk)
    if not user_can_manage_event(user=request.user, event=event):
        return forbidden(request, _("Only the event's directors may run it."))
    raw = request.GET.get("round", "")
    number = int(raw) if raw.isascii() and raw.isdigit() else None
    if raw and number is None:
        raise Http404
    try:
        console = event_console(event=event, round_number=number)
    except Round.DoesNotExist:
        raise Http404 from None
    # The tables after time with their points as they stand (the reading of docs/rules.md §11).
    scores = matches_live_scores(match_ids=[t.match_id for t in console.after_time])
    late = [
        {"table": t, "totals": (scores.get(t.match_id) or {}).get("totals") or []}
        for t in console.after_time
    ]
    return render(
        request,
        "tournaments/console.html",
        {
            "event": event,
            "console": console,
            "after_time": late,
            "rows": [{"table": t, "label": _label(t)} for t in console.tables],
            "blocked_message": BLOCKED_LABELS.get(console.blocked, ""),
            "at_time_label": dict(AT_TIME_CHOICES).get(
                str(event_option(event=event, name="at_time")), ""
            ),
            "close_as_it_stands": event_option(event=event, name="at_time") == "as_it_stands",
            "notes": console_notes_for(event=event),
            # ``entries`` (the entries' summary) comes from the entries app, above this one.
            **event_page_extras_for(event=event, page="console"),
        },
    )


@login_required
@require_POST
def match_close_as_it_stands_view(request: HttpRequest, pk: int, match_id: int) -> HttpResponse:
    """The console's button on a table after time: close its match as it stands."""
    event = event_or_404(pk)
    if not user_can_manage_event(user=request.user, event=event):
        return forbidden(request, _("Only the event's directors may run it."))
    match = Match.objects.filter(pk=match_id, event=event).first()
    if match is None:
        raise Http404
    try:
        standing = match_close_as_it_stands(match=match, actor=Actor.from_request(request))
    except ApplicationError as exc:
        if exc.status == 403:
            return forbidden(request, exc.message)
        messages.error(request, exc.message)
    else:
        label = (
            _("Table %(n)s") % {"n": match.table_number}
            if match.table_number
            else _("Match %(n)s") % {"n": match.pk}
        )
        if standing.winner is None:
            messages.success(
                request, _("%(table)s is closed as it stands: a draw.") % {"table": label}
            )
        else:
            messages.success(
                request,
                _("%(table)s is closed as it stands, won by %(margin)s.")
                % {"table": label, "margin": standing.margin},
            )
    return HttpResponseRedirect(reverse("event-console", args=[pk]))
