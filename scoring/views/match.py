"""The match page and its live fragment, hand entry, confirmation and withdrawal, and a
submission's own page (with the director's override). A visitor without access to the match
sees the confirmed score sheet only."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import ApplicationError
from core.i18n import engine_message
from core.parsing import parse_ascii_int
from engine.errors import EngineError
from scoring.forms import (
    TAB_FIELDS,
    EntryInput,
    read_entry,
)
from scoring.selectors import (
    hand_history,
)
from scoring.services import (
    hand_confirm,
    hand_override,
    hand_submit,
    hand_withdraw,
)
from scoring.views.history import history_lines, stored_entry, version_rows
from scoring.views.match_context import (
    _context,
    _defender_slots,
    _entry_setup,
    _Page,
    _status,
    _version,
)

# -- pages -----------------------------------------------------------------------------------


def match_page(request: HttpRequest, pk: int) -> HttpResponse:
    page = _Page(request, pk)
    return render(request, "scoring/match.html", _context(page, tab=request.GET.get("tab")))


def match_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live poll: 204 while nothing changed, else tell htmx to reload the page."""
    page = _Page(request, pk)
    if request.GET.get("v") == _version(page):
        return HttpResponse(status=204)
    response = HttpResponse(status=200)
    response["HX-Refresh"] = "true"
    return response


def _entry_error(
    page: _Page,
    inp: EntryInput,
    errors: dict[str, str],
    general: str | None,
    status: int,
    template: str = "scoring/match.html",
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    shown = TAB_FIELDS.get(inp.mode, frozenset())
    field_errors = {k: v for k, v in errors.items() if k in shown or k == "as_position"}
    leftover = [v for k, v in errors.items() if k not in field_errors]
    if general:
        leftover.insert(0, general)
    context = _context(
        page,
        tab=inp.mode,
        errors=field_errors,
        form_error=" ".join(leftover) or None,
        posted=page.request.POST,
    )
    context.update(extra or {})
    return render(page.request, template, context, status=status)


@require_POST
def hand_submit_view(request: HttpRequest, pk: int) -> HttpResponse:
    page = _Page(request, pk)
    if not page.access.can_view:
        raise Http404
    inp = read_entry(request.POST, positions=[s.position for s in page.state.seats])
    if inp.entry is None:
        return _entry_error(page, inp, inp.errors, None, 400)
    try:
        hand_submit(
            match=page.match, actor=page.actor, entry=inp.entry, as_position=inp.as_position
        )
    except ApplicationError as exc:
        if exc.status == 404:
            raise Http404 from None
        fields = {exc.field: exc.message} if exc.field else {}
        return _entry_error(page, inp, fields, None if fields else exc.message, _status(exc))
    except EngineError as exc:
        return _entry_error(page, inp, {}, engine_message(exc), 400)
    return page.back("#pending")


def _as_position(request: HttpRequest) -> int | None:
    raw = (request.POST.get("as_position") or "").strip()
    return parse_ascii_int(raw)


@require_POST
def submission_confirm_view(request: HttpRequest, pk: int, sid: int) -> HttpResponse:
    page = _Page(request, pk)
    sub = page.submission(sid)
    try:
        hand_confirm(submission=sub, actor=page.actor, as_position=_as_position(request))
    except ApplicationError as exc:
        if exc.status == 404:
            raise Http404 from None
        messages.error(request, exc.message)
        return page.back("#pending")
    messages.success(request, _("Hand %(n)s confirmed.") % {"n": sub.hand.number})
    if request.POST.get("next") == "disputes":
        return HttpResponseRedirect(reverse("event-disputes", args=[page.match.event_id]))
    return page.back("#sheet")


@require_POST
def submission_withdraw_view(request: HttpRequest, pk: int, sid: int) -> HttpResponse:
    page = _Page(request, pk)
    sub = page.submission(sid)
    try:
        hand_withdraw(submission=sub, actor=page.actor, as_position=_as_position(request))
    except ApplicationError as exc:
        if exc.status == 404:
            raise Http404 from None
        messages.error(request, exc.message)
        return page.back("#pending")
    messages.info(request, _("The entry was withdrawn: enter the hand again."))
    return page.back("#entry")


def submission_page(request: HttpRequest, pk: int, sid: int) -> HttpResponse:
    """A director's view of one hand: every version and change, and the override form."""
    page = _Page(request, pk)
    if not page.access.director:
        raise Http404
    sub = page.submission(sid)
    history = hand_history(submission=sub)
    names = {s.position: s.player.name for s in page.state.seats}
    extra = {
        "submission": sub,
        "history": history,
        "lines": history_lines(history, names),
        "versions": version_rows(history, names),
    }
    if not page.access.neutral_director:
        # A director who plays at this table reads the history but never corrects it.
        if request.method == "POST":
            message = _("You play at this table: another director corrects its hands.")
            return render(request, "tournaments/forbidden.html", {"message": message}, status=403)
        context = _context(page)
        context.update(extra)
        context.update(setup=None, override=False, can_enter=False)
        return render(request, "scoring/submission.html", context)
    if request.method == "POST":
        inp = read_entry(request.POST, positions=[s.position for s in page.state.seats])
        reason = (request.POST.get("reason") or "").strip()
        errors = dict(inp.errors)
        if inp.entry is not None and not errors:
            try:
                hand_override(submission=sub, actor=page.actor, entry=inp.entry, reason=reason)
            except ApplicationError as exc:
                if exc.field:
                    errors[exc.field] = exc.message
                    general = None
                else:
                    general = exc.message
                return _override_error(page, inp, errors, general, _status(exc), extra)
            except EngineError as exc:
                return _override_error(page, inp, errors, engine_message(exc), 400, extra)
            messages.success(request, _("Hand %(n)s corrected.") % {"n": sub.hand.number})
            return page.back("#sheet")
        return _override_error(page, inp, errors, None, 400, extra)
    # The correction starts from the entry as stored: the director changes what was wrong.
    tab, posted = stored_entry(sub)
    context = _context(page, posted=posted)
    context.update(extra)
    context.update(_override_setup(page, tab=tab, posted=posted))
    return render(request, "scoring/submission.html", context)


def _override_setup(page: _Page, *, tab: str = "", posted: Any = None) -> dict[str, Any]:
    setup = _entry_setup(page)
    setup["identity"] = []
    setup["playing"] = setup["seats"]
    setup["defender_slots"] = _defender_slots(page, setup, {}, posted)
    return {
        "setup": setup,
        "tab": tab if tab in setup["tabs"] else setup["tabs"][0],
        "override": True,
    }


def _override_error(
    page: _Page,
    inp: EntryInput,
    errors: dict[str, str],
    general: str | None,
    status: int,
    extra: dict[str, Any],
) -> HttpResponse:
    shown = TAB_FIELDS.get(inp.mode, frozenset()) | {"reason"}
    field_errors = {k: v for k, v in errors.items() if k in shown}
    leftover = [v for k, v in errors.items() if k not in field_errors]
    if general:
        leftover.insert(0, general)
    context = _context(page, posted=page.request.POST)
    context.update(extra)
    context.update(_override_setup(page))
    context["setup"]["defender_slots"] = _defender_slots(
        page, context["setup"], field_errors, page.request.POST
    )
    context.update(tab=inp.mode, errors=field_errors, form_error=" ".join(leftover) or None)
    return render(page.request, "scoring/submission.html", context, status=status)
