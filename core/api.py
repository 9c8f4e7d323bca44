"""The single DRF exception handler, and the schema of the error bodies it sends.

Application and engine errors become a 4xx ``{"detail", "field"?}``; input a serializer refuses
is DRF's ``{"<field>": ["message", ...]}``; a number too large for the database is a 400 too,
never a server error.
"""

from __future__ import annotations

from typing import Any

from django.db import DataError
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import ApplicationError
from core.i18n import engine_message
from engine.errors import EngineError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        return Response(exc.as_dict(), status=exc.status, headers=exc.headers)
    if isinstance(exc, EngineError):
        return Response({"detail": engine_message(exc)}, status=400)
    if isinstance(exc, OverflowError | DataError):
        # A number (an id, a count) beyond what the database stores: the input is at fault.
        return Response({"detail": _("A number in the request is out of range.")}, status=400)
    return drf_exception_handler(exc, context)


VALIDATION_ERRORS = {
    "type": "object",
    "description": "Input that does not parse: each field at fault with its messages (nested "
    "as the input is), or `non_field_errors`.",
    "minProperties": 1,
    "additionalProperties": {},
}


class ErrorResponse(serializers.Serializer[Any]):
    """Documentation only: a 4xx body that is either ``shape`` (what the service reports) or
    the input's field errors (:data:`VALIDATION_ERRORS`), as the component ``name``."""

    def __init__(self, shape: Any, *, name: str, **kwargs: Any) -> None:
        self.shape = shape
        self.component_name = name
        super().__init__(**kwargs)


class ErrorResponseExtension(OpenApiSerializerExtension):
    target_class = ErrorResponse

    def get_name(self, auto_schema: Any, direction: Any) -> str:
        return str(self.target.component_name)

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        shape = auto_schema.resolve_serializer(self.target.shape, direction)
        return {"anyOf": [shape.ref, VALIDATION_ERRORS]}


# -- live versions ---------------------------------------------------------------------------------

VERSION_HEADERS = {
    # Every poll asks again (no-cache), but a client that sends If-None-Match with the ETag it
    # holds gets an empty 304: a few dozen bytes per poll while nothing changes.
    "Cache-Control": "no-cache",
}


def etag_matches(sent: str, etag: str) -> bool:
    """Whether an ``If-None-Match`` header (``sent``) names ``etag`` (or is ``*``)."""
    return etag in {tag.strip() for tag in sent.split(",")} or sent.strip() == "*"


def version_response(request: Any, *, version: int, poll_ms: int) -> Response:
    """``{"version", "poll_ms"}`` with a strong ETag of the version, or 304 when the client's
    ``If-None-Match`` already names it. ``poll_ms`` is how often the server asks to be polled."""
    etag = f'"{version}"'
    headers = {**VERSION_HEADERS, "ETag": etag}
    if etag_matches(request.headers.get("If-None-Match") or "", etag):
        return Response(status=304, headers=headers)
    return Response({"version": version, "poll_ms": poll_ms}, headers=headers)
