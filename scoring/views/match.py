"""The match page and its live fragment, hand entry, confirmation and withdrawal, and a
submission's own page (with the director's override). A visitor without access to the match
sees the confirmed score sheet only."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import ApplicationError
from core.i18n import engine_message
from core.live import keep_drawing, kept_drawing
from core.parsing import parse_ascii_int
from engine.errors import EngineError
from scoring.forms import (
    TAB_FIELDS,
    EntryInput,
    read_entry,
)
from scoring.idempotency import page_idempotent
from scoring.links import session_keys
from scoring.models import HandSubmission
from scoring.permissions import Actor
from scoring.selectors import (
    hand_history,
)
from scoring.selectors.changes import match_version_stamp
from scoring.services import (
    hand_confirm,
    hand_override,
    hand_submit,
    hand_withdraw,
)
from scoring.views.history import history_lines, stored_entry, version_rows
from scoring.views.match_context import (
    OUTCOME_LABELS,
    MatchPage,
    entry_setup,
    gem_defender_slots,
    match_page_context,
    match_status,
    refused_page,
)
from scoring.views.refusals import link_gone_page

# -- pages -----------------------------------------------------------------------------------


def match_page(request: HttpRequest, pk: int) -> HttpResponse:
    page = MatchPage(request, pk)
    return render(
        request, "scoring/match.html", match_page_context(page, tab=request.GET.get("tab"))
    )


def match_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The page's live regions alone (scoreboard, pending entry, entry form, score sheet) and
    the last change in words: what static/js/live.js swaps in when the version moved. Every
    spectator of a table sees the same regions at a version: a process draws them once per
    version (core.live.kept_drawing)."""
    actor = Actor.from_request(request)
    spectator = actor.user is None and not actor.token and not actor.key_ids
    key = f"match-live:{pk}:{get_language() or ''}"
    version = match_version_stamp(match_id=pk) if spectator else None
    content = kept_drawing(key=key, version=version) if version is not None else None
    if content is None:
        page = MatchPage(request, pk)
        if str(pk) in session_keys(getattr(request, "session", None)) and page.link_replaced:
            # Opened with a link replaced since: the page must not quietly turn into a
            # spectator's (the entry form gone); static/js/live.js says so and stops.
            return link_gone_page(request)
        # The private links (QR codes) are not among the live regions: not drawn each poll.
        content = render(
            request, "scoring/_live.html", match_page_context(page, links=False)
        ).content
        if version is not None:
            keep_drawing(key=key, version=version, content=content)
    response = HttpResponse(content)
    response["Cache-Control"] = "no-store"
    return response


