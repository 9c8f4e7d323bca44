"""An event's settings: create, edit, and the rules fields re-rendered for a chosen preset."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.views.common import directed_club
from core.errors import ApplicationError
from engine.rules import RULE_PRESETS
from tournaments.forms import (
    TIEBREAK_NAMES,
    EventSettingsForm,
)
from tournaments.models import Event
from tournaments.permissions import (
    user_can_manage_event,
)
from tournaments.selectors import (
    DEFAULT_TIEBREAKS,
)
from tournaments.services import (
    event_create,
)
from tournaments.services.edits import (
    event_has_matches,
    event_update,
)
from tournaments.views.common import event_or_404, forbidden

# -- event settings --------------------------------------------------------------------------


def _event_form_page(
    request: HttpRequest, form: EventSettingsForm, club: Club, event: Event | None
) -> HttpResponse:
    return render(
        request,
        "tournaments/event_form.html",
        {
            "form": form,
            "club": club,
            "event": event,
            "usual_tiebreaks": _usual_tiebreaks(event.kind if event else None),
        },
        status=400 if form.errors else 200,
    )


def _usual_tiebreaks(kind: str | None) -> list[dict[str, Any]]:
    kinds = [kind] if kind else [k for k in Event.Kind.values if k != Event.Kind.LEAGUE]
    return [
        {
            "kind": Event.Kind(k).label,
            "order": ", ".join(
                str(TIEBREAK_NAMES[n]) if n in TIEBREAK_NAMES else _("lots")
                for n in DEFAULT_TIEBREAKS[k]
            ),
        }
        for k in kinds
    ]


def _preset_reloaded(form: EventSettingsForm, **kwargs: Any) -> EventSettingsForm:
    """The form redrawn with the chosen preset's values (the no-script "load preset" button)."""
    preset = form.data.get("preset") or "standard"
    if preset not in RULE_PRESETS:
        preset = "standard"
    initial = {**form.initial_from_data(), **EventSettingsForm.preset_initial(preset)}
    return EventSettingsForm(initial=initial, **kwargs)


@login_required
def event_create_view(request: HttpRequest, slug: str) -> HttpResponse:
    club = directed_club(request, slug)
    form = EventSettingsForm(request.POST or None, club=club)
    if request.method == "POST" and "load_preset" in request.POST:
        form = _preset_reloaded(form, club=club)
    elif request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event = event_create(
                club_id=club.pk,
                name=data["name"],
                kind=data["kind"],
                rules=data["rules"].to_dict(),
                match_format=data["match_format"],
                confirmation=data["confirmation"],
                rounds_planned=data["rounds_planned"],
                options=data["options"],
                tiebreaks=data["tiebreaks"],
                league=data["league"],
                starts_on=data["starts_on"],
                user=request.user,  # type: ignore[arg-type]
            )
        except ApplicationError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("%(event)s is created.") % {"event": event.name})
            return redirect("event-detail", pk=event.pk)
    return _event_form_page(request, form, club, None)


@login_required
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_or_404(pk)
    if not user_can_manage_event(user=request.user, event=event):
        return forbidden(request, _("Only the event's directors may change its settings."))
    lock = event_has_matches(event=event)
    form = EventSettingsForm(request.POST or None, club=event.club, event=event, lock_rules=lock)
    if request.method == "POST" and "load_preset" in request.POST and not lock:
        form = _preset_reloaded(form, club=event.club, event=event)
    elif request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event_update(
                event=event,
                name=data["name"],
                starts_on=data["starts_on"],
                rules=data["rules"].to_dict(),
                match_format=data["match_format"],
                confirmation=data["confirmation"],
                rounds_planned=data["rounds_planned"],
                tiebreaks=data["tiebreaks"],
                options=data["options"],
            )
        except ApplicationError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("The settings are saved."))
            return redirect("event-detail", pk=event.pk)
    return _event_form_page(request, form, event.club, event)


def event_rules_fields(request: HttpRequest) -> HttpResponse:
    """The rule and match-format fields filled from one preset (htmx swaps them in)."""
    preset = request.GET.get("preset", "standard")
    if preset not in RULE_PRESETS:
        raise Http404
    form = EventSettingsForm(club=None, initial=EventSettingsForm.preset_initial(preset))
    return render(request, "tournaments/_rule_fields.html", {"form": form})
