"""Exchange a private link in the address (``?k=<secret>``) for a seat session.

A page visited with ``?k=`` (an old-style link, or one typed by hand) gets the secret taken out
of the address at once: a valid one is remembered in the session (see
:func:`scoring.links.session_grant`) and a GET is redirected to the same URL without it; an
invalid or revoked one answers 404 and counts against the source address (429 after a burst).
The API does not read ``?k=``: API clients send the ``X-Match-Key`` header.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect

from core.errors import ApplicationError
from scoring.links import LINK_PARAM, bad_secret_note, key_find, session_grant
from scoring.permissions import client_ip, link_gate


class MatchLinkMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if LINK_PARAM in request.GET and not request.path.startswith("/api/"):
            response = self._exchange(request)
            if response is not None:
                return response
        return self.get_response(request)

    def _exchange(self, request: HttpRequest) -> HttpResponse | None:
        secret = request.GET.get(LINK_PARAM, "")
        try:
            link_gate(request)
        except ApplicationError as exc:
            return HttpResponse(exc.message, status=429, content_type="text/plain; charset=utf-8")
        key = key_find(secret=secret)
        if key is None:
            bad_secret_note(client_ip(request))
            raise Http404
        session_grant(request.session, key)
        if request.method in ("GET", "HEAD"):
            rest = request.GET.copy()
            rest.pop(LINK_PARAM, None)
            query = urlencode(list(rest.lists()), doseq=True)
            return HttpResponseRedirect(request.path + (f"?{query}" if query else ""))
        return None
