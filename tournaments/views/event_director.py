"""A director's actions on an event page: pair and re-pair rounds, registrations and check-in,
forbidden pairs, starting a match; and a player's own check-in link."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs.selectors import player_list
from core.errors import ApplicationError
from scoring.permissions import Actor
from scoring.selectors import seating_warnings
from scoring.services import match_start
from tournaments.forms import (
    BulkRegisterForm,
    ForbiddenPairingForm,
    MatchStartForm,
    PasteRegisterForm,
    RegisterForm,
)
from tournaments.links import token_from
from tournaments.models import (
    Event,
    Registration,
    Round,
)
from tournaments.permissions import (
    user_can_manage_event,
)
from tournaments.selectors.terms import event_terms
from tournaments.services import (
    forbidden_pairing_create,
    registration_checkin,
    registration_checkin_by_token,
    registration_create,
    registration_drop,
    round_pair,
    round_repair,
)
from tournaments.services.edits import event_players_paste
from tournaments.services.events import registrations_checkin_all, registrations_create_many
from tournaments.views.common import event_or_404

# -- director actions ------------------------------------------------------------------------


def _managed(request: HttpRequest, pk: int) -> Event:
    event = event_or_404(pk)
    if not user_can_manage_event(user=request.user, event=event):
        raise Http404
    return event


def _back(event: Event, anchor: str = "") -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("event-detail", args=[event.pk]) + anchor)


def _form_errors(request: HttpRequest, form: forms.Form) -> None:
    """Every error of ``form`` as a message, each after its field's label."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        text = " ".join(str(e) for e in errors)
        messages.error(request, f"{label}: {text}" if label else text)


