"""The pass on the pages: following it (``/p/#<secret>``, ``/p/<secret>/``), the holder's page
(``/events/<id>/pass/``, live), self check-in, withdrawal, the one tap to their seat, and the
director's list of an event's passes.

The same link, given at entry, opens an entry still without a place: the same page then shows
where it stands (awaiting approval, its number on the waiting list) and lets the entrant
withdraw it; once the entrant has a place, the page is their pass (:mod:`entries.links`).

Following a pass exchanges the secret for a pass session (this browser holds the pass of that
event) and redirects to the clean URL, as the seat links do (:mod:`scoring.links`).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.api import version_etag
from core.errors import ApplicationError
from core.net import client_ip
from core.parsing import parse_ascii_int
from entries.models import Entry
from entries.services import entry_withdraw_own
from passes.links import ENTRY_SESSION_KEY, SESSION_KEY, pass_url, secret_from
from passes.models import PlayerPass
from passes.selectors import entry_pass, entry_version, entry_view, pass_version, pass_view
from passes.services import (
    checkin_opens_at,
    checkin_opens_text,
    link_open,
    pass_checkin,
    pass_ensure,
    pass_opened,
    pass_reissue,
    pass_revoke,
    pass_seat_key,
    pass_withdraw,
)
from scoring.links import LinkRefused, session_grant
from scoring.permissions import link_refused_error
from tournaments.models import Event, Registration
from tournaments.permissions import user_can_manage_event
from tournaments.selectors.clock import match_clock_state

POLL_MS = 2000


def refused(request: HttpRequest, message: str, status: int) -> HttpResponse:
    """A refusal page in the reader's language, with its status (nothing was stored)."""
    response = render(
        request, "passes/refused.html", {"message": message, "status": status}, status=status
    )
    if status == 429:
        response["Retry-After"] = "600"
    return response


def session_passes(request: HttpRequest) -> dict[str, int]:
    """The passes this browser holds: event id (as text) → pass id."""
    raw = request.session.get(SESSION_KEY) or {}
    if not isinstance(raw, dict):
        return {}
    return {str(k): v for k, v in raw.items() if isinstance(v, int)}


@require_http_methods(["GET", "POST"])
def pass_open_page(request: HttpRequest) -> HttpResponse:
    """``/p/#<secret>``: the page's script posts the fragment here (or the holder pastes it)."""
    if request.method != "POST":
        return render(request, "passes/open.html")
    return _exchange(request, secret_from(request.POST.get("secret") or ""))


@require_GET
def pass_visit(request: HttpRequest, secret: str) -> HttpResponse:
    """A pass typed in the address bar (``/p/<secret>/``)."""
    return _exchange(request, secret)


def session_entries(request: HttpRequest) -> dict[str, int]:
    """The entries (still without a place) this browser opened with their link: event id (as
    text) → entry id."""
    raw = request.session.get(ENTRY_SESSION_KEY) or {}
    if not isinstance(raw, dict):
        return {}
    return {str(k): v for k, v in raw.items() if isinstance(v, int)}


def _exchange(request: HttpRequest, secret: str) -> HttpResponse:
    try:
        opened = link_open(secret=secret, ip=client_ip(request))
    except LinkRefused as exc:
        error = link_refused_error(exc)
        if exc.status == 404:
            return refused(
                request, _("This pass is not valid: it was replaced or never existed."), 404
            )
        return refused(request, error.message, error.status)
    held, entries = session_passes(request), session_entries(request)
    if isinstance(opened, Entry):  # an entrant without a place yet: their entry's page
        held.pop(str(opened.event_id), None)
        entries[str(opened.event_id)] = opened.pk
        request.session[SESSION_KEY] = held
        request.session[ENTRY_SESSION_KEY] = entries
        request.session.cycle_key()
        response = HttpResponseRedirect(reverse("pass-page", args=[opened.event_id]))
        response["Referrer-Policy"] = "no-referrer"
        return response
    player_pass = opened
    held[str(player_pass.registration.event_id)] = player_pass.pk
    entries.pop(str(player_pass.registration.event_id), None)
    request.session[SESSION_KEY] = held
    request.session[ENTRY_SESSION_KEY] = entries
    request.session.cycle_key()
    pass_opened(player_pass=player_pass)
    response = HttpResponseRedirect(reverse("pass-page", args=[player_pass.registration.event_id]))
    response["Referrer-Policy"] = "no-referrer"
    return response


def held_pass(request: HttpRequest, event_id: int) -> PlayerPass | HttpResponse:
    """The pass this browser holds for ``event_id``, or the refusal page to answer with."""
    held = session_passes(request)
    pass_id = held.get(str(event_id))
    if pass_id is None:
        pass_id = _entry_became_pass(request, event_id)
    if pass_id is None:
        if held:
            return refused(request, _("Your pass is for another event."), 403)
        return refused(request, _("Open your pass's link on this phone first."), 404)
    player_pass = (
        PlayerPass.objects.select_related("registration__event", "registration__player")
        .filter(pk=pass_id, registration__event_id=event_id)
        .first()
    )
    if player_pass is None or player_pass.revoked_at is not None:
        held.pop(str(event_id), None)
        request.session[SESSION_KEY] = held
        return refused(
            request,
            _("This pass was revoked: ask the director for your new one."),
            404,
        )
    return player_pass


