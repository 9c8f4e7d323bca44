"""Private links on the pages: following one (``/l/<secret>/``), and the director's links page
(every link of a match with its QR code, reissue one or all).

Following a link exchanges it for a seat session and redirects to the clean match URL, so the
secret leaves the address bar (see :mod:`scoring.links`).
"""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from core.errors import ApplicationError
from core.net import client_ip
from core.parsing import parse_ascii_int
from scoring.links import (
    LinkRefused,
    key_open,
    link_expired,
    link_url,
    secret_from,
    session_grant,
)
from scoring.models import Match, MatchKey
from scoring.organiser import organiser
from scoring.permissions import Access, Actor, link_refused_error, match_access
from scoring.selectors import match_prefetched
from scoring.services import match_keys_ensure, match_links_reissue
from scoring.views.refusals import link_refused_page


def _qr(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=4, omitsize=True, dark="#1d2327")


def link_cards(
    request: HttpRequest, match: Match, access: Access, *, everyone: bool
) -> list[dict[str, Any]]:
    """The links to show with their QR codes: every link (``everyone``: a director not playing
    at the match) or only the visitor's own seat's."""
    if not everyone and not access.identities:
        return []
    keys = match_keys_ensure(match=match)
    names = {s.position: s.player.name for s in match.seats.all()}
    out = []
    for position, key in keys.items():
        if position is None:
            if not everyone:
                continue
            name = _("Table link (a shared phone)")
        else:
            if not everyone and position not in access.identities:
                continue
            name = names.get(position, "")
        url = link_url(request, key)
        out.append({"name": name, "position": position, "url": url, "svg": mark_safe(_qr(url))})
    return out


@require_GET
def link_visit(request: HttpRequest, secret: str) -> HttpResponse:
    """Follow a private link given in the path (``/l/<secret>/``)."""
    return _exchange(request, secret)


@require_http_methods(["GET", "POST"])
def link_open(request: HttpRequest) -> HttpResponse:
    """``/l/#<secret>``: the page's script posts the fragment here (or the holder pastes it)."""
    if request.method != "POST":
        return render(request, "scoring/link_open.html")
    return _exchange(request, secret_from(request.POST.get("secret") or ""))


def _exchange(request: HttpRequest, secret: str) -> HttpResponse:
    """Remember the link's seat in this browser, then go to the match (404 for a bad link)."""
    try:
        key: MatchKey = key_open(secret=secret, ip=client_ip(request))
    except LinkRefused as refused:
        return link_refused_page(request, link_refused_error(refused))
    target = reverse("match-detail", args=[key.match_id])
    if link_expired(key.match):
        messages.info(
            request, _("This link has expired: the match is over. Its score sheet stays here.")
        )
        return HttpResponseRedirect(target)
    session_grant(request.session, key)
    response = HttpResponseRedirect(target)
    response["Referrer-Policy"] = "no-referrer"
    return response


@require_http_methods(["GET", "POST"])
def match_links_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A director's view of a match's links: print them, or revoke and reissue them."""
    try:
        match = match_prefetched(match_id=pk)
    except Match.DoesNotExist:
        raise Http404 from None
    actor = Actor.from_request(request)
    access = match_access(actor=actor, match=match)
    if not access.can_view:
        raise Http404
    if not access.neutral_director:
        message = _("Only a director not playing at this table sees and reissues its links.")
        raise PermissionDenied(message)
    if request.method == "POST":
        which = (request.POST.get("reissue") or "").strip()
        positions: list[int | None] | None
        if which == "all":
            positions = None
        elif which == "table":
            positions = [None]
        else:
            seat = parse_ascii_int(which)
            if seat is None:
                messages.error(request, _("Choose which link to reissue."))
                return HttpResponseRedirect(reverse("match-links", args=[pk]))
            positions = [seat]
        try:
            match_links_reissue(match=match, actor=actor, positions=positions)
        except ApplicationError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request, _("Reissued: the old link no longer works. Print or show the new one.")
            )
        return HttpResponseRedirect(reverse("match-links", args=[pk]))
    context = {
        "match": match,
        "event": organiser().terms_for(match=match),
        "links": link_cards(request, match, access, everyone=True),
    }
    return render(request, "scoring/links.html", context)
