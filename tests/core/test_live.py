"""core.live: version polls answered before the session and auth layers, as the API answers them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory, override_settings
from rest_framework.test import APIClient, APIRequestFactory

from core.live import LiveFragmentMiddleware, LiveVersionMiddleware, fragment_version
from engine.rules import find_rules
from scoring.apis.live import MatchVersionApi
from scoring.models import Match
from scoring.permissions import Actor
from scoring.services import entry_from_dict, hand_submit, match_link_token
from tests.clubs.factories import PlayerFactory
from tests.scoring.factories import MatchFactory
from tests.scoring.pages import Client
from tests.tournaments.factories import EventFactory
from tournaments.apis.live import EventVersionApi

pytestmark = pytest.mark.django_db


def _match() -> Match:
    event = EventFactory(rules=find_rules("standard").to_dict())
    players = [PlayerFactory(club=event.club, name=n) for n in ("Cleo", "Dee")]
    match: Match = MatchFactory.create(event=event, players=players)
    return match


def _knock(match: Match) -> None:
    entry = entry_from_dict(
        {"knocker": 1, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}
    )
    token = match_link_token(match=match, position=1)
    hand_submit(match=match, actor=Actor(token=token), entry=entry)


class _Below:
    """The rest of the stack: records what reached it."""

    def __init__(self) -> None:
        self.reached: list[str] = []

    def __call__(self, request: HttpRequest) -> HttpResponse:
        self.reached.append(request.get_full_path())
        return HttpResponse("stack", status=299)


def _through(path: str, method: str = "get", **extra: Any) -> tuple[HttpResponse, _Below]:
    below = _Below()
    request = getattr(RequestFactory(), method)(path, HTTP_HOST="127.0.0.1", **extra)
    return LiveVersionMiddleware(below)(request), below


def _view(view: Any, path: str, etag: str = "", **kwargs: int) -> Any:
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    request = APIRequestFactory().get(path, HTTP_HOST="127.0.0.1", **headers)
    response = view.as_view()(request, **kwargs)
    response.render()
    return response


def test_the_middleware_answers_a_match_poll_as_the_api_view_does_without_the_stack():
    match = _match()
    path = f"/api/matches/{match.pk}/version/"
    answer, below = _through(path)
    api = _view(MatchVersionApi, path, match_id=match.pk)
    assert below.reached == []
    assert answer.status_code == api.status_code == 200
    assert answer["Content-Type"] == "application/json"
    assert answer["ETag"] == api["ETag"]
    # The view's "ask again each time", made the shared cache's for a second (test_live_cache).
    assert api["Cache-Control"] == "no-cache"
    assert answer["Cache-Control"] == "public, max-age=0, s-maxage=1"
    assert api.data == {"version": match.live_seq, "poll_ms": settings.KNOCK_LIVE_POLL_MS}
    assert json.loads(answer.content) == api.data
    same, _ = _through(path, HTTP_IF_NONE_MATCH=answer["ETag"])
    assert same.status_code == 304
    assert same.content == b""
    assert same["ETag"] == answer["ETag"]
    # A write moves it at once: nothing is remembered between polls.
    _knock(match)
    moved, _ = _through(path, HTTP_IF_NONE_MATCH=answer["ETag"])
    assert moved.status_code == 200
    assert moved["ETag"] == f'"{Match.objects.get(pk=match.pk).live_seq}"'
    assert moved["ETag"] != answer["ETag"]


def test_the_middleware_answers_an_event_poll_as_the_api_view_does():
    match = _match()
    event = match.event
    path = f"/api/events/{event.pk}/version/"
    answer, below = _through(path)
    api = _view(EventVersionApi, path, event_id=event.pk)
    assert below.reached == []
    assert answer.status_code == 200
    assert answer["ETag"] == api["ETag"]
    assert _through(path, HTTP_IF_NONE_MATCH=f'"x", {answer["ETag"]}')[0].status_code == 304
    assert _through(path, HTTP_IF_NONE_MATCH="*")[0].status_code == 304


@pytest.mark.parametrize(
    ("path", "method", "extra"),
    [
        ("/api/matches/{m}/version/", "post", {}),
        ("/api/matches/{m}/version/", "head", {}),
        ("/api/matches/{m}/version/?format=json", "get", {}),
        ("/api/matches/{m}/version/", "get", {"HTTP_AUTHORIZATION": "Token nonsense"}),
        ("/api/matches/999999/version/", "get", {}),  # the API's own 404 body
        ("/api/events/999999/version/", "get", {}),
        ("/api/matches/99999999999999999999999/version/", "get", {}),  # out of range: a 400
        ("/api/matches/{m}/version", "get", {}),
        ("/api/matches/{m}/", "get", {}),
        ("/matches/{m}/live/", "get", {}),
    ],
)
def test_anything_else_goes_down_the_stack(path: str, method: str, extra: dict[str, str]):
    match = _match()
    url = path.format(m=match.pk)
    answer, below = _through(url, method, **extra)
    assert below.reached == [url]
    assert answer.status_code == 299


def test_an_unknown_host_is_refused_as_everywhere_else():
    match = _match()
    request = RequestFactory().get(f"/api/matches/{match.pk}/version/", HTTP_HOST="evil.example")
    below = _Below()
    with pytest.raises(DisallowedHost):
        LiveVersionMiddleware(below)(request)
    assert below.reached == []


def test_through_the_site_a_poll_sets_no_cookie_and_a_bad_token_is_still_refused():
    match = _match()
    client = APIClient()
    response = client.get(f"/api/matches/{match.pk}/version/")
    assert response.status_code == 200
    assert response.cookies == {}
    assert response["Vary"] == "Accept-Language, Cookie"  # core.live's, for a shared cache
    client.credentials(HTTP_AUTHORIZATION="Token nonsense")
    assert client.get(f"/api/matches/{match.pk}/version/").status_code in (401, 403)


def test_the_middleware_comes_before_the_session_and_auth_layers():
    order = list(settings.MIDDLEWARE)
    here = order.index("core.live.LiveVersionMiddleware")
    assert order.index("django.middleware.security.SecurityMiddleware") < here
    for later in (
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "simple_history.middleware.HistoryRequestMiddleware",
    ):
        assert here < order.index(later)


@override_settings(KNOCK_LIVE_VERSIONS=[])
def test_without_routes_every_poll_goes_down_the_stack():
    match = _match()
    _, below = _through(f"/api/matches/{match.pk}/version/")
    assert below.reached == [f"/api/matches/{match.pk}/version/"]


# -- spectators' live regions, kept by version for every process ----------------------------------


class _Fragment(_Below):
    """A view drawing a live fragment of the version it is told, counting its draws."""

    def __init__(self, version: Any, **headers: str) -> None:
        super().__init__()
        self.version = version
        self.headers = headers

    def __call__(self, request: HttpRequest) -> HttpResponse:
        self.reached.append(request.get_full_path())
        version = self.version() if callable(self.version) else self.version
        body = f'<div data-live-fragment data-live-version="{version}">drawn {len(self.reached)}'
        response = HttpResponse(body + "</div>")
        response["Cache-Control"] = "no-store"
        for name, value in self.headers.items():
            response[name] = value
        return response


def _fetch(view: Any, path: str, **extra: Any) -> HttpResponse:
    request = RequestFactory().get(path, HTTP_HOST="127.0.0.1", **extra)
    response: HttpResponse = LiveFragmentMiddleware(view)(request)
    return response


def test_a_spectators_regions_are_drawn_once_per_version_for_every_process():
    match = _match()
    path = f"/matches/{match.pk}/live/"
    # Two processes: two middleware instances, the one cache they share.
    one = _Fragment(lambda: Match.objects.get(pk=match.pk).live_seq)
    first = _fetch(one, path)
    again = _fetch(_Fragment("never drawn"), path)
    assert one.reached == [path]
    assert again.content == first.content
    assert again["Cache-Control"] == "no-store"
    _knock(match)  # the version moves: drawn again, and that drawing kept
    moved = _fetch(one, path)
    assert one.reached == [path, path]
    assert moved.content != first.content
    assert b"drawn 2" in moved.content
    assert _fetch(_Fragment("never drawn"), path).content == moved.content


def test_regions_showing_another_version_than_the_current_are_never_kept():
    match = _match()
    path = f"/matches/{match.pk}/live/"
    stale = _Fragment(match.live_seq + 7)  # e.g. an event's regions drawn just before a change
    _fetch(stale, path)
    _fetch(stale, path)
    assert stale.reached == [path, path]


@pytest.mark.parametrize(
    "extra",
    [
        {"HTTP_COOKIE": "sessionid=abc"},  # a seat, a director: their own regions
        {"HTTP_X_MATCH_KEY": "secret"},
        {"HTTP_AUTHORIZATION": "Token x"},
    ],
)
def test_a_visitor_who_may_see_more_than_a_spectator_always_gets_the_view(extra):
    match = _match()
    path = f"/matches/{match.pk}/live/"
    view = _Fragment(match.live_seq)
    _fetch(view, path)  # kept for spectators
    _fetch(view, path, **extra)
    _fetch(view, path, **extra)
    assert view.reached == [path, path, path]


def test_answers_with_a_cookie_or_a_form_are_never_kept_and_languages_are_kept_apart():
    match = _match()
    path = f"/matches/{match.pk}/live/"

    class _Cookie(_Fragment):
        def __call__(self, request: HttpRequest) -> HttpResponse:
            response = super().__call__(request)
            response.set_cookie("csrftoken", "x")
            return response

    for cookie in (_Cookie(match.live_seq), _Fragment(match.live_seq, **{"Set-Cookie": "a=b"})):
        _fetch(cookie, path)
        _fetch(cookie, path)
        assert len(cookie.reached) == 2

    class _Form(_Fragment):
        def __call__(self, request: HttpRequest) -> HttpResponse:
            response = super().__call__(request)
            response.content += b'<input name="csrfmiddlewaretoken" value="t">'
            return response

    form = _Form(match.live_seq)
    _fetch(form, path)
    _fetch(form, path)
    assert len(form.reached) == 2
    english = _Fragment(match.live_seq)
    _fetch(english, path, HTTP_ACCEPT_LANGUAGE="en")
    korean = _Fragment(match.live_seq)
    _fetch(korean, path, HTTP_ACCEPT_LANGUAGE="ko")
    _fetch(korean, path, HTTP_ACCEPT_LANGUAGE="ko")
    assert len(korean.reached) == 1  # its own entry, not the English one
    assert len(english.reached) == 1


def test_unknown_ids_other_methods_and_queries_go_to_the_view():
    match = _match()
    for path, method in (
        ("/matches/999999/live/", "get"),
        (f"/matches/{match.pk}/live/?x=1", "get"),
        (f"/matches/{match.pk}/live/", "post"),
        (f"/matches/{match.pk}/", "get"),
    ):
        view = _Fragment(match.live_seq)
        request = getattr(RequestFactory(), method)(path, HTTP_HOST="127.0.0.1")
        LiveFragmentMiddleware(view)(request)
        LiveFragmentMiddleware(view)(request)
        assert len(view.reached) == 2, path


def test_through_the_site_spectators_follow_the_table_and_players_keep_their_buttons():
    match = _match()
    path = f"/matches/{match.pk}/live/"
    spectator = APIClient()
    before = spectator.get(path)
    assert before.status_code == 200
    assert fragment_version(before.content) == match.live_seq
    assert spectator.get(path).content == before.content
    _knock(match)  # Dee entered a hand: the spectators' regions move on
    after = spectator.get(path)
    assert fragment_version(after.content) == Match.objects.get(pk=match.pk).live_seq
    assert after.content != before.content
    # Cleo, at the table, sees the entry waiting for her, with her buttons: never a
    # spectator's copy.
    cleo = Client()
    cleo.get(f"/matches/{match.pk}/?k={match_link_token(match=match, position=0)}")
    hers = cleo.get(path)
    assert hers.content != after.content
    assert b"/confirm/" in hers.content


@pytest.mark.django_db(transaction=True)
def test_a_poll_on_a_kept_connection_makes_no_health_check_round_trip(monkeypatch):
    """Django checks a kept connection (``SELECT 1``) before each request's first query; a
    poll's one query is its own check, so the round trip is not made for it."""
    from django.db import connections

    connection = connections["default"]
    match = _match()
    checks: list[bool] = []
    real = type(connection).is_usable

    def counted(self: Any) -> bool:
        checks.append(True)
        return bool(real(self))

    monkeypatch.setattr(type(connection), "is_usable", counted)
    connection.ensure_connection()
    connection.health_check_enabled = True
    connection.close_if_unusable_or_obsolete()  # what the start of each request does
    response, below = _through(f"/api/matches/{match.pk}/version/")
    assert response.status_code == 200
    assert below.reached == []
    assert checks == []
    assert connection.connection is not None  # kept for the next request