def _entry_became_pass(request: HttpRequest, event_id: int) -> int | None:
    """The pass an entry this browser opened has become (the entrant has a place now): held
    from now on, as the entry's link now opens it. None otherwise."""
    entries = session_entries(request)
    entry_id = entries.get(str(event_id))
    entry = Entry.objects.filter(pk=entry_id, event_id=event_id).first() if entry_id else None
    player_pass = entry_pass(entry=entry) if entry is not None else None
    if player_pass is None:
        return None
    held = session_passes(request)
    held[str(event_id)] = player_pass.pk
    entries.pop(str(event_id), None)
    request.session[SESSION_KEY] = held
    request.session[ENTRY_SESSION_KEY] = entries
    return player_pass.pk


def held_entry(request: HttpRequest, event_id: int) -> Entry | None:
    """The entry without a place this browser opened for ``event_id`` (and holds no pass of
    the event), or None: then the pass rules apply (an entry that has become a pass is held
    as that pass)."""
    if str(event_id) in session_passes(request):
        return None
    entry_id = session_entries(request).get(str(event_id))
    entry = (
        Entry.objects.select_related("event").filter(pk=entry_id, event_id=event_id).first()
        if entry_id
        else None
    )
    if entry is None or entry.registration_id is not None:
        return None
    return entry


def _entry_context(entry: Entry, version: int) -> dict[str, Any]:
    """What the entrant's page shows; ``version`` read before any of it (see :func:`_context`)."""
    view = entry_view(entry=entry)
    return {
        "view": view,
        "event": view.event,
        "entry": view.entry,
        "live": {
            "version": version,
            "fragment_url": reverse("pass-live", args=[view.event.pk]),
            "version_url": "",
            "poll_ms": POLL_MS,
        },
    }


def _context(request: HttpRequest, player_pass: PlayerPass, version: int) -> dict[str, Any]:
    """What the pass shows, with ``version`` as the version it shows: read before any of it.

    Each read below sees what is committed when it runs; a change committed in between (a
    director starting the round's clock) would be shown by the reads after it only. Read first,
    the version is never newer than what is drawn: at worst the next poll draws the same again.
    Read last, it could name the change the drawing missed, and every poll after would be told
    ``304`` until the next change (a pass left showing a clock "not started")."""
    view = pass_view(player_pass=player_pass)
    opens = checkin_opens_at(event=view.event)
    current = view.current
    return {
        "view": view,
        # the round's clock at the holder's table (its extra time counted), as on the match page
        "clock": match_clock_state(match=current.match) if current is not None else None,
        "event": view.event,
        "registration": view.registration,
        "current": view.current,
        "checkin_opens": checkin_opens_text(opens) if opens is not None else "",
        # the holder's own pass for the playoff cut from this event (a link to follow)
        "next_url": pass_url(absolute=request.build_absolute_uri, player_pass=view.next_pass)
        if view.next_pass is not None
        else "",
        "live": {
            "version": version,
            "fragment_url": reverse("pass-live", args=[view.event.pk]),
            "version_url": "",
            "poll_ms": POLL_MS,
        },
    }


@require_GET
def pass_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The holder's page: check-in, where they play now, their results and standing; for an
    entrant without a place yet, where their entry stands."""
    entry = held_entry(request, pk)
    if entry is not None:
        version = entry_version(entry=entry)
        response = render(request, "passes/entry.html", _entry_context(entry, version))
        response["Cache-Control"] = "private, no-store"
        return response
    found = held_pass(request, pk)
    if isinstance(found, HttpResponse):
        return found
    version = pass_version(player_pass=found)
    response = render(request, "passes/pass.html", _context(request, found, version))
    response["Cache-Control"] = "private, no-store"
    return response


@require_GET
def pass_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The page's live regions; ``304`` while the version the page shows is current."""
    entry = held_entry(request, pk)
    if entry is not None:
        return _live_answer(request, entry_version(entry=entry), "passes/_entry_live.html", entry)
    found = held_pass(request, pk)
    if isinstance(found, HttpResponse):
        if found.status_code in (403, 404):
            gone = HttpResponse(status=404)
            gone["X-Knock-Credential"] = "gone"
            return gone
        return found
    return _live_answer(request, pass_version(player_pass=found), "passes/_live.html", found)


def _live_answer(
    request: HttpRequest, version: int, template: str, held: PlayerPass | Entry
) -> HttpResponse:
    etag = version_etag(version)
    # Django's If-None-Match test (a weak comparison: behind nginx's gzip the ETag a client
    # echoes is W/"…"): an empty 304 while the version is the one the page shows.
    answer = get_conditional_response(request, etag=etag)
    if answer is not None:
        response: HttpResponse = answer
    else:
        context = (
            _entry_context(held, version)
            if isinstance(held, Entry)
            else _context(request, held, version)
        )
        response = render(request, template, context)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-store"
    response["X-Live-Poll-Ms"] = str(POLL_MS)
    return response


