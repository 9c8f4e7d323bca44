"""CSV import of past score sheets (directors)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_serializer, inline_serializer
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import ErrorResponse
from core.errors import ApplicationError
from core.parsers import LimitedJSONParser
from core.parsing import AsciiIntegerField
from scoring.apis.common import POST_PARAMETERS, BaseApi
from scoring.idempotency import idempotent
from scoring.organiser import organiser
from scoring.services import CSV_COLUMNS, csv_import
from scoring.services.imports import CSV_REQUIRED


class ImportApi(BaseApi):
    """Import past score sheets from CSV (directors)."""

    parser_classes = [LimitedJSONParser, MultiPartParser, FormParser]

    @extend_schema_serializer(component_name="ImportInput")
    class InputSerializer(serializers.Serializer):
        csv = serializers.CharField(required=False, trim_whitespace=False)
        file = serializers.FileField(required=False)
        dry_run = serializers.BooleanField(default=False)
        event = AsciiIntegerField(
            required=False, help_text="Only matches of this event: a row of another is a problem."
        )

    @extend_schema_serializer(component_name="ImportOutput")
    class OutputSerializer(serializers.Serializer):
        dry_run = serializers.BooleanField()
        rows = AsciiIntegerField()
        stored = AsciiIntegerField()
        matches = serializers.ListField(
            child=AsciiIntegerField(),
            help_text="Ids of the matches whose hands were stored (on a dry run: would be).",
        )
        problems = inline_serializer(
            "ImportProblem",
            {
                "row": AsciiIntegerField(),
                "field": serializers.CharField(allow_null=True),
                "message": serializers.CharField(),
            },
            many=True,
        )

    @extend_schema(
        operation_id="imports_csv",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={
            200: OutputSerializer,
            201: OutputSerializer,
            400: ErrorResponse(OutputSerializer, name="ImportRefused"),
        },
        description="CSV with a header row and one row per hand. Columns: "
        + ", ".join(CSV_COLUMNS)
        + " (the header names at least "
        + ", ".join(CSV_REQUIRED)
        + "). `match` is the match id; `game` defaults to the game being played; `hand` is the "
        "hand number (each game's hands in order, from its next hand); `knocker`/`defender` a "
        "player's name or seat number (counting from 1, as on the slips and pages); then the "
        "hand by counts or by cards as in POST /api/matches/{id}/hands/ (`knocker_melds` "
        "separated by `|`). With dry_run every row is checked and every problem reported, "
        "nothing stored; without it, everything is stored confirmed or (any problem) nothing. "
        "Row numbers count the header as row 1. With `event`, a row whose match is in another "
        "event is a problem of that row; `matches` lists the ids of the matches stored.",
    )
    def post(self, request: Request) -> Response:
        actor = self.actor(request)
        if actor.user is None:
            raise ApplicationError(_("Sign in as a director to import results."), status=403)

        def run() -> Response:
            serializer = self.InputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            text = data.get("csv")
            if data.get("file") is not None:
                try:
                    text = data["file"].read().decode("utf-8-sig")
                except UnicodeDecodeError:
                    raise ApplicationError(_("The file is not UTF-8 text."), field="file") from None
            if not text:
                raise ApplicationError(_("Give the CSV as csv or file."), field="csv")
            event = None
            if data.get("event") is not None:
                event = organiser().terms_for_event(event_id=data["event"])
                if event is None:
                    raise ApplicationError(_("There is no such event."), field="event")
            report = csv_import(actor=actor, text=text, dry_run=data["dry_run"], event=event)
            body = {
                "dry_run": report.dry_run,
                "rows": report.rows,
                "stored": report.stored,
                "matches": report.matches,
                "problems": [
                    {"row": p.row, "field": p.field, "message": p.message} for p in report.problems
                ],
            }
            if report.problems:
                return Response(body, status=status.HTTP_400_BAD_REQUEST)
            return Response(body, status=200 if report.dry_run else status.HTTP_201_CREATED)

        return idempotent(request, actor=actor, handler=run)