def _entry_error(
    page: MatchPage,
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
    context = match_page_context(
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
    """Enter a hand. Sent again with the same ``Idempotency-Key`` (static/js/offline.js, after
    a lost answer) it is stored once; an entry that lost a race is told which entry was kept.
    Sent from a page whose link was replaced since (or whose seat session is gone), it is
    refused with the marker that lets the page keep the entry (:func:`link_gone_page`)."""
    page = MatchPage(request, pk)
    if not page.access.can_view:
        if page.link_replaced:
            return link_gone_page(request)
        raise Http404
    return page_idempotent(request, actor=page.actor, handler=lambda: _hand_submit(page))


def _race(page: MatchPage, inp: EntryInput, exc: ApplicationError) -> HttpResponse:
    """409: this hand already has an entry (waiting or recorded): say whose was kept, and
    show it, instead of the form."""
    kept = exc.extra["stored"]
    sub = HandSubmission.objects.filter(pk=kept.get("id")).first()
    user = page.actor.user
    mine = sub is not None and (
        (user is not None and sub.submitted_by_user_id == user.pk)
        or any(
            page.access.players[p].pk == sub.submitted_by_player_id
            for p in page.access.identities
            if p in page.access.players
        )
    )
    who = kept.get("submitted_by") or {}
    status = str(kept.get("status") or "")
    race = {
        "id": kept.get("id"),
        "detail": exc.message,
        "hand_number": kept.get("hand_number"),
        "mine": mine,
        "who": who.get("player") or who.get("user") or _("a director"),
        "outcome_label": OUTCOME_LABELS.get(kept.get("outcome"), kept.get("outcome")),
        "winner_name": page.state.name_of(kept.get("winner")),
        "points": kept.get("points"),
        "status_label": HandSubmission.Status(status).label
        if status in HandSubmission.Status.values
        else status,
        "open": status in (HandSubmission.Status.PENDING, HandSubmission.Status.DISPUTED),
    }
    context = match_page_context(page, tab=inp.mode)
    context["race"] = race
    return render(page.request, "scoring/match.html", context, status=409)


def _hand_submit(page: MatchPage) -> HttpResponse:
    request = page.request
    inp = read_entry(request.POST, positions=[s.position for s in page.state.seats])
    if inp.entry is None:
        return _entry_error(page, inp, inp.errors, None, 400)
    raw_number = (request.POST.get("hand_number") or "").strip()
    hand_number = parse_ascii_int(raw_number) if raw_number else None
    try:
        hand_submit(
            match=page.match,
            actor=page.actor,
            entry=inp.entry,
            as_position=inp.as_position,
            hand_number=hand_number,
        )
    except ApplicationError as exc:
        if exc.status == 404:
            raise Http404 from None
        if exc.status == 409 and exc.extra.get("stored"):
            return _race(page, inp, exc)
        fields = {exc.field: exc.message} if exc.field else {}
        return _entry_error(page, inp, fields, None if fields else exc.message, match_status(exc))
    except EngineError as exc:
        return _entry_error(page, inp, {}, engine_message(exc), 400)
    return page.back("#pending")


def _as_position(request: HttpRequest) -> int | None:
    raw = (request.POST.get("as_position") or "").strip()
    return parse_ascii_int(raw)


@require_POST
def submission_confirm_view(request: HttpRequest, pk: int, sid: int) -> HttpResponse:
    page = MatchPage(request, pk)
    if page.link_replaced:
        return link_gone_page(request)
    sub = page.submission(sid)
    try:
        hand_confirm(submission=sub, actor=page.actor, as_position=_as_position(request))
    except ApplicationError as exc:
        if exc.status == 404:
            raise Http404 from None
        if exc.status == 403:
            return refused_page(page, exc)
        messages.error(request, exc.message)
        return page.back("#pending")
    messages.success(request, _("Hand %(n)s confirmed.") % {"n": sub.hand.number})
    if request.POST.get("next") == "disputes":
        return HttpResponseRedirect(reverse("event-disputes", args=[page.match.event_id]))
    return page.back("#sheet")


@require_POST
def submission_withdraw_view(request: HttpRequest, pk: int, sid: int) -> HttpResponse:
    page = MatchPage(request, pk)
    if page.link_replaced:
        return link_gone_page(request)
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
    page = MatchPage(request, pk)
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
            raise PermissionDenied(message)
        context = match_page_context(page)
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
                return _override_error(page, inp, errors, general, match_status(exc), extra)
            except EngineError as exc:
                return _override_error(page, inp, errors, engine_message(exc), 400, extra)
            messages.success(request, _("Hand %(n)s corrected.") % {"n": sub.hand.number})
            return page.back("#sheet")
        return _override_error(page, inp, errors, None, 400, extra)
    # The correction starts from the entry as stored: the director changes what was wrong.
    tab, posted = stored_entry(sub)
    context = match_page_context(page, posted=posted)
    context.update(extra)
    context.update(_override_setup(page, tab=tab, posted=posted))
    return render(request, "scoring/submission.html", context)


def _override_setup(page: MatchPage, *, tab: str = "", posted: Any = None) -> dict[str, Any]:
    setup = entry_setup(page)
    setup["identity"] = []
    setup["playing"] = setup["seats"]
    setup["defender_slots"] = gem_defender_slots(page, setup, {}, posted)
    return {
        "setup": setup,
        "tab": tab if tab in setup["tabs"] else setup["tabs"][0],
        "override": True,
    }


def _override_error(
    page: MatchPage,
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
    context = match_page_context(page, posted=page.request.POST)
    context.update(extra)
    context.update(_override_setup(page))
    context["setup"]["defender_slots"] = gem_defender_slots(
        page, context["setup"], field_errors, page.request.POST
    )
    context.update(tab=inp.mode, errors=field_errors, form_error=" ".join(leftover) or None)
    return render(page.request, "scoring/submission.html", context, status=status)