@pytest.mark.django_db(transaction=True)
def test_a_poll_whose_kept_connection_broke_is_answered_on_a_new_one(monkeypatch):
    from django.db import OperationalError, connection

    import core.live

    match = _match()
    connection.ensure_connection()
    calls: list[int] = []
    real = core.live._route

    def failing_once(*args: Any) -> Any:
        found = real(*args)
        assert found is not None
        selector, kwargs = found

        def select(**kw: int) -> Any:
            calls.append(1)
            if len(calls) == 1:
                raise OperationalError("server closed the connection unexpectedly")
            return selector(**kw)

        return select, kwargs

    monkeypatch.setattr(core.live, "_route", failing_once)
    response, _below = _through(f"/api/matches/{match.pk}/version/")
    assert response.status_code == 200
    assert json.loads(response.content)["version"] == match.live_seq
    assert len(calls) == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_poll_after_postgresql_dropped_the_connection_is_answered():
    """The database server ended this process's kept connection (a restart does the same)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL)")
    import psycopg

    match = _match()
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    connection.close_if_unusable_or_obsolete()
    response, below = _through(f"/api/matches/{match.pk}/version/")
    assert response.status_code == 200
    assert below.reached == []
    assert json.loads(response.content)["version"] == match.live_seq
    assert connection.connection.info.backend_pid != pid


# -- one drawing at a time: spectators who ask at once wait for it ---------------------------------


def _drawing_elsewhere(monkeypatch: pytest.MonkeyPatch, path: str, then: Any) -> list[float]:
    """Another thread holds the drawing of ``path``'s regions; the first time a waiter sleeps,
    ``then`` runs (that thread's drawing landing, say). The sleeps are returned."""
    from core import live

    lock = f"{live.fragment_key(path, 'en')}:drawing"
    assert live.cache.add(lock, 1, live.DRAW_LOCK)
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 1:
            then(lock)

    monkeypatch.setattr(live.time, "sleep", sleep)
    return slept


def test_spectators_who_ask_during_a_drawing_wait_for_it_even_when_it_shows_a_newer_version(
    monkeypatch: pytest.MonkeyPatch,
):
    match = _match()
    path = f"/matches/{match.pk}/live/"
    drawer = _Fragment(lambda: Match.objects.get(pk=match.pk).live_seq)

    def lands(lock: str) -> None:
        # The drawing began after the waiter read its version, and the table moved meanwhile.
        from core import live

        live.cache.delete(lock)
        _knock(match)
        _fetch(drawer, path)

    slept = _drawing_elsewhere(monkeypatch, path, lands)
    waiter = _Fragment("never drawn")
    answer = _fetch(waiter, path)
    assert waiter.reached == []
    assert drawer.reached == [path]
    assert slept
    assert fragment_version(answer.content) == Match.objects.get(pk=match.pk).live_seq


def test_a_drawing_that_began_before_the_version_was_read_is_not_served(
    monkeypatch: pytest.MonkeyPatch,
):
    from core import live

    match = _match()
    path = f"/matches/{match.pk}/live/"
    old = _Fragment(match.live_seq)
    _fetch(old, path)  # kept for this version
    _knock(match)  # the version moves on
    key = live.fragment_key(path, "en")
    stamp, began, headers, content = live.cache.get(key)

    def lands(lock: str) -> None:
        # A drawing of the old version, begun long ago, lands; its drawer lets go.
        live.cache.set(key, (stamp, began - 60, headers, content), live.FRAGMENT_TIMEOUT)
        live.cache.delete(lock)

    _drawing_elsewhere(monkeypatch, path, lands)
    waiter = _Fragment(lambda: Match.objects.get(pk=match.pk).live_seq)
    answer = _fetch(waiter, path)
    assert waiter.reached == [path]  # drew the current version itself
    assert fragment_version(answer.content) == Match.objects.get(pk=match.pk).live_seq
    assert live.cache.get(key)[3] == answer.content  # and kept it
    assert live.cache.add(f"{key}:drawing", 1, 1)  # and let go


def test_a_pages_regions_are_drawn_at_most_every_draw_every_seconds_and_always_current(
    monkeypatch: pytest.MonkeyPatch,
):
    """An event's version moves about twice a second on a busy night: the processes together
    draw its regions at most once every DRAW_EVERY seconds. A spectator who asks for a newer
    version sooner than that sleeps until its turn and is then served the current version (here
    drawn by themselves), not the drawing of a moment ago that would leave them a poll behind."""
    from core import live

    match = _match()
    path = f"/matches/{match.pk}/live/"
    monkeypatch.setattr(live, "DRAW_EVERY", 30.0)  # however slow this machine, still its turn
    _fetch(_Fragment(match.live_seq), path)  # drawn just now
    _knock(match)  # the version moves on at once
    key = live.fragment_key(path, "en")
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        stamp, began, headers, content = live.cache.get(key)
        # The time passes: the last drawing began that much longer ago.
        live.cache.set(key, (stamp, began - seconds, headers, content), live.FRAGMENT_TIMEOUT)

    monkeypatch.setattr(live.time, "sleep", sleep)
    waiter = _Fragment(lambda: Match.objects.get(pk=match.pk).live_seq)
    answer = _fetch(waiter, path)
    assert len(slept) == 1
    assert live.DRAW_POLL < slept[0] <= live.DRAW_EVERY  # woke once, when its turn came
    assert waiter.reached == [path]
    assert fragment_version(answer.content) == Match.objects.get(pk=match.pk).live_seq
    assert live.cache.get(key)[3] == answer.content  # kept for the others
    # Asked for the version just drawn: served at once, however soon.
    assert _fetch(_Fragment("never drawn"), path).content == answer.content
    assert len(slept) == 1


def test_a_waiter_draws_itself_when_the_drawer_never_finishes(monkeypatch: pytest.MonkeyPatch):
    from core import live

    match = _match()
    path = f"/matches/{match.pk}/live/"
    monkeypatch.setattr(live, "DRAW_WAIT", 0.0)
    _drawing_elsewhere(monkeypatch, path, lambda lock: None)
    waiter = _Fragment(match.live_seq)
    assert fragment_version(_fetch(waiter, path).content) == match.live_seq
    assert waiter.reached == [path]
    # The dead drawer's lock is left to lapse; the drawing is kept for the others.
    assert not live.cache.add(f"{live.fragment_key(path, 'en')}:drawing", 1, 1)
    assert _fetch(_Fragment("never drawn"), path).content == _fetch(waiter, path).content


def test_the_drawing_lock_is_let_go_when_the_view_fails():
    from core import live

    match = _match()
    path = f"/matches/{match.pk}/live/"

    def fails(request: HttpRequest) -> HttpResponse:
        raise RuntimeError("the view broke")

    with pytest.raises(RuntimeError):
        _fetch(fails, path)
    assert live.cache.add(f"{live.fragment_key(path, 'en')}:drawing", 1, 1)


# -- pages poll their regions: 304 while the version they show is current --------------------------


@pytest.mark.parametrize("kind", ["match", "event"])
def test_a_regions_poll_naming_the_current_version_is_answered_304_before_the_stack(kind: str):
    match = _match()
    if kind == "match":
        path, version = f"/matches/{match.pk}/live/", match.live_seq
    else:
        path = f"/events/{match.event_id}/live/"
        version = json.loads(_through(f"/api/events/{match.event_id}/version/")[0].content)[
            "version"
        ]
    answer, below = _through(path, HTTP_IF_NONE_MATCH=f'"{version}"')
    assert below.reached == []
    assert answer.status_code == 304
    assert answer.content == b""
    assert answer["ETag"] == f'"{version}"'
    assert answer["X-Live-Poll-Ms"] == str(settings.KNOCK_LIVE_POLL_MS)
    # Another version named, none, a query or a token: the regions, drawn down the stack.
    for extra in (
        {"HTTP_IF_NONE_MATCH": f'"{version - 1}"'},
        {},
        {"HTTP_IF_NONE_MATCH": f'"{version}"', "HTTP_AUTHORIZATION": "Token x"},
    ):
        answer, below = _through(path, **extra)
        assert below.reached == [path], extra
        assert answer["X-Live-Poll-Ms"] == str(settings.KNOCK_LIVE_POLL_MS)
    answer, below = _through(path + "?x=1", HTTP_IF_NONE_MATCH=f'"{version}"')
    assert below.reached == [path + "?x=1"]


def test_a_poll_of_unknown_regions_gets_the_pages_own_404():
    _, below = _through("/matches/999999/live/", HTTP_IF_NONE_MATCH='"1"')
    assert below.reached == ["/matches/999999/live/"]


def test_through_the_site_a_player_polling_the_regions_gets_304_until_the_table_moves():
    match = _match()
    path = f"/matches/{match.pk}/live/"
    cleo = Client()
    cleo.get(f"/matches/{match.pk}/?k={match_link_token(match=match, position=0)}")
    shown = fragment_version(cleo.get(path).content)
    assert shown == match.live_seq
    assert cleo.get(path, HTTP_IF_NONE_MATCH=f'"{shown}"').status_code == 304
    _knock(match)  # Dee entered a hand: Cleo's confirm button comes with the new regions
    moved = cleo.get(path, HTTP_IF_NONE_MATCH=f'"{shown}"')
    assert moved.status_code == 200
    assert fragment_version(moved.content) == Match.objects.get(pk=match.pk).live_seq
    assert b"/confirm/" in moved.content


# -- the cache is a help, never a need -------------------------------------------------------------


def _dead_redis_cache() -> Any:
    """Django's Redis cache pointed at a port where nothing listens (Redis down)."""
    import socket

    from django.core.cache.backends.redis import RedisCache

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return RedisCache(f"redis://127.0.0.1:{port}/0", {})


def test_spectators_get_their_regions_while_the_cache_is_down(monkeypatch: pytest.MonkeyPatch):
    """Redis down (the cache-down drill saw 500s): each spectator's regions are drawn by the
    view for that request, and the cache is used again once it answers."""
    from core import live

    match = _match()
    path = f"/matches/{match.pk}/live/"
    view = _Fragment(lambda: Match.objects.get(pk=match.pk).live_seq)
    up = live.cache
    monkeypatch.setattr(live, "cache", _dead_redis_cache())
    first = _fetch(view, path)
    second = _fetch(view, path)
    assert first.status_code == second.status_code == 200
    assert view.reached == [path, path]  # nothing shared: drawn for each
    assert b"drawn 2" in second.content
    monkeypatch.setattr(live, "cache", up)
    kept = _fetch(view, path)
    assert _fetch(_Fragment("never drawn"), path).content == kept.content


def test_a_drawing_is_answered_when_the_cache_goes_down_during_it(
    monkeypatch: pytest.MonkeyPatch,
):
    from core import live

    class GoesDown:
        """Answers the reads, then fails every write (Redis killed mid-drawing)."""

        def get(self, *args: Any) -> None:
            return None

        def add(self, *args: Any) -> bool:
            return True

        def set(self, *args: Any) -> None:
            raise ConnectionError("Connection refused")

        delete = set

    match = _match()
    path = f"/matches/{match.pk}/live/"
    view = _Fragment(lambda: Match.objects.get(pk=match.pk).live_seq)
    monkeypatch.setattr(live, "cache", GoesDown())
    response = _fetch(view, path)
    assert response.status_code == 200
    assert view.reached == [path]