@require_POST
def event_pair(request: HttpRequest, pk: int) -> HttpResponse:
    """Pair the next round; from the console, ``force`` with a ``reason`` pairs it before every
    result of the round is in (recorded in the event's log)."""
    event = _managed(request, pk)
    console = request.POST.get("next") == "console"
    back = (
        HttpResponseRedirect(reverse("event-console", args=[event.pk]))
        if console
        else _back(event, "#pairings")
    )
    try:
        rnd = round_pair(
            event=event,
            user=request.user,  # type: ignore[arg-type]
            force=request.POST.get("force") == "1",
            reason=request.POST.get("reason", ""),
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return back
    if rnd.status == Round.Status.QUEUED:
        messages.info(request, _("Round %(n)s is queued for pairing.") % {"n": rnd.number})
    else:
        messages.success(request, _("Round %(n)s is paired.") % {"n": rnd.number})
    return back


@require_POST
def round_repair_view(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = _managed(request, pk)
    rnd = get_object_or_404(Round, event=event, number=number)
    try:
        round_repair(rnd=rnd, user=request.user)  # type: ignore[arg-type]
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Round %(n)s is paired again.") % {"n": number})
    return _back(event, "#pairings")


def _registration(event: Event, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("event", "player"), pk=registration_id, event=event
    )


def _registration_action(
    request: HttpRequest, pk: int, registration_id: int, action: Callable[..., object]
) -> HttpResponse:
    """Check in or drop one registration (the two buttons of a registration row)."""
    event = _managed(request, pk)
    try:
        action(registration=_registration(event, registration_id))
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return _back(event, "#registrations")


@require_POST
def registration_checkin_view(request: HttpRequest, pk: int, registration_id: int) -> HttpResponse:
    return _registration_action(request, pk, registration_id, registration_checkin)


@require_POST
def registration_drop_view(request: HttpRequest, pk: int, registration_id: int) -> HttpResponse:
    return _registration_action(request, pk, registration_id, registration_drop)


@require_POST
def registration_add(request: HttpRequest, pk: int) -> HttpResponse:
    event = _managed(request, pk)
    form = RegisterForm(request.POST, players=player_list(club_id=event.club_id))
    if form.is_valid():
        try:
            registration_create(
                event=event,
                player=form.cleaned_data["player"],
                checked_in=form.cleaned_data["checked_in"],
            )
        except ApplicationError as exc:
            messages.error(request, exc.message)
    else:
        messages.error(request, _("Choose a player of the club."))
    return _back(event, "#registrations")


@require_POST
def registration_bulk(request: HttpRequest, pk: int) -> HttpResponse:
    """Register the ticked players at once (all or none), checking them in if asked."""
    event = _managed(request, pk)
    form = BulkRegisterForm(request.POST, prefix="bulk", players=player_list(club_id=event.club_id))
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return _back(event, "#registrations")
    try:
        done = registrations_create_many(
            event=event,
            players=form.cleaned_data["players"],
            checked_in=form.cleaned_data["checked_in"],
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _registered_message(len(done), form.cleaned_data["checked_in"]))
    return _back(event, "#registrations")


def _registered_message(count: int, checked_in: bool) -> str:
    if checked_in:
        return ngettext(
            "%(n)s player registered and checked in.",
            "%(n)s players registered and checked in.",
            count,
        ) % {"n": count}
    return ngettext("%(n)s player registered.", "%(n)s players registered.", count) % {"n": count}


@require_POST
def registration_paste(request: HttpRequest, pk: int) -> HttpResponse:
    """Register pasted names (new names become club players), checking them in if asked."""
    event = _managed(request, pk)
    form = PasteRegisterForm(request.POST, prefix="paste")
    if not form.is_valid():
        _form_errors(request, form)
        return _back(event, "#registrations")
    try:
        done, skipped = event_players_paste(
            event=event, names=form.name_list(), checked_in=form.cleaned_data["checked_in"]
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return _back(event, "#registrations")
    if done:
        messages.success(request, _registered_message(len(done), form.cleaned_data["checked_in"]))
    if skipped:
        messages.info(
            request,
            _("Already registered: %(names)s.") % {"names": ", ".join(skipped)},
        )
    return _back(event, "#registrations")


@require_POST
def registration_checkin_all_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Check in everyone registered who has not checked in yet."""
    event = _managed(request, pk)
    try:
        done = registrations_checkin_all(event=event)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        if done:
            messages.success(
                request,
                ngettext("%(n)s player checked in.", "%(n)s players checked in.", len(done))
                % {"n": len(done)},
            )
        else:
            messages.info(request, _("Everyone registered is already checked in."))
    return _back(event, "#registrations")


@require_POST
def forbidden_pairing_add(request: HttpRequest, pk: int) -> HttpResponse:
    event = _managed(request, pk)
    form = ForbiddenPairingForm(request.POST, players=player_list(club_id=event.club_id))
    if form.is_valid():
        try:
            forbidden_pairing_create(
                event=event,
                player_a=form.cleaned_data["player_a"],
                player_b=form.cleaned_data["player_b"],
                hard=form.cleaned_data["hard"],
            )
        except ApplicationError as exc:
            messages.error(request, exc.message)
    else:
        messages.error(request, _("Choose two players."))
    return _back(event, "#forbidden")


@require_POST
def event_match_start(request: HttpRequest, pk: int) -> HttpResponse:
    """A director (or a player at the table) starts a club-night match."""
    event = event_or_404(pk)
    if not request.user.is_authenticated:
        raise Http404
    form = MatchStartForm(request.POST, players=player_list(club_id=event.club_id))
    if not form.is_valid():
        _form_errors(request, form)
        return _back(event, "#start")
    try:
        match = match_start(
            actor=Actor.from_request(request),
            event=event_terms(event=event),
            players=form.player_ids(),
            table_number=form.cleaned_data.get("table_number"),
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return _back(event, "#start")
    for warning in seating_warnings(
        event_id=event.pk,
        players=form.player_ids(),
        table_number=match.table_number,
        exclude=match.pk,
    ):
        messages.warning(request, warning)
    return redirect("match-detail", pk=match.pk)


# -- a player's own check-in link ---------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def checkin_open(request: HttpRequest) -> HttpResponse:
    """``/checkin/#<token>`` (what cards and QR codes hold): the page's script posts the
    fragment here, or the player pastes the link. That shows the player's check-in page; its
    button posts the token again with ``confirm`` to check in (:mod:`tournaments.links`)."""
    if request.method != "POST":
        return _no_referrer(render(request, "tournaments/checkin_open.html"))
    token = token_from(request.POST.get("token") or "")
    registration = (
        Registration.objects.select_related("event", "player").filter(checkin_token=token).first()
        if token
        else None
    )
    if registration is None:
        error = _("This check-in link is not valid.")
        page = render(request, "tournaments/checkin_open.html", {"error": error}, status=404)
        return _no_referrer(page)
    return _checkin(request, registration, confirm="confirm" in request.POST)


@require_http_methods(["GET", "POST"])
def checkin_by_link(request: HttpRequest, token: str) -> HttpResponse:
    """``/checkin/<token>/``, typed by hand or on a card printed before links carried the token
    as a fragment: still works, never issued."""
    registration = get_object_or_404(
        Registration.objects.select_related("event", "player"), checkin_token=token
    )
    return _checkin(request, registration, confirm=request.method == "POST")


def _checkin(request: HttpRequest, registration: Registration, *, confirm: bool) -> HttpResponse:
    """The player's check-in page (checking them in first if ``confirm``)."""
    error = None
    if confirm:
        try:
            registration = registration_checkin_by_token(token=registration.checkin_token)
        except ApplicationError as exc:
            error = exc.message
    page = render(
        request,
        "tournaments/checkin.html",
        {"registration": registration, "event": registration.event, "error": error},
        status=409 if error else 200,
    )
    return _no_referrer(page)


def _no_referrer(response: HttpResponse) -> HttpResponse:
    """A page that holds a check-in token sends no ``Referer`` anywhere from it."""
    response["Referrer-Policy"] = "no-referrer"
    return response
