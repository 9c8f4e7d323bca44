"""Version polls answered before the rest of the middleware (docs/live.md).

Every open match or event page asks for its version every couple of seconds: at a club night of
50 tables and 200 spectators that is about 150 requests a second, nearly all answered ``304``.
Through the whole stack each one also paid for the session, locale, CSRF, authentication,
messages, CSP, history, private-link and sign-in-throttle middleware and for DRF's
authentication, negotiation and rendering, none of which a public version needs.
:class:`LiveVersionMiddleware`, placed right after ``SecurityMiddleware``, answers a plain
``GET`` of a version URL itself: the host is checked as everywhere else, the version is read
from the database (the same selector the API view calls, so it is as current as the view's),
and the answer is the view's: ``{"version", "poll_ms"}`` with ``ETag`` and
``Cache-Control: no-cache``, or an empty ``304`` while the client's ``If-None-Match`` names it.

The pages themselves (static/js/live.js) poll their live regions, not the version: ``GET
/matches/{id}/live/`` (or the event's) with ``If-None-Match`` naming the version the page shows is
answered here with an empty ``304`` while that version is current, in the same one query; when
it moved, the request goes on down and the regions come back in the same answer, so a change
costs a phone one request instead of two, and reaches it one request sooner. Every answer to such
a poll says how often to poll (``X-Live-Poll-Ms``).

Anything else goes down the full stack unchanged: another method, a query string (``?format=``),
an ``Authorization`` header (a bad token must still be refused as the API refuses it), and an
unknown id (the API's own 404 body).

:class:`LiveFragmentMiddleware` shares the live regions drawn for spectators between the web
server's processes. The views already draw a spectator's regions once per version, but once per
process: with two processes every change was drawn twice. A spectator's regions are the same for
every visitor without a session, a key or a token (in the same language), so the first process
to draw a version keeps it in the cache every process shares (``CACHES["default"]``: a file
cache by default, Redis with ``CACHE_URL``), and a spectator asking for that version again is
answered from it before the session, auth and CSRF layers. What is kept is served for the version
it shows (its ``data-live-version``, compared with the version read from the database for each
request), or to a request that read its version before the drawing began, so nobody is served an
older table than the view would draw; a response that sets a cookie or carries a form's CSRF
token is never kept. The cache is a help, never a need: while it cannot be reached (Redis down),
each spectator's regions are drawn by the view for that request alone, as without this
middleware, and the cache is used again as soon as it answers.

At a busy event the version moves faster than spectators poll (every entry and confirmation of 50
tables), so nearly every spectator's fetch asked for a version nobody had drawn yet, and
spectators who asked at the same moment each drew it: at 50 tables, 339 of 351 fetches of the
event's regions drew them. Now one thread of all the processes draws a page's regions at a time
(a lock in the shared cache). A spectator who finds a drawing under way sleeps until one lands
that began after they read their version (or shows it), and draws only when the drawer is gone
(the lock lapses after ``DRAW_LOCK``) or after ``DRAW_WAIT``. The drawings of a page are paced
for all the processes together, at most one every ``DRAW_EVERY``: a spectator who asks for a newer
version sooner sleeps until the next drawing may begin, and that drawing shows the version
current when it begins (the view is told, ``DRAWER``, not to serve an older one). "Began after"
compares the processes' clocks (``time.time``): one host's, or several hosts' kept in step by
NTP, where a skew of s seconds can serve a drawing s seconds older than the version read, which
the next poll mends.

Behind a proxy (deploy/nginx/knock.conf) neither middleware is asked for a spectator's "nothing
changed". What every visitor without a session sees alike (the versions, the live regions, the
public pages named in ``KNOCK_LIVE_PUBLIC_PAGES``) is answered with headers a shared cache acts
on (:func:`cache_headers`: ``Cache-Control: public, max-age=0, s-maxage=...``, ``ETag``,
``Vary``), and a request with a session, a seat key or a token is answered ``private, no-store``.
With ``KNOCK_LIVE_PUBLISH_URL`` set, every write that moves a page's version tells it once, after
commit (:func:`live_changed`), to nchan's publisher; the pages subscribe to it
(``KNOCK_LIVE_SUBSCRIBE_URL``) and fetch the regions of the version they are told at a URL keyed
by it (``?v=<version>``), which the cache keeps for a minute. Without those settings (``make run``,
no proxy) the pages poll as above.

Which URLs and selectors: ``KNOCK_LIVE_VERSIONS`` and ``KNOCK_LIVE_FRAGMENTS`` in the settings,
each a list of (URL name, dotted path of a selector, the selector's keyword for the route's one
id), the selector returning the version or None. The path is resolved by the URL conf
(``django.urls.resolve``), so a route is declared once, in its app's ``urls.py``; settings name
the selectors, so core imports no app. The ETag and the ``304`` are Django's
(``get_conditional_response``, through :func:`core.api.conditional`), as in the API views.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import re
import threading
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache, caches
from django.db import InterfaceError, OperationalError, connection, connections, transaction
from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware
from django.urls import Resolver404, ResolverMatch, get_urlconf, resolve
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers, set_response_etag
from django.utils.module_loading import import_string

from core.api import conditional, version_etag

# A selector returns the version, or a tuple whose first item is the version (the rest tells
# apart two objects given the same id, a database restored), or None: no such object.
Selector = Callable[..., Any]
# A route: the selector and the keyword it takes the route's one id as.
Route = tuple[Selector, str]
# The largest id the database stores (a bigint): a larger one is left to the view's own answer.
LARGEST_ID = 2**63 - 1


def _routes(setting: str) -> dict[str, Route]:
    return {
        name: (import_string(selector), keyword)
        for name, selector, keyword in getattr(settings, setting, [])
    }


@functools.lru_cache(maxsize=4096)
def _resolved(urlconf: str | None, path: str) -> ResolverMatch | None:
    """The URL conf's match for ``path`` (None: no route declares it), remembered: the same few
    paths are polled again and again, and resolving one through the whole URL conf costs about
    a hundred times what a remembered answer does (the version poll's own budget is one query).
    """
    try:
        return resolve(path, urlconf)
    except Resolver404:
        return None


def _route(
    routes: dict[str, Route], request: HttpRequest
) -> tuple[Selector, dict[str, int]] | None:
    """The selector of the route (by URL name) the request's path resolves to, with its one id."""
    found = _resolved(get_urlconf(), request.path_info) if routes else None
    route = routes.get(found.url_name or "") if found is not None else None
    if found is None or route is None:
        return None
    ids = list(found.kwargs.values())
    if len(ids) != 1 or not isinstance(ids[0], int) or not 0 <= ids[0] <= LARGEST_ID:
        return None
    selector, keyword = route
    return selector, {keyword: ids[0]}


def version_answer(request: HttpRequest, *, version: int, poll_ms: int) -> HttpResponse:
    """What the version API answers (core.api.version_response), as a plain Django response."""
    body = json.dumps({"version": version, "poll_ms": poll_ms}, separators=(",", ":"))
    response = HttpResponse(body, content_type="application/json")
    return conditional(request, response, etag=version_etag(version))


def _read_version(selector: Selector, kwargs: dict[str, int]) -> Any:
    """The selector's answer, without the health check before a kept connection is reused.

    Django checks a kept connection with a round trip of its own (``SELECT 1`` on PostgreSQL)
    before the first query of each request: for a poll, whose whole work is one query, that
    doubled the round trips, and with the database on the same cores every round trip waits its
    turn (docs/live.md). Here the poll's own query is the check: if the kept connection turns
    out broken (the database restarted), it is closed and the query asked once more on a new
    connection, so the poll is answered as before.
    """
    if connection.connection is not None and not connection.in_atomic_block:
        connection.health_check_done = True  # type: ignore[attr-defined]
        try:
            return selector(**kwargs)
        except (OperationalError, InterfaceError):
            connection.close()
    return selector(**kwargs)


class LiveVersionMiddleware:
    """Answer ``GET`` version polls without the session, auth, CSRF and DRF layers."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.routes = _routes("KNOCK_LIVE_VERSIONS")
        self.fragments = _routes("KNOCK_LIVE_FRAGMENTS")
        self.public = set(getattr(settings, "KNOCK_LIVE_PUBLIC_PAGES", []))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        answer = self._answer(request) if request.method == "GET" else None
        response = answer if answer is not None else self.get_response(request)
        if request.method in ("GET", "HEAD"):
            found = _resolved(get_urlconf(), request.path_info)
            name = (found.url_name or "") if found is not None else ""
            if name in self.fragments:
                response[POLL_HEADER] = str(settings.KNOCK_LIVE_POLL_MS)
                cache_headers(request, response, kind="fragment")
            elif name in self.routes or name in self.public:
                cache_headers(request, response, kind="version" if name in self.routes else "page")
        return response

    def _answer(self, request: HttpRequest) -> HttpResponse | None:
        meta: dict[str, Any] = request.META
        if meta.get("QUERY_STRING") or "HTTP_AUTHORIZATION" in meta:
            return None
        route = _route(self.routes, request)
        if route is None:
            return self._unchanged_fragment(request)
        # As CommonMiddleware would: an unknown host is refused (400), never answered.
        request.get_host()
        selector, kwargs = route
        version = _read_version(selector, kwargs)
        if version is None:
            return None  # the API's own 404
        return version_answer(request, version=version, poll_ms=settings.KNOCK_LIVE_POLL_MS)

    def _unchanged_fragment(self, request: HttpRequest) -> HttpResponse | None:
        """``304`` for a page's live regions asked for with ``If-None-Match`` naming the version
        they show while it is still the current one (live.js polls them so); None otherwise."""
        sent = request.META.get("HTTP_IF_NONE_MATCH", "")
        route = _route(self.fragments, request) if sent else None
        if route is None:
            return None
        request.get_host()
        selector, kwargs = route
        stamp = _read_version(selector, kwargs)
        if stamp is None:
            return None  # the page's own 404
        etag = version_etag(stamp[0] if isinstance(stamp, tuple) else stamp)
        response = conditional(request, HttpResponse(), etag=etag)
        if response.status_code != 304:
            return None  # moved: the regions, drawn below
        response[POLL_HEADER] = str(settings.KNOCK_LIVE_POLL_MS)
        return response


# -- what a shared cache may keep (docs/live.md, deploy/nginx/knock.conf) -------------------------

# How long a shared cache may answer what every visitor without a session sees alike: a version,
# the live regions as they are now, a public page. A second is enough to answer a room's polls
# of one moment with one request, and late by at most a second.
SHARED_SECONDS = 1
# The regions of one version, asked for by version (``?v=<version>``, after a push): they never
# change for that version; a minute, as FRAGMENT_TIMEOUT (an event's version may step back when a
# director's correction removes a bracket match: a minute bounds what that could serve).
VERSIONED_SECONDS = 60
# A public page that brings itself up to date (it holds the live root, templates/_live_poll.html:
# its regions follow its version by the push or a poll) is kept longer. A copy drawn up to this
# long ago is, once open, what a page opened that long ago and kept open is: it is told the
# current version at once (nchan's channel keeps the last version published, for an hour; without
# the push its first poll asks) and fetches that version's regions, which the cache keeps by
# version. What lies outside the regions (titles, the rounds' links) may be this old, as on any
# page left open. At an event's start a whole room opens its table's page within a minute: kept a
# second, nearly every table's page was drawn again for its next spectator (825 drawings for
# 1,000 page loads at 250 tables); kept this long, one per table and language (docs/live.md). A
# page without the live root (standings, the bracket, a finished round) never updates once open:
# kept a second.
LIVE_PAGE_SECONDS = 60
LIVE_PAGE = b'<div id="live" hidden data-live data-live-version='
# The one query string a spectator's regions may carry: the version they are asked for.
VERSIONED = re.compile(r"v=([0-9]{1,19})")


def private_request(request: HttpRequest) -> bool:
    """A request whose answer may be this visitor's alone: a session, a seat key or a token."""
    meta = request.META
    return (
        "HTTP_AUTHORIZATION" in meta
        or "HTTP_X_MATCH_KEY" in meta
        or settings.SESSION_COOKIE_NAME in request.COOKIES
    )


def cache_headers(request: HttpRequest, response: HttpResponse, *, kind: str) -> None:
    """Say who may keep ``response``: a ``version``, a ``fragment`` (live regions) or a public
    ``page``.

    Public (``public, max-age=0, s-maxage``, an ``ETag`` and ``Vary: Accept-Language, Cookie``)
    only when it is what every visitor without a session is answered: the request carries no
    session, key or token, and the answer sets no cookie and holds no form's CSRF token (both
    would be this visitor's). ``max-age=0``: a browser asks again each time (live.js), a shared
    cache answers for ``s-maxage``. A live fragment's ETag is its version, as the ``304`` of
    :class:`LiveVersionMiddleware` says it; asked for by version (``?v=``) and showing that
    version, it is kept :data:`VERSIONED_SECONDS`. Anything else of these routes is private
    (``no-store`` for versions and regions, ``no-cache`` for a page): no cache between the
    visitor and Knock keeps it. A public page that follows its version itself (the live root) is
    kept :data:`LIVE_PAGE_SECONDS`.
    """
    if response.status_code not in (200, 304):
        return
    public = (
        not private_request(request)
        and not response.cookies
        and not response.has_header("Set-Cookie")
        and not response.streaming
        and CSRF_FIELD not in (response.content if response.status_code == 200 else b"")
    )
    if not public:
        del response["Cache-Control"]
        # A page may be kept by the visitor's browser (back and forward), never by a cache.
        if kind == "page":
            patch_cache_control(response, private=True, no_cache=True)
        else:
            patch_cache_control(response, private=True, no_store=True)
        return
    del response["Cache-Control"]
    seconds = SHARED_SECONDS
    if kind == "page" and response.status_code == 200 and LIVE_PAGE in response.content:
        seconds = LIVE_PAGE_SECONDS
    if kind == "fragment" and response.status_code == 200:
        shown = fragment_version(response.content)
        if shown is not None:
            response["ETag"] = version_etag(shown)
            asked = VERSIONED.fullmatch(request.META.get("QUERY_STRING", ""))
            if asked is not None and int(asked[1]) == shown:
                seconds = VERSIONED_SECONDS
    if not response.has_header("ETag") and response.status_code == 200:
        set_response_etag(response)
    patch_cache_control(response, public=True, max_age=0, s_maxage=seconds)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    # Compressed here, once, for a client that accepts gzip (every phone): a shared cache keeps
    # the compressed copy and sends it as it is, where nginx (gzip on, as Debian ships it) would
    # compress the same answer again for every spectator (docs/live.md). Django's own
    # middleware: Vary: Accept-Encoding, a weak ETag, and its BREACH mitigation.
    _GZIP.process_response(request, response)


def _no_response(request: HttpRequest) -> HttpResponse:
    raise AssertionError("only process_response is used")


_GZIP = GZipMiddleware(_no_response)


# How often the server asks open pages to poll, on every answer to a poll of their regions.
POLL_HEADER = "X-Live-Poll-Ms"
# The version a fragment shows, from its first element (templates/*/_live.html).
FRAGMENT_VERSION = re.compile(rb"data-live-fragment data-live-version=\"([0-9]+)\"")
CSRF_FIELD = b"csrfmiddlewaretoken"
# A version's regions are asked for within a poll or two of the change (then every open page
# holds them): a minute is plenty, and bounds what a restored database could meet.
FRAGMENT_TIMEOUT = 60
# Headers of the stack's answer that are not replayed: each answer has its own.
UNKEPT_HEADERS = {"set-cookie", "content-length", "date"}
# One drawer at a time per page and language: the others look every DRAW_POLL seconds for its
# drawing, up to DRAW_WAIT seconds; a drawer that died lets go after DRAW_LOCK seconds.
DRAW_WAIT = 3.0
DRAW_POLL = 0.05
DRAW_LOCK = 10
# A page's regions are drawn at most once every DRAW_EVERY seconds by all the processes together:
# an event's version moves with every entry and confirmation of every table, about twice a
# second at a club night of 50 tables, and drawing each version back to back would keep a thread
# of the server drawing. A spectator who asks sooner waits for the next drawing (at most this
# long, plus the drawing), which shows the current version: never an older one, one poll behind.
# (Drawing the event's regions at 50 tables takes about 25 ms; 0.5 s kept spectators waiting
# too long: docs/live.md.)
DRAW_EVERY = 0.1
# Set in the request a spectator's regions are drawn for by this middleware: a view that would
# serve what its process drew a moment ago (tournaments.views.events.event_live) draws the
# current version instead, since what it draws is kept for everyone (DRAW_EVERY paces it here).
DRAWER = "knock.live.drawer"


logger = logging.getLogger(__name__)


class _CacheDown(Exception):
    """The shared cache could not be read or written (its server is unreachable)."""


def _cached(operation: Callable[..., Any], *args: Any) -> Any:
    """``operation(*args)`` on the cache; :class:`_CacheDown` for any error of the backend."""
    try:
        return operation(*args)
    except Exception as exc:  # each backend raises its own (redis.ConnectionError, OSError...)
        raise _CacheDown(f"{type(exc).__name__}: {exc}") from exc


def fragment_key(path: str, language: str) -> str:
    """The shared cache's key for the spectators' regions of ``path`` in ``language`` (the lock of
    their drawing is this key with ``:drawing`` added)."""
    return f"knock:live2:{hashlib.sha256(path.encode()).hexdigest()[:32]}:{language}"


def fragment_version(content: bytes) -> int | None:
    """The version a live fragment shows (None: not a live fragment)."""
    found = FRAGMENT_VERSION.search(content, 0, 512)
    return int(found[1]) if found else None


class LiveFragmentMiddleware:
    """Spectators' live regions, drawn once per version for every process of the server."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.routes = _routes("KNOCK_LIVE_FRAGMENTS")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        route = _route(self.routes, request) if self._anonymous(request) else None
        if route is None:
            return self.get_response(request)
        request.get_host()  # an unknown host is refused here too
        selector, kwargs = route
        stamp = selector(**kwargs)
        if stamp is None:
            return self.get_response(request)  # the page's own 404
        read = time.time()
        key = fragment_key(request.path_info, translation.get_language_from_request(request))
        lock = f"{key}:drawing"
        deadline = time.monotonic() + DRAW_WAIT
        waited = False
        try:
            while True:
                kept = _cached(cache.get, key)
                if kept is not None and (kept[0] == stamp or kept[1] >= read):
                    return self._replay(kept[2], kept[3])
                # The last drawing began less than DRAW_EVERY ago: the next one waits its turn.
                early = kept[1] + DRAW_EVERY - time.time() if kept is not None else 0.0
                if early <= 0 and _cached(cache.add, lock, 1, DRAW_LOCK):
                    # After a wait the version is read again: the drawing shows what is current.
                    return self._draw(request, key, selector(**kwargs) if waited else stamp, lock)
                if time.monotonic() >= deadline:
                    return self._draw(request, key, selector(**kwargs), None)
                # Another thread is drawing these regions, or their turn has not come: wait.
                time.sleep(min(early, DRAW_EVERY) if early > 0 else DRAW_POLL)
                waited = True
        except _CacheDown as down:
            # Nothing shared: the view draws this spectator's regions for this request alone.
            logger.warning("live regions: the cache cannot be used (%s); drawing unshared", down)
            return self.get_response(request)

    def _draw(self, request: HttpRequest, key: str, stamp: Any, lock: str | None) -> HttpResponse:
        """The view's answer, kept for every process when it shows the version of ``stamp``
        (read just before); the drawing lock, if held, is let go whatever happens."""
        began = time.time()
        request.META[DRAWER] = True  # the view draws what is current, not what it drew lately
        try:
            response = self.get_response(request)
            version = stamp[0] if isinstance(stamp, tuple) else stamp
            if (
                stamp is not None
                and self._keepable(response)
                and fragment_version(response.content) == version
            ):
                headers = [(k, v) for k, v in response.items() if k.lower() not in UNKEPT_HEADERS]
                kept = (stamp, began, headers, response.content)
                self._quietly(cache.set, key, kept, FRAGMENT_TIMEOUT)
        finally:
            if lock is not None:
                self._quietly(cache.delete, lock)
        return response

    @staticmethod
    def _quietly(operation: Callable[..., Any], *args: Any) -> None:
        """A write to the cache that may fail (the cache went down during the drawing): the
        response drawn is answered all the same; the lock lapses after DRAW_LOCK."""
        try:
            _cached(operation, *args)
        except _CacheDown as down:
            logger.warning("live regions: the cache cannot be used (%s); not kept", down)

    @staticmethod
    def _anonymous(request: HttpRequest) -> bool:
        """A spectator: nothing in the request can make the regions theirs alone."""
        meta = request.META
        return (
            request.method == "GET"
            and (
                not meta.get("QUERY_STRING")
                or VERSIONED.fullmatch(meta.get("QUERY_STRING", "")) is not None
            )
            and not private_request(request)
        )

    @staticmethod
    def _keepable(response: HttpResponse) -> bool:
        return (
            response.status_code == 200
            and not response.streaming
            and not response.cookies
            and not response.has_header("Set-Cookie")
            and CSRF_FIELD not in response.content
        )

    @staticmethod
    def _replay(headers: list[tuple[str, str]], content: bytes) -> HttpResponse:
        response = HttpResponse(content)
        for name, value in headers:
            response[name] = value
        return response


# -- what one process drew or scored, by version ---------------------------------------------------
#
# Every visitor of a page asks for the same regions after the same change: a process draws them
# once per version and serves that drawing to its own visitors (those core.live's shared drawings
# above do not serve: signed in, with a key or a token). A round's live scores are kept the same
# way, per table. The cache alias ``live`` is this process's memory (LocMemCache): a version never
# comes back, so nothing kept can be stale, and what is kept is only ever a help.

LOCAL_CACHE = "live"


def kept_drawing(*, key: str, version: Any, within: float = 0.0) -> bytes | None:
    """What this process drew under ``key``, if it shows ``version`` or was drawn less than
    ``within`` seconds ago (a page that may be a moment behind); None otherwise."""
    kept = caches[LOCAL_CACHE].get(key)
    if kept is None:
        return None
    shown, began, content = kept
    if shown == version or time.monotonic() - began < within:
        return bytes(content)
    return None


def keep_drawing(*, key: str, version: Any, content: bytes) -> None:
    """Keep what this process drew of ``version`` under ``key`` (:func:`kept_drawing`)."""
    caches[LOCAL_CACHE].set(key, (version, time.monotonic(), content))


def by_version(
    *,
    kind: str,
    versions: dict[int, Any],
    compute: Callable[[list[int]], dict[int, Any]],
) -> dict[int, Any]:
    """``compute(ids)`` of the objects ``versions`` names (id -> version, read first), computed
    only for those this process does not hold at that version: a list of 50 tables asked for
    again after one changed computes that one. ``compute`` leaves out an object it has no value
    for (kept as such, and left out of the answer too)."""
    local = caches[LOCAL_CACHE]
    keys = {pk: f"{kind}:{pk}" for pk in versions}
    kept = local.get_many(list(keys.values()))
    out: dict[int, Any] = {}
    stale: list[int] = []
    for pk, key in keys.items():
        hit = kept.get(key)
        if hit is not None and hit[0] == versions[pk]:
            out[pk] = hit[1]
        else:
            stale.append(pk)
    if stale:
        fresh = compute(stale)
        # The version read first: a write landing meanwhile is computed again next time.
        local.set_many({keys[pk]: (versions[pk], fresh.get(pk)) for pk in stale})
        out.update({pk: fresh.get(pk) for pk in stale})
    return {pk: value for pk, value in out.items() if value is not None}


# -- the push: a page's new version, told once to nchan after commit ------------------------------
#
# With KNOCK_LIVE_PUBLISH_URL set (deploy/nginx/knock.conf: nchan's publisher, on localhost only),
# a write that moves a page's version calls live_changed in its transaction; after commit the
# version is read once and POSTed to the page's channel, and nchan fans it out to every open page
# subscribed to it (static/js/live.js). Nothing is published for a write rolled back. A publish
# that fails is logged and forgotten: the pages fall back to polling when their subscription
# breaks, and the next change is published again. Unset (the default): nothing is published.

# A publish waits at most this long for nchan (on the same machine: a few milliseconds).
PUBLISH_TIMEOUT = 1.0
# The version this process published last, per channel: two writes of one page committing
# together read the same version after commit, and it is told once.
PUBLISHED: dict[str, Any] = {}
PUBLISHED_KEPT = 4096


def live_channel(*, page: str, pk: int) -> str:
    """The channel of a live page (``match-12``, ``event-3``): nchan's channel id."""
    return f"{page}-{pk}"


def live_subscribe_url(*, page: str, pk: int) -> str:
    """Where the page subscribes to its versions ("" while nothing is pushed: it polls)."""
    base: str = getattr(settings, "KNOCK_LIVE_SUBSCRIBE_URL", "")
    if not base or not getattr(settings, "KNOCK_LIVE_PUBLISH_URL", ""):
        return ""
    return base + live_channel(page=page, pk=pk)


def live_changed(*, page: str, pk: int) -> None:
    """Tell the page's subscribers its new version once the current transaction commits.

    ``page`` names a channel of ``KNOCK_LIVE_CHANNELS`` (``match``, ``event``), whose selector
    reads the version after commit, so what is told is what the page would fetch. Called from
    the services that move a version, inside their transaction; outside one it publishes at
    once (Django's ``on_commit``).
    """
    if not getattr(settings, "KNOCK_LIVE_PUBLISH_URL", ""):
        return
    transaction.on_commit(functools.partial(live_tell, page=page, pk=pk))


# An event's version moves with every entry, confirmation and standings rebuild of every table:
# several times a second at a large open (250 tables: about seven). Each version told sends every
# open event page to fetch that version's regions, and each version is a drawing of the whole
# event (nginx keeps one per version, and the pages ask for whichever version was newest when
# their own second came round): at 250 tables, six drawings of 250 tables a second, more than
# the web server could draw on two cores (docs/live.md). So a channel of PUBLISH_EVERY is told at
# most once every that many seconds, for all the processes together (a gate in the shared cache):
# the first change at once, and the last one always, by a timer in a process that found the gate
# shut. Every page then asks for the same versions, one drawing each. A match's version moves at
# its players' pace and is told each time.
PUBLISH_EVERY = {"event": 1.0}
# Per channel, the newest commit this process has yet to tell (a timer is set for it).
_UNTOLD: dict[str, float] = {}
_UNTOLD_LOCK = threading.Lock()
# A gate found shut whose opening time is unknown (it lapsed meanwhile): look again this soon.
GATE_RETRY = 0.05


def live_tell(*, page: str, pk: int) -> None:
    """After a commit that moved the page's version: publish it now, or, for a channel told
    at most every :data:`PUBLISH_EVERY`, as soon as its gate lets it (never later than that)."""
    every = PUBLISH_EVERY.get(page, 0.0)
    if not every:
        live_publish(page=page, pk=pk)
        return
    _tell_gated(page=page, pk=pk, every=every, committed=time.time())


def _gate(channel: str) -> str:
    return f"knock:live-told:{channel}"


def _tell_gated(*, page: str, pk: int, every: float, committed: float) -> None:
    channel = live_channel(page=page, pk=pk)
    try:
        opened = bool(cache.add(_gate(channel), time.time(), every))
        shut_at = None if opened else cache.get(_gate(channel))
    except Exception as exc:  # no shared cache: told at once, as if ungated
        logger.warning("live push: gate of %s unusable (%s); told at once", channel, exc)
        opened, shut_at = True, None
    if opened:
        live_publish(page=page, pk=pk)
        return
    if shut_at is not None and shut_at >= committed:
        return  # told since this commit: that publish read a version that includes it
    wait = every - (time.time() - shut_at) if shut_at is not None else GATE_RETRY
    with _UNTOLD_LOCK:
        waiting = channel in _UNTOLD
        _UNTOLD[channel] = max(_UNTOLD.get(channel, 0.0), committed)
    if waiting:
        return  # the timer already set tells this commit too
    timer = threading.Timer(max(GATE_RETRY, wait), _tell_later, kwargs={"page": page, "pk": pk})
    timer.daemon = True
    timer.start()


def _tell_later(*, page: str, pk: int) -> None:
    """The timer of a channel whose gate was shut: tell its newest commit (or wait again)."""
    channel = live_channel(page=page, pk=pk)
    with _UNTOLD_LOCK:
        committed = _UNTOLD.pop(channel, None)
    try:
        if committed is not None:
            _tell_gated(page=page, pk=pk, every=PUBLISH_EVERY[page], committed=committed)
    finally:
        connections.close_all()  # this thread's own connections (the version's read)


def _channels() -> dict[str, Route]:
    return {
        page: (import_string(selector), keyword)
        for page, selector, keyword in getattr(settings, "KNOCK_LIVE_CHANNELS", [])
    }


def live_publish(*, page: str, pk: int) -> bool:
    """Publish the page's current version to its channel; False if it was not (no such page,
    told already, or nchan did not take it: logged, never raised)."""
    url: str = getattr(settings, "KNOCK_LIVE_PUBLISH_URL", "")
    channel = live_channel(page=page, pk=pk)
    try:
        selector, keyword = _channels()[page]
        stamp = selector(**{keyword: pk})
        if stamp is None or not url:
            return False
        version = stamp[0] if isinstance(stamp, tuple) else stamp
        if PUBLISHED.get(channel) == version:
            return False
        request = urllib.request.Request(
            url + channel,
            data=str(version).encode(),
            method="POST",
            headers={"Content-Type": "text/plain", "Accept": "text/json"},
        )
        with urllib.request.urlopen(request, timeout=PUBLISH_TIMEOUT) as answer:
            answer.read()
    except Exception as exc:  # a publish is a help, never a need: the pages poll without it
        logger.warning("live push: %s not published (%s: %s)", channel, type(exc).__name__, exc)
        return False
    if len(PUBLISHED) >= PUBLISHED_KEPT:
        PUBLISHED.clear()
    PUBLISHED[channel] = version
    return True
