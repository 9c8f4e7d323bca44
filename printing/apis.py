"""Printing and exports in the API: a round's table list and slips and the check-in codes as PDF
(a director's: they hold private links), and a round's wall sheet and standings and results as
CSV or PDF (anyone's).

The answers are files, not JSON: ``application/pdf`` or ``text/csv``, documented as binary in
the schema. Errors are the usual JSON ``{detail, field}``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Protocol, TypeVar

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.views import APIView

from core.api import FORBIDDEN, INVALID, NOT_FOUND, conflict
from core.errors import ApplicationError
from core.permissions import ReadOnlyOrAuthenticated
from printing.pdf import PAPERS, Paper
from printing.services import (
    Absolute,
    checkin_cards_pdf,
    export_table_pdf,
    round_print_pdf,
    round_wall_sheet_pdf,
)
from scoring.permissions import Actor
from tournaments.models import Event, Round
from tournaments.selectors.exports import (
    ExportTable,
    csv_bytes,
    event_results_export,
    event_standings_export,
)

F = TypeVar("F", bound=Callable[..., Any])

PAPER = OpenApiParameter(
    "paper",
    str,
    enum=list(PAPERS),
    default="a4",
    description="Paper size of the PDF: a4 (default) or letter.",
)
FILE = OpenApiParameter(
    "file", str, enum=["csv", "pdf"], default="csv", description="csv (default) or pdf."
)
PDF = OpenApiResponse(OpenApiTypes.BINARY, description="A PDF document.")
CSV = OpenApiResponse(
    OpenApiTypes.BINARY, description="UTF-8 CSV with a byte-order mark and a header row."
)


def _paper(request: Request) -> Paper:
    value = str(request.query_params.get("paper") or "a4").lower()
    for paper in PAPERS:
        if value == paper:
            return paper
    raise ApplicationError(_("Paper must be a4 or letter."), field="paper")


def _file(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _event(event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("club"), pk=event_id)


class _FileApi(APIView):
    permission_classes = [ReadOnlyOrAuthenticated]

    def perform_content_negotiation(self, request: Any, force: bool = False) -> Any:
        # The answer is a file whatever the client accepts; an error falls back to JSON.
        return super().perform_content_negotiation(request, force=True)


class _PdfBuild(Protocol):
    """A printing service that builds a PDF holding private links (it refuses whoever is not one
    of the event's directors): ``round_print_pdf`` or ``checkin_cards_pdf`` with its round or
    event given."""

    def __call__(self, *, actor: Actor, absolute: Absolute, paper: Paper) -> bytes: ...


def _director_pdf(request: Request, build: _PdfBuild, name: str) -> HttpResponse:
    """The PDF ``build`` makes for the request's actor on the paper asked for, as a download
    named ``<name>-<paper>.pdf``."""
    paper = _paper(request)
    content = build(
        actor=Actor.from_request(request), absolute=request.build_absolute_uri, paper=paper
    )
    return _file(content, "application/pdf", f"{name}-{paper}.pdf")


def _director_pdf_schema(*, refused: str, description: str) -> Callable[[F], F]:
    """The schema of a director's PDF: ``refused`` is why it answers 409."""
    return extend_schema(
        parameters=[PAPER],
        responses={
            (200, "application/pdf"): PDF,
            400: INVALID,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict(refused),
        },
        description=description,
    )


class RoundPrintApi(_FileApi):
    @_director_pdf_schema(
        refused="The round has no tables yet.",
        description="The round's table list and one slip per table with each seat's private "
        "link as a QR code and the rules in brief (the event's directors only; tables where "
        "the director plays have no links on their slip).",
    )
    def get(self, request: Request, event_id: int, number: int) -> HttpResponse:
        event = _event(event_id)
        rnd = get_object_or_404(Round, event=event, number=number)
        return _director_pdf(
            request, partial(round_print_pdf, rnd=rnd), f"event-{event.pk}-round-{number}"
        )


class RoundWallSheetApi(_FileApi):
    @extend_schema(
        parameters=[PAPER],
        responses={
            (200, "application/pdf"): PDF,
            400: INVALID,
            404: NOT_FOUND,
            409: conflict("The round has no tables yet."),
        },
        description='The round\'s wall sheet, "who plays where": every player of the round by '
        "name (alphabetical) with their table, seat and opponent, in large type, for the players "
        "without a phone. Anyone may read it: it holds no link.",
    )
    def get(self, request: Request, event_id: int, number: int) -> HttpResponse:
        event = _event(event_id)
        rnd = get_object_or_404(Round, event=event, number=number)
        paper = _paper(request)
        content = round_wall_sheet_pdf(rnd=rnd, paper=paper)
        return _file(
            content, "application/pdf", f"event-{event.pk}-round-{number}-wall-sheet-{paper}.pdf"
        )


class CheckinCodesApi(_FileApi):
    @_director_pdf_schema(
        refused="Nobody has registered yet.",
        description="One card per registered player with their self check-in link as a QR "
        "code (the event's directors only).",
    )
    def get(self, request: Request, event_id: int) -> HttpResponse:
        event = _event(event_id)
        return _director_pdf(
            request, partial(checkin_cards_pdf, event=event), f"event-{event.pk}-checkin"
        )


class _TableExport(Protocol):
    """A selector of an event's export table: ``event_standings_export`` or
    ``event_results_export``."""

    def __call__(self, *, event: Event) -> ExportTable: ...


def _event_export(request: Request, event_id: int, export: _TableExport, what: str) -> HttpResponse:
    """The event's ``export`` table as CSV (the default) or PDF (``?file=pdf``, on the paper
    asked for), as a download named ``event-<id>-<what>``; anyone may read it."""
    event = _event(event_id)
    table = export(event=event)
    name = f"event-{event.pk}-{what}"
    kind = str(request.query_params.get("file") or "csv").lower()
    if kind == "csv":
        content = csv_bytes(headers=table.headers, rows=table.rows)
        return _file(content, "text/csv; charset=utf-8", f"{name}.csv")
    if kind != "pdf":
        raise ApplicationError(_("File must be csv or pdf."), field="file")
    paper = _paper(request)
    content = export_table_pdf(table=table, paper=paper, footer=event.name)
    return _file(content, "application/pdf", f"{name}-{paper}.pdf")


def _export_schema(description: str) -> Callable[[F], F]:
    """The schema of an event's export: CSV or PDF, never refused to anyone."""
    return extend_schema(
        parameters=[FILE, PAPER],
        responses={
            (200, "text/csv"): CSV,
            (200, "application/pdf"): PDF,
            400: INVALID,
            404: NOT_FOUND,
        },
        description=description,
    )


class StandingsExportApi(_FileApi):
    @_export_schema(
        "The stored standings as CSV or PDF (rank, player, match points, W-D-L, the event's "
        "tie-breaks)."
    )
    def get(self, request: Request, event_id: int) -> HttpResponse:
        return _event_export(request, event_id, event_standings_export, "standings")


class ResultsExportApi(_FileApi):
    @_export_schema(
        "Every match of the event as CSV or PDF (round, table, players, winner, the winner's "
        "margin — or the games each side won in a longer match —, how it ended, date)."
    )
    def get(self, request: Request, event_id: int) -> HttpResponse:
        return _event_export(request, event_id, event_results_export, "results")
