"""The page a browser sees when a private link is refused: what happened and what to do."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.errors import ApplicationError

# Set on the answer to an entry sent from a page whose link no longer works (replaced, or the
# seat session gone): static/js/offline.js keeps the entry on the phone when it reads it.
CREDENTIAL_HEADER = "X-Knock-Credential"
CREDENTIAL_GONE = "gone"


def link_refused_page(request: HttpRequest, error: ApplicationError) -> HttpResponse:
    """A 404 (replaced or unknown link) or 429 (too many invalid links) page, in the site's
    layout and the reader's language, with the form to paste a link again."""
    response = render(
        request,
        "scoring/link_refused.html",
        {"error": error, "throttled": error.status == 429},
        status=error.status,
    )
    for name, value in error.headers.items():
        response[name] = value
    response["Referrer-Policy"] = "no-referrer"
    return response


def link_gone_page(request: HttpRequest) -> HttpResponse:
    """404 for an entry sent from a match page whose private link was replaced (or whose seat
    session is gone): nothing is stored; the page says how to go on, and the header tells the
    page's script to keep the entry on the phone until the new link is opened."""
    error = ApplicationError(
        _(
            "The link this page was opened with no longer works: a director replaced it. "
            "Nothing was stored. Ask the director for your new link and open it on this phone."
        ),
        status=404,
    )
    response = link_refused_page(request, error)
    response[CREDENTIAL_HEADER] = CREDENTIAL_GONE
    return response
