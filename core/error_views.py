"""Django's error handlers: JSON on the API, pages elsewhere.

``config/urls.py`` names these as ``handler400``/``403``/``404``/``500`` and the settings as
``CSRF_FAILURE_VIEW``. Under ``/api/`` every error Django itself answers (a bad Host, a CSRF
failure, an unknown address, a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``, an unhandled exception)
is ``{"detail": ..., "field"?: ...}`` like the DRF exception handler's (core/api.py); elsewhere it
is the site's own page in the reader's language, saying what happened and what to do: ``400.html``,
``403.html`` and ``404.html`` in the site's layout (header, language switch, ``<main>``), and
``500.html`` or ``core/error.html`` (a 413, a 503, a form that could not be read) standing alone.

A lost database connection anywhere (a view, a middleware) is a 503 with ``Retry-After``, not a
500: :func:`database_unavailable` is shared with ``core.middleware.DatabaseUnavailableMiddleware``.
The 500 and standalone pages touch neither the database nor the session nor the user: they may be
what failed. They are drawn without context processors, in the request's language (or its
``Accept-Language``), with a CSRF token from the cookie for the language switch.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"
# Seconds a client is asked to wait before trying again after a lost database connection.
DATABASE_RETRY_AFTER = 5


def is_api(request: HttpRequest) -> bool:
    """Whether ``request`` is for the API (answered in JSON)."""
    return (request.path_info or request.path or "").startswith(API_PREFIX)


def error_response(
    request: HttpRequest,
    *,
    status: int,
    detail: str,
    field: str | None = None,
    headers: dict[str, str] | None = None,
) -> HttpResponse:
    """``{"detail", "field"?}`` with ``status`` on the API; a short page elsewhere.

    The JSON is ASCII-escaped and the page is built without the request's context (no session,
    user or database), so neither can fail on what it shows."""
    if is_api(request):
        body: dict[str, Any] = {"detail": detail}
        if field is not None:
            body["field"] = field
        return JsonResponse(body, status=status, headers=headers)
    return standalone_page(request, status=status, detail=detail, headers=headers)


def reader_language(request: HttpRequest) -> str:
    """The language the page is read in: what LocaleMiddleware chose for the request, else the
    language cookie or ``Accept-Language`` (never the session)."""
    chosen = getattr(request, "LANGUAGE_CODE", None)
    if chosen:
        return str(chosen)
    return translation.get_language_from_request(request)


def _standalone_titles() -> dict[int, str]:
    return {
        400: _("This request could not be read"),
        413: _("Too much was sent at once"),
        500: _("Something went wrong on our side"),
        503: _("Knock is busy for a moment"),
    }


def standalone_page(
    request: HttpRequest,
    *,
    status: int,
    detail: str = "",
    template: str = "core/error.html",
    headers: dict[str, str] | None = None,
) -> HttpResponse:
    """A page that stands alone (no context processors: no database, session or user), with
    the site's header, language switch and ``<main>``, in the reader's language."""
    with translation.override(reader_language(request)):
        # From the CSRF cookie (never the session): the language switch posts it.
        token = get_token(request)
        context = {
            "status": status,
            "title": _standalone_titles().get(status, str(status)),
            "detail": str(detail),
            "csrf_token": token,
            "next_path": request.get_full_path(),
        }
        page = render_to_string(template, context)
    return HttpResponse(page, status=status, headers=headers)


def _site_page(
    request: HttpRequest, template: str, *, status: int, context: dict[str, Any] | None = None
) -> HttpResponse:
    """A page in the site's layout; if drawing it fails (the session or the database being what
    is wrong), the standalone page with the same status instead."""
    try:
        return render(request, template, context or {}, status=status)
    except Exception:  # an error page must not fail into a second error
        logger.exception("Error page %s could not be drawn in the site's layout", template)
        return standalone_page(request, status=status)


def is_database_unavailable(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database cannot be reached (a lost or refused connection)."""
    return isinstance(exc, OperationalError | InterfaceError)


def database_unavailable(request: HttpRequest, exc: BaseException) -> HttpResponse:
    """503 with ``Retry-After`` for a database that cannot be reached while answering."""
    logger.warning("Database unavailable for %s %s: %s", request.method, request.path, exc)
    return error_response(
        request,
        status=503,
        detail=_("The database is unavailable for a moment. Please try again shortly."),
        headers={"Retry-After": str(DATABASE_RETRY_AFTER)},
    )


def request_too_large(request: HttpRequest) -> HttpResponse:
    return error_response(request, status=413, detail=_("The request body is too large."))


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):
        return request_too_large(request)
    if is_api(request):
        return error_response(request, status=400, detail=_("Bad request."))
    return _site_page(request, "400.html", status=400)


def _exception_message(exception: Exception | None) -> str:
    """The message a ``PermissionDenied(message)`` was raised with ("" when it has none)."""
    if exception is None or not exception.args:
        return ""
    first = exception.args[0]
    return str(first) if isinstance(first, str) else ""


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return error_response(
            request, status=403, detail=_("You do not have permission to do this.")
        )
    return forbidden_page(request, _exception_message(exception))


def forbidden_page(request: HttpRequest, message: str = "") -> HttpResponse:
    """403: what was refused, who is signed in, and a way to sign in as someone else."""
    return _site_page(request, "403.html", status=403, context={"message": message})


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return error_response(request, status=404, detail=_("Not found."))
    return _site_page(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    # Django calls this inside its ``except`` block: the exception is the one being handled.
    exc = sys.exc_info()[1]
    # In the request's language even when the error came before LocaleMiddleware chose it.
    with translation.override(reader_language(request)):
        if is_database_unavailable(exc):
            assert exc is not None
            return database_unavailable(request, exc)
        if is_api(request):
            return error_response(
                request,
                status=500,
                detail=_("Something went wrong on the server. Please try again."),
            )
        return standalone_page(request, status=500, template="500.html")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if is_api(request):
        return error_response(
            request,
            status=403,
            detail=_("The security check (CSRF) failed: reload the page and try again."),
        )
    return forbidden_page(
        request, _("The security check (CSRF) failed: reload the page and try again.")
    )
