"""Online entry pages: the public entry page (``/events/<id>/enter/``) and the director's list of
entries (approve, refuse, waiting list, withdraw, merge, and the entry settings). Writes go
through ``entries.services``; refusals are shown on the page and store nothing."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import ApplicationError
from core.net import client_ip
from entries.forms import EntryForm, EntryMergeForm, EntrySettingsForm
from entries.links import entry_secret
from entries.models import Entry
from entries.selectors import (
    entry_list,
    entry_summary,
    entry_waiting_rank,
    event_entries_problem,
)
from entries.services import (
    ENTRY_FULL,
    entry_approve,
    entry_merge,
    entry_refuse,
    entry_submit,
    entry_waitlist,
    entry_withdraw,
    event_entries_configure,
)
from tournaments.models import Event
from tournaments.permissions import user_can_manage_event
from tournaments.views.common import event_or_404, forbidden

# -- the entrant -------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def event_enter(request: HttpRequest, pk: int) -> HttpResponse:
    """The entry form; after a submission, what became of it (registered, awaiting approval or
    waiting), or why it was refused, with the waiting list offered when the event is full."""
    event = event_or_404(pk)
    context: dict[str, Any] = {"event": event, "summary": entry_summary(event=event)}
    status = 200
    headers: dict[str, str] = {}
    if request.method == "POST":
        form = EntryForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                entry = entry_submit(
                    event=event,
                    name=data["name"],
                    email=data["email"],
                    note=data["note"],
                    waiting_list=data["waiting_list"],
                    honeypot=data["website"],
                    ip=client_ip(request),
                    language=get_language(),
                )
            except ApplicationError as exc:
                status = exc.status
                headers = exc.headers
                context["error"] = exc.message
                if exc.extra.get("code") == ENTRY_FULL:
                    context["offer_waiting_list"] = True
                    status = 200
            else:
                context["entry"] = entry
                context["summary"] = entry_summary(event=event)
                context["rank"] = entry_waiting_rank(entry=entry)
                # the entrant's own link (their pass once they have a place): shown to them only
                secret = entry_secret(entry)
                context["link"] = (
                    request.build_absolute_uri(reverse("pass-open")) + "#" + secret
                    if secret
                    else ""
                )
                response = render(request, "entries/entry.html", {**context, "form": form})
                response["Cache-Control"] = "private, no-store"
                response["Referrer-Policy"] = "no-referrer"
                return response
        else:
            status = 400
    else:
        form = EntryForm()
        context["closed"] = event_entries_problem(event=event)
    response = render(request, "entries/entry.html", {**context, "form": form}, status=status)
    for name, value in headers.items():
        response[name] = value
    return response


# -- the director's ----------------------------------------------------------------------------


def _directed(request: HttpRequest, pk: int) -> Event:
    event = event_or_404(pk)
    if not user_can_manage_event(user=request.user, event=event):
        forbidden(request, _("Only the event's directors may run it."))
    return event


def _back(event: Event) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("event-entries", args=[event.pk]))


@login_required
def event_entries(request: HttpRequest, pk: int) -> HttpResponse:
    event = _directed(request, pk)
    entries = list(entry_list(event=event))
    summary = entry_summary(event=event)
    initial = {
        "entries_open": summary["open"],
        "entries_cap": summary["cap"],
        "entries_approval": summary["approval"],
        "entries_close_at": event.entries_close_at,
    }
    return render(
        request,
        "entries/entries.html",
        {
            "event": event,
            "entries": entries,
            "summary": summary,
            "settings_form": EntrySettingsForm(initial=initial),
            "active": [e for e in entries if e.status in Entry.ACTIVE],
            "enter_url": request.build_absolute_uri(reverse("event-enter", args=[event.pk])),
        },
    )


@login_required
@require_POST
def event_entries_settings(request: HttpRequest, pk: int) -> HttpResponse:
    event = _directed(request, pk)
    form = EntrySettingsForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"{label}: {' '.join(str(e) for e in errors)}")
        return _back(event)
    data = form.cleaned_data
    try:
        event_entries_configure(
            event=event,
            entries_open=data["entries_open"],
            cap=data["entries_cap"],
            approval=data["entries_approval"],
            close_at=data["entries_close_at"],
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Entry settings saved."))
    return _back(event)


ACTIONS = {
    "approve": entry_approve,
    "refuse": entry_refuse,
    "waitlist": entry_waitlist,
    "withdraw": entry_withdraw,
}


@login_required
@require_POST
def event_entry_action(request: HttpRequest, pk: int, entry_id: int, action: str) -> HttpResponse:
    event = _directed(request, pk)
    entry = get_object_or_404(Entry, pk=entry_id, event=event)
    try:
        if action == "merge":
            form = EntryMergeForm(request.POST)
            if not form.is_valid():
                raise ApplicationError(_("Choose the entry to keep."), field="into")
            into = Entry.objects.filter(pk=form.cleaned_data["into"], event=event).first()
            if into is None:
                raise ApplicationError(_("Choose the entry to keep."), field="into")
            entry_merge(entry=entry, into=into)
            done = _("%(name)s merged into %(into)s.") % {"name": entry.name, "into": into.name}
        elif action in ACTIONS:
            changed = ACTIONS[action](entry=entry)
            done = _("%(name)s: %(status)s.") % {
                "name": changed.name,
                "status": changed.get_status_display(),
            }
        else:
            raise Http404
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return _back(event)
