"""The single DRF exception handler: application and engine errors become a 4xx with a message."""

from __future__ import annotations

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import ApplicationError
from core.i18n import engine_message
from engine.errors import EngineError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        return Response(exc.as_dict(), status=exc.status)
    if isinstance(exc, EngineError):
        return Response({"detail": engine_message(exc)}, status=400)
    return drf_exception_handler(exc, context)
