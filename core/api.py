"""The single DRF exception handler, and the schema of the error bodies it sends.

Application and engine errors become a 4xx ``{"detail", "field"?}``; input a serializer refuses
is DRF's ``{"<field>": ["message", ...]}``; a number too large for the database is a 400 too,
never a server error.
"""

from __future__ import annotations

from typing import Any

from django.db import DataError
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import quote_etag
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse, inline_serializer
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


ERROR = ErrorResponse(
    inline_serializer(
        "ApplicationError",
        {
            "detail": serializers.CharField(),
            "field": serializers.CharField(required=False),
            "stored": serializers.JSONField(required=False),
        },
    ),
    name="Error",
)
"""Every app's 4xx body: an ``ApplicationError`` (``{"detail", "field"?, "stored"?}``) or the
input's field errors."""

# The error responses the director endpoints document. A service's ApplicationError is
# ``{"detail", "field"?}``; input the serializer refuses is ``{"<field>": ["message", ...]}``.
INVALID = OpenApiResponse(
    ERROR,
    description="Invalid input: {detail, field} from a service, or {<field>: [messages]} when "
    "the input does not parse.",
)
FORBIDDEN = OpenApiResponse(
    ERROR, description="Not signed in, or signed in without the role this needs."
)
NOT_FOUND = OpenApiResponse(ERROR, description="No such object.")


def conflict(description: str) -> OpenApiResponse:
    """A 409: the request clashes with what is stored (``field`` names the input at fault)."""
    return OpenApiResponse(ERROR, description=description)


# -- live versions ---------------------------------------------------------------------------------


def conditional(request: Any, response: HttpResponse, *, etag: str) -> HttpResponse:
    """``response`` with ``etag`` and ``Cache-Control: no-cache``, or Django's empty ``304``
    carrying both when the client's ``If-None-Match`` already names it
    (:func:`django.utils.cache.get_conditional_response`). Every poll asks again (no-cache), but
    a client that sends the ETag it holds gets a few dozen bytes per poll while nothing changes.
    ``request`` is Django's or DRF's (which reads the same headers)."""
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    answer = get_conditional_response(request, etag=etag, response=response)
    return answer if answer is not None else response


def version_etag(version: int) -> str:
    """The strong ETag of a live version: the number in quotes."""
    return quote_etag(str(version))


def version_response(request: Any, *, version: int, poll_ms: int) -> HttpResponse:
    """``{"version", "poll_ms"}`` with the version's ETag, or 304 when the client's
    ``If-None-Match`` already names it. ``poll_ms`` is how often the server asks to be polled."""
    body = Response({"version": version, "poll_ms": poll_ms})
    return conditional(request, body, etag=version_etag(version))
