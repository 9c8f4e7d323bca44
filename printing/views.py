"""Printing and exports on the pages: a round's table list and slips, check-in cards (a
director's: they hold private links), and standings and results as CSV or PDF (anyone's).

The event's page links here (``templates/tournaments/_print_links.html``); the files are built
by :mod:`printing.services` (slips and cards) and :mod:`printing.pdf` from tournaments' selectors.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from core.errors import ApplicationError
from printing.pdf import PAPERS, Paper
from printing.services import (
    checkin_cards_pdf,
    export_table_pdf,
    round_print_pdf,
    round_wall_sheet_pdf,
)
from scoring.permissions import Actor
from tournaments.models import Event, Round
from tournaments.selectors.exports import (
    csv_bytes,
    event_results_export,
    event_standings_export,
)


def _event(pk: int) -> Event:
    return get_object_or_404(Event.objects.select_related("club", "league"), pk=pk)


def _paper(request: HttpRequest) -> Paper | None:
    value = (request.GET.get("paper") or "a4").lower()
    for paper in PAPERS:
        if value == paper:
            return paper
    return None


def file_response(content: bytes, *, content_type: str, filename: str) -> HttpResponse:
    """A download: ``inline`` for a PDF (opens in the browser's viewer), ``attachment`` for CSV."""
    response = HttpResponse(content, content_type=content_type)
    disposition = "inline" if content_type == "application/pdf" else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _private_pdf(request: HttpRequest, event: Event, build: str, number: int = 0) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    paper = _paper(request)
    if paper is None:
        return HttpResponse(_("Paper must be a4 or letter."), status=400, content_type="text/plain")
    actor = Actor.from_request(request)
    try:
        if build == "round":
            rnd = get_object_or_404(Round, event=event, number=number)
            content = round_print_pdf(
                rnd=rnd, actor=actor, absolute=request.build_absolute_uri, paper=paper
            )
            name = f"{slugify(event.name) or 'event'}-round-{number}-{paper}.pdf"
        else:
            content = checkin_cards_pdf(
                event=event, actor=actor, absolute=request.build_absolute_uri, paper=paper
            )
            name = f"{slugify(event.name) or 'event'}-checkin-{paper}.pdf"
    except ApplicationError as exc:
        if exc.status == 403:
            # the site's 403 page with the refusal (``handler403``, core/error_views.py)
            raise PermissionDenied(exc.message) from exc
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain")
    return file_response(content, content_type="application/pdf", filename=name)


@require_GET
def round_print(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The round's table list and one slip per table (``?paper=a4`` or ``letter``)."""
    return _private_pdf(request, _event(pk), "round", number)


@require_GET
def round_wall_sheet(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The round's wall sheet: every player by name with their table and seat (anyone's: it
    shows what the round's pairings show)."""
    event = _event(pk)
    rnd = get_object_or_404(Round, event=event, number=number)
    paper = _paper(request)
    if paper is None:
        return HttpResponse(_("Paper must be a4 or letter."), status=400, content_type="text/plain")
    try:
        content = round_wall_sheet_pdf(rnd=rnd, paper=paper)
    except ApplicationError as exc:
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain")
    name = f"{slugify(event.name) or 'event'}-round-{number}-who-plays-where-{paper}.pdf"
    return file_response(content, content_type="application/pdf", filename=name)


@require_GET
def checkin_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """The players' self check-in codes, one card each."""
    return _private_pdf(request, _event(pk), "checkin")


@require_GET
def event_export(request: HttpRequest, pk: int, what: str, fmt: str) -> HttpResponse:
    """Standings or results as CSV or PDF."""
    event = _event(pk)
    if what == "standings":
        table = event_standings_export(event=event)
    elif what == "results":
        table = event_results_export(event=event)
    else:
        raise Http404
    base = f"{slugify(event.name) or 'event'}-{what}"
    if fmt == "csv":
        return file_response(
            csv_bytes(headers=table.headers, rows=table.rows),
            content_type="text/csv; charset=utf-8",
            filename=base + ".csv",
        )
    if fmt != "pdf":
        raise Http404
    paper = _paper(request)
    if paper is None:
        return HttpResponse(_("Paper must be a4 or letter."), status=400, content_type="text/plain")
    content = export_table_pdf(table=table, paper=paper, footer=event.name)
    return file_response(content, content_type="application/pdf", filename=f"{base}-{paper}.pdf")
