"""The console's clock buttons: give the round a length, start, pause, resume, extra time for
one table. One form posts here with its ``action``; the services decide and word refusals."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import ApplicationError
from tournaments.models import Round
from tournaments.permissions import user_can_manage_event
from tournaments.services.clock import (
    round_clock_extend,
    round_clock_pause,
    round_clock_resume,
    round_clock_set,
    round_clock_start,
)
from tournaments.views.common import event_or_404


def _whole(raw: str) -> int | None:
    """A typed whole number (a leading minus allowed), or None when it is none."""
    text = raw.strip()
    digits = text[1:] if text.startswith("-") else text
    return int(text) if digits.isascii() and digits.isdigit() and len(digits) < 7 else None


@require_POST
def round_clock_run_view(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = event_or_404(pk)
    if not user_can_manage_event(user=request.user, event=event):
        raise Http404
    rnd = get_object_or_404(Round, event=event, number=number)
    action = request.POST.get("action", "")
    raw_minutes = request.POST.get("minutes", "")
    minutes = _whole(raw_minutes)
    back = HttpResponseRedirect(
        reverse("event-console", args=[event.pk]) + f"?round={number}#round-clock"
    )
    try:
        if action in ("set", "start") and raw_minutes.strip() and minutes is None:
            raise ApplicationError(_("Type the minutes as a whole number."), field="minutes")
        if action == "set":
            round_clock_set(rnd=rnd, user=request.user, minutes=minutes)
        elif action == "start":
            round_clock_start(rnd=rnd, user=request.user, minutes=minutes)
        elif action == "pause":
            round_clock_pause(rnd=rnd, user=request.user)
        elif action == "resume":
            round_clock_resume(rnd=rnd, user=request.user)
        elif action == "extend":
            match = _whole(request.POST.get("match", ""))
            if match is None or minutes is None:
                raise ApplicationError(_("Choose a table and the extra minutes."))
            round_clock_extend(rnd=rnd, user=request.user, match_id=match, minutes=minutes)
        else:
            raise ApplicationError(_("Unknown clock action."))
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return back