def _act(request: HttpRequest, pk: int, action: Any, done: str) -> HttpResponse:
    found = held_pass(request, pk)
    if isinstance(found, HttpResponse):
        return found
    try:
        action(found)
    except ApplicationError as exc:
        if exc.status in (403, 404):
            return refused(request, exc.message, exc.status)
        messages.error(request, exc.message)
    else:
        if done:
            messages.success(request, done)
    return HttpResponseRedirect(reverse("pass-page", args=[pk]))


@require_POST
def pass_checkin_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(
        request,
        pk,
        lambda p: pass_checkin(player_pass=p),
        "",  # the pass itself says "You are checked in." (no second, flashed copy)
    )


@require_http_methods(["GET", "POST"])
def pass_withdraw_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Drop out of the event: a confirmation page, then the withdrawal (for an entrant without
    a place yet: their entry leaves the list)."""
    entry = held_entry(request, pk)
    if entry is not None:
        return _entry_withdraw(request, entry)
    found = held_pass(request, pk)
    if isinstance(found, HttpResponse):
        return found
    if request.method != "POST" or request.POST.get("confirm") != "1":
        return render(
            request,
            "passes/withdraw.html",
            {"event": found.registration.event, "registration": found.registration},
        )
    return _act(
        request,
        pk,
        lambda p: pass_withdraw(player_pass=p),
        _("You have dropped out of the event: you will not be paired again."),
    )


def _entry_withdraw(request: HttpRequest, entry: Entry) -> HttpResponse:
    if request.method != "POST" or request.POST.get("confirm") != "1":
        return render(request, "passes/entry_withdraw.html", {"event": entry.event, "entry": entry})
    try:
        entry_withdraw_own(entry=entry)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("You have withdrawn your entry."))
    return HttpResponseRedirect(reverse("pass-page", args=[entry.event_id]))


@require_POST
def pass_seat_view(request: HttpRequest, pk: int) -> HttpResponse:
    """One tap to the holder's seat at their current match: this browser holds that seat's
    link for that match (never the other seat's), then the match page."""
    found = held_pass(request, pk)
    if isinstance(found, HttpResponse):
        return found
    raw = request.POST.get("match") or ""
    match_id = parse_ascii_int(raw) if raw else None
    if raw and match_id is None:
        return refused(request, _("This pass is not for that match."), 403)
    try:
        key = pass_seat_key(player_pass=found, match_id=match_id)
    except ApplicationError as exc:
        if exc.status == 409:
            messages.error(request, exc.message)
            return HttpResponseRedirect(reverse("pass-page", args=[pk]))
        return refused(request, exc.message, exc.status)
    session_grant(request.session, key)
    # session_grant cycles the session key; the pass stays in the session (its data is kept).
    response = HttpResponseRedirect(reverse("match-detail", args=[key.match_id]))
    response["Referrer-Policy"] = "no-referrer"
    return response


# -- the director's list ---------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def event_passes_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Every registered player's pass: its link (to print or send), opened or not; revoke or
    reissue one."""
    event = Event.objects.filter(pk=pk).first()
    if event is None:
        return refused(request, _("There is no such event."), 404)
    if not user_can_manage_event(user=request.user, event=event):
        return refused(request, _("Only the event's directors may manage its passes."), 403)
    if request.method == "POST":
        rid = parse_ascii_int(request.POST.get("registration") or "")
        registration = (
            Registration.objects.select_related("event", "player")
            .filter(pk=rid, event=event)
            .first()
            if rid is not None
            else None
        )
        if registration is None:
            messages.error(request, _("Choose a player of this event."))
        elif request.POST.get("action") == "revoke":
            pass_revoke(registration=registration, user=request.user)
            messages.success(
                request,
                _("%(player)s's pass is revoked: its link no longer opens.")
                % {"player": registration.player.name},
            )
        else:
            pass_reissue(registration=registration, user=request.user)
            messages.success(
                request,
                _("%(player)s has a new pass: the old link no longer opens.")
                % {"player": registration.player.name},
            )
        return HttpResponseRedirect(reverse("event-passes", args=[pk]))
    rows = []
    for registration in (
        Registration.objects.filter(event=event).select_related("player").order_by("player__name")
    ):
        active = PlayerPass.objects.filter(
            registration=registration, revoked_at__isnull=True
        ).first()
        if active is None and registration.status != Registration.Status.DROPPED:
            active = pass_ensure(registration=registration)
        rows.append(
            {
                "registration": registration,
                "pass": active,
                "url": pass_url(absolute=request.build_absolute_uri, player_pass=active)
                if active is not None
                else "",
            }
        )
    response = render(request, "passes/event_passes.html", {"event": event, "rows": rows})
    response["Cache-Control"] = "private, no-store"
    return response
