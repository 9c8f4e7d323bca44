"""Request-wide guards: form text that is not valid Unicode, and a lost database connection.

:class:`RequestTextMiddleware` gives form posts the check the API's JSON parser gives JSON
(core/parsers.py): a field or value that UTF-8 cannot encode (a lone surrogate, which a form
can carry when it declares a charset such as ``unicode_escape`` or ``utf-7``) is a 400 naming
the field, before any view, service or template meets it. A body Django cannot read as a form
is a 400 too, and one over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` a 413.

:class:`DatabaseUnavailableMiddleware` turns a lost or refused database connection raised by a
view into a 503 with ``Retry-After``; ``handler500`` (core/error_views.py) does the same for one
raised by a middleware.

:class:`HealthCheckMiddleware` answers ``/healthz`` before any other middleware.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext as _

from core.error_views import database_unavailable, error_response, is_database_unavailable
from core.parsers import is_unencodable, printable_key, unencodable_error
from core.views import healthz

FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def unencodable_field(request: HttpRequest) -> str | None:
    """The name of the first query or form field whose name or value UTF-8 cannot encode."""
    sources = [request.GET]
    if request.method == "POST" and request.content_type in FORM_TYPES:
        sources.append(request.POST)
    for source in sources:
        for key, values in source.lists():
            if is_unencodable(key) or any(is_unencodable(str(v)) for v in values):
                return printable_key(key)
    if request.method == "POST" and request.content_type == "multipart/form-data":
        for key, files in request.FILES.lists():
            if is_unencodable(key) or any(is_unencodable(f.name or "") for f in files):
                return printable_key(key)
    return None


class RequestTextMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            field = unencodable_field(request)
        except MultiPartParserError:
            return error_response(request, status=400, detail=_("The form data could not be read."))
        if field is not None:
            body = unencodable_error(field)
            return error_response(request, status=400, detail=body["detail"], field=field)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        # A safety net: text from the request that reached a response it cannot be encoded in.
        if isinstance(exception, UnicodeEncodeError) and is_unencodable(str(exception.object)):
            return error_response(
                request,
                status=400,
                detail=_("The request holds text that is not valid Unicode; send it as UTF-8."),
            )
        return None


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_database_unavailable(exception):
            return database_unavailable(request, exception)
        return None


# The health check's path (config/urls.py routes it to core.views.healthz as well).
HEALTH_PATH = "/healthz"


class HealthCheckMiddleware:
    """Answers ``GET /healthz`` first, whatever the host and the scheme.

    A load balancer probes each machine by its address (``Host: 10.0.0.5``) over plain HTTP:
    Django's host check would refuse it with 400 and ``SECURE_SSL_REDIRECT`` send it to HTTPS,
    so no probe could pass. Placed first in ``MIDDLEWARE``, this answers that path before either
    runs (it never reads the host), with the health view's own answer; every other request goes
    on as before. The health body names no secret, and is public over HTTPS already.
    ``/api/health/`` (the same body through the API) stays an API view, host-checked but exempt
    from the redirect (``SECURE_REDIRECT_EXEMPT``).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == HEALTH_PATH and request.method in ("GET", "HEAD"):
            return healthz(request)
        return self.get_response(request)
