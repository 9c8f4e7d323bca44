"""Disputes on the pages: the other side disputes an entry (with a reason), and an event's
directors work through one list of disputed hands (each settled from the hand's own page).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.errors import ApplicationError
from core.parsing import parse_ascii_int
from scoring.models import HandSubmission, Match
from scoring.organiser import organiser
from scoring.permissions import Actor, match_access
from scoring.selectors import dispute_out, disputes_open, event_is_director, submission_get
from scoring.services import hand_dispute
from scoring.views.match_context import OUTCOME_LABELS, MatchPage, refused_page
from scoring.views.refusals import link_gone_page


@require_POST
def submission_dispute_view(request: HttpRequest, pk: int, sid: int) -> HttpResponse:
    """Dispute an entry waiting for confirmation: it is not counted until settled."""
    try:
        sub = submission_get(submission_id=sid)
    except HandSubmission.DoesNotExist:
        raise Http404 from None
    if sub.hand.game.match_id != pk:
        raise Http404
    page = MatchPage(request, pk)
    if page.link_replaced:
        return link_gone_page(request)
    back = reverse("match-detail", args=[pk])
    try:
        hand_dispute(
            submission=sub,
            actor=page.actor,
            reason=request.POST.get("reason") or "",
            as_position=parse_ascii_int(request.POST.get("as_position") or ""),
        )
    except ApplicationError as exc:
        if exc.status == 404:
            raise Http404 from None
        if exc.status == 403:
            return refused_page(page, exc)
        messages.error(request, exc.message)
        return HttpResponseRedirect(back + "#pending")
    messages.info(
        request,
        _("Hand %(n)s is disputed: it is not counted until it is entered again or settled.")
        % {"n": sub.hand.number},
    )
    return HttpResponseRedirect(back + "#pending")


@require_GET
@login_required
def event_disputes_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Every disputed hand of the event, for its directors to settle."""
    event = organiser().terms_for_event(event_id=pk)
    if event is None:
        raise Http404
    if not event_is_director(event=event, user=request.user):
        message = _("Only the event's directors see its disputes.")
        raise PermissionDenied(message)
    actor = Actor.from_request(request)
    rows = []
    for sub in disputes_open(event_id=event.event_id):
        match: Match = sub.hand.game.match
        access = match_access(actor=actor, match=match)
        out = dispute_out(sub)
        label = OUTCOME_LABELS.get(out.get("outcome", ""), out.get("outcome"))
        rows.append({"sub": sub, "out": out, "label": label, "settle": access.neutral_director})
    return render(request, "scoring/disputes.html", {"event": event, "rows": rows})
