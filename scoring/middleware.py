"""Exchange a private link in the address (``?k=<secret>``) for a seat session.

A page visited with ``?k=`` (an old-style link, or one typed by hand) gets the secret taken out
of the address at once: a valid one is remembered in the session (see
:func:`scoring.links.session_grant`) and a GET is redirected to the same URL without it; an
invalid or revoked one answers 404 and counts against the client's address (429 after a burst;
a valid link always opens).
The API does not read ``?k=``: API clients send the ``X-Match-Key`` header.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from core.net import client_ip
from scoring.links import LINK_PARAM, LinkRefused, key_open, session_grant
from scoring.permissions import link_refused_error
from scoring.views.refusals import link_refused_page


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
            key = key_open(secret=secret, ip=client_ip(request))
        except LinkRefused as refused:
            return link_refused_page(request, link_refused_error(refused))
        session_grant(request.session, key)
        if request.method in ("GET", "HEAD"):
            rest = request.GET.copy()
            rest.pop(LINK_PARAM, None)
            query = urlencode(list(rest.lists()), doseq=True)
            return HttpResponseRedirect(request.path + (f"?{query}" if query else ""))
        return None
