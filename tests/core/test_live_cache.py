"""core.live.cache_headers: what a shared cache in front (deploy/nginx/knock.conf) may keep.

Through the whole stack, as a phone asks: the versions, the live regions and the public event
pages are ``public, max-age=0, s-maxage`` with an ETag and ``Vary: Accept-Language, Cookie`` for a
visitor without a session; the regions asked for by their version are kept a minute; anything
asked with a session, a seat key or a token is ``private, no-store``.
"""

from __future__ import annotations

import gzip
from typing import Any

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.utils.cache import get_max_age

from core.live import LIVE_PAGE_SECONDS, SHARED_SECONDS, VERSIONED_SECONDS, cache_headers
from engine.rules import find_rules
from scoring.models import Match
from scoring.services import match_link_token
from tests.clubs.factories import PlayerFactory, UserFactory
from tests.scoring.factories import MatchFactory
from tests.tournaments.factories import EventFactory, swiss_event
from tests.tournaments.helpers import play
from tournaments.models import Event
from tournaments.services import round_pair

pytestmark = pytest.mark.django_db


def _match() -> Match:
    event = EventFactory(rules=find_rules("standard").to_dict())
    players = [PlayerFactory(club=event.club, name=n) for n in ("Cleo", "Dee")]
    match: Match = MatchFactory.create(event=event, players=players)
    return match


def _directives(response: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in response["Cache-Control"].split(","):
        name, _, value = part.strip().partition("=")
        out[name.lower()] = value
    return out


def _shared(response: Any) -> int:
    """The s-maxage of a public answer (fails for anything else)."""
    directives = _directives(response)
    assert "public" in directives, response["Cache-Control"]
    assert "private" not in directives
    assert "no-store" not in directives
    assert get_max_age(response) == 0  # a browser asks again; a shared cache answers
    vary = {v.strip().lower() for v in response["Vary"].split(",")}
    assert {"accept-language", "cookie"} <= vary
    assert response.has_header("ETag")
    return int(directives["s-maxage"])


def _private(response: Any) -> None:
    directives = _directives(response)
    assert "private" in directives, response["Cache-Control"]
    assert "no-store" in directives
    assert "public" not in directives
    assert "s-maxage" not in directives


def test_a_spectators_regions_are_public_for_a_second_with_their_version_as_etag():
    match = _match()
    answer = Client().get(f"/matches/{match.pk}/live/")
    assert answer.status_code == 200
    assert _shared(answer) == SHARED_SECONDS
    match.refresh_from_db()
    assert answer["ETag"] == f'"{match.live_seq}"'
    # Unchanged: the early 304 says the same, so a cache may refresh its entry with it.
    same = Client().get(f"/matches/{match.pk}/live/", HTTP_IF_NONE_MATCH=answer["ETag"])
    assert same.status_code == 304
    assert same["ETag"] == answer["ETag"]
    assert _shared(same) == SHARED_SECONDS


def test_the_regions_of_a_version_asked_for_by_it_are_kept_a_minute():
    match = _match()
    match.refresh_from_db()
    kept = Client().get(f"/matches/{match.pk}/live/?v={match.live_seq}")
    assert kept.status_code == 200
    assert _shared(kept) == VERSIONED_SECONDS
    assert kept["ETag"] == f'"{match.live_seq}"'
    # Asked for a version it does not show (moved since, or not yet): only for a second.
    other = Client().get(f"/matches/{match.pk}/live/?v={match.live_seq + 7}")
    assert other.status_code == 200
    assert _shared(other) == SHARED_SECONDS


def test_versions_and_public_event_pages_are_public_for_a_second():
    match = _match()
    for path in (
        f"/api/matches/{match.pk}/version/",
        f"/api/events/{match.event_id}/version/",
        f"/events/{match.event_id}/live/",
        f"/events/{match.event_id}/projector/slides/",
        f"/events/{match.event_id}/standings/",
        f"/api/events/{match.event_id}/standings/",
    ):
        answer = Client().get(path)
        assert answer.status_code == 200, path
        assert _shared(answer) == SHARED_SECONDS, path


def test_what_a_cache_keeps_is_compressed_once_for_a_phone_that_accepts_gzip():
    """A phone sends ``Accept-Encoding: gzip``: the public answer is compressed by Knock, so a
    shared cache keeps and sends the compressed copy (apart from the plain one: Vary) instead of
    compressing it again for every spectator; a client that does not ask gets it plain."""
    match = _match()
    path = f"/events/{match.event_id}/live/"
    plain = Client().get(path)
    zipped = Client().get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert plain.status_code == zipped.status_code == 200
    assert not plain.has_header("Content-Encoding")
    assert zipped["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.content) == plain.content
    assert int(zipped["Content-Length"]) == len(zipped.content) < len(plain.content)
    assert _shared(zipped) == SHARED_SECONDS
    assert "accept-encoding" in {v.strip().lower() for v in zipped["Vary"].split(",")}
    # The same version, weakly (RFC 9110: the bytes differ): the early 304 still answers it.
    assert zipped["ETag"] == "W/" + plain["ETag"]
    same = Client().get(path, HTTP_IF_NONE_MATCH=zipped["ETag"], HTTP_ACCEPT_ENCODING="gzip")
    assert same.status_code == 304


def test_a_private_answer_is_not_compressed_by_knock():
    """Only what a shared cache keeps is: a signed-in visitor's or a seat's answer is left as
    every private answer was (to the proxy's own gzip, or none)."""
    match = _match()
    signed_in = Client()
    signed_in.force_login(UserFactory())
    key = match_link_token(match=match, position=0)
    for answer in (
        signed_in.get(f"/events/{match.event_id}/live/", HTTP_ACCEPT_ENCODING="gzip"),
        Client().get(
            f"/matches/{match.pk}/live/", HTTP_X_MATCH_KEY=key, HTTP_ACCEPT_ENCODING="gzip"
        ),
    ):
        assert answer.status_code == 200
        _private(answer)
        assert not answer.has_header("Content-Encoding")


def test_a_session_a_seat_key_or_a_token_is_never_cacheable():
    match = _match()
    user = UserFactory()
    signed_in = Client()
    signed_in.force_login(user)
    key = match_link_token(match=match, position=0)
    for path in (f"/matches/{match.pk}/live/", f"/api/matches/{match.pk}/version/"):
        _private(signed_in.get(path))
        _private(Client().get(path, HTTP_X_MATCH_KEY=key))
    page = signed_in.get(f"/events/{match.event_id}/projector/slides/")
    assert set(_directives(page)) == {"private", "no-cache"}
    _private(signed_in.get(f"/events/{match.event_id}/live/"))
    token = Client().get(
        f"/api/matches/{match.pk}/version/", HTTP_AUTHORIZATION="Token not-a-real-one"
    )
    assert token.status_code == 401
    assert "public" not in token.get("Cache-Control", "")


def test_an_answer_that_sets_a_cookie_or_holds_a_csrf_token_is_never_public():
    request = RequestFactory().get("/events/1/")
    with_cookie = HttpResponse("<p>hello</p>")
    with_cookie.set_cookie("csrftoken", "x")
    cache_headers(request, with_cookie, kind="version")
    _private(with_cookie)
    form = HttpResponse('<input name="csrfmiddlewaretoken" value="x">')
    cache_headers(request, form, kind="page")
    assert set(_directives(form)) == {"private", "no-cache"}
    plain = HttpResponse("<p>hello</p>")
    cache_headers(request, plain, kind="page")
    assert _shared(plain) == SHARED_SECONDS
    # An error is left as it was (a 404 is nobody's to keep for a second).
    missing = HttpResponse("gone", status=404)
    cache_headers(request, missing, kind="page")
    assert not missing.has_header("Cache-Control")


def test_pages_not_named_public_are_left_as_they_were():
    answer = Client().get("/clubs/")
    assert answer.status_code == 200
    assert "public" not in answer.get("Cache-Control", "")


def _public_pages(match: Match) -> dict[str, int]:
    """The public pages, with how long a shared cache may keep each: a minute for a page that
    follows its version itself (the live root), a second for one that never updates once open."""
    event = match.event_id
    return {
        f"/events/{event}/": LIVE_PAGE_SECONDS,
        f"/matches/{match.pk}/": LIVE_PAGE_SECONDS,
        f"/events/{event}/projector/": SHARED_SECONDS,
        f"/events/{event}/projector/slides/": SHARED_SECONDS,
        f"/events/{event}/standings/": SHARED_SECONDS,
    }


def test_a_visitor_without_a_session_gets_public_pages_without_a_cookie_or_a_token():
    match = _match()
    visitor = Client()
    for path, kept in _public_pages(match).items():
        answer = visitor.get(path)
        assert answer.status_code == 200, path
        assert not answer.cookies, (path, answer.cookies)
        assert not answer.has_header("Set-Cookie"), path
        assert b"csrfmiddlewaretoken" not in answer.content, path
        assert b"X-CSRFToken" not in answer.content, path
        assert _shared(answer) == kept, path
        # Kept a minute exactly when the page brings itself up to date once open.
        assert (b"data-live-version-url" in answer.content) == (kept == LIVE_PAGE_SECONDS), path
    assert not visitor.cookies  # nothing was set along the way either


def test_a_round_page_is_public_for_a_visitor_without_a_session():
    event = swiss_event(4)
    round_pair(event=event)
    answer = Client().get(f"/events/{event.pk}/rounds/1/")
    assert answer.status_code == 200
    assert not answer.cookies
    assert b"csrfmiddlewaretoken" not in answer.content
    assert _shared(answer) == LIVE_PAGE_SECONDS  # the round in play: its pairings follow it
    # The previous round, over (a second round paired): it no longer updates, kept a second.
    for match in Match.objects.filter(event=event):
        seat = match.seats.order_by("position").first()
        play(match, winner=seat.player_id if seat else None)
    round_pair(event=event)
    over = Client().get(f"/events/{event.pk}/rounds/1/")
    assert over.status_code == 200
    assert b"data-live-version" not in over.content
    assert _shared(over) == SHARED_SECONDS


def test_a_signed_in_visitors_pages_are_private_and_carry_their_token():
    match = _match()
    signed_in = Client()
    signed_in.force_login(UserFactory())
    for path in (f"/events/{match.event_id}/", f"/matches/{match.pk}/"):
        answer = signed_in.get(path)
        assert answer.status_code == 200, path
        assert set(_directives(answer)) == {"private", "no-cache"}, path
        assert b"X-CSRFToken" in answer.content, path
        assert b"csrfmiddlewaretoken" in answer.content, path  # the language form's


def test_a_page_asked_with_a_seat_key_or_a_stale_session_cookie_is_private():
    match = _match()
    key = match_link_token(match=match, position=0)
    with_key = Client().get(f"/matches/{match.pk}/", HTTP_X_MATCH_KEY=key)
    assert "public" not in with_key["Cache-Control"]
    stale = Client()
    stale.cookies["sessionid"] = "no-such-session-1234"
    page = stale.get(f"/events/{match.event_id}/")
    assert "public" not in page["Cache-Control"]


def test_the_language_switch_works_without_a_token_for_a_visitor_without_a_session():
    match = _match()
    visitor = Client(enforce_csrf_checks=True)
    page = visitor.get(f"/events/{match.event_id}/")
    assert b'action="/i18n/setlang/"' in page.content
    switched = visitor.post(
        "/i18n/setlang/", {"language": "ko", "next": f"/events/{match.event_id}/"}
    )
    assert switched.status_code == 302
    assert switched["Location"] == f"/events/{match.event_id}/"
    assert switched.cookies["django_language"].value == "ko"
    korean = visitor.get(f"/events/{match.event_id}/")
    assert korean["Content-Language"] == "ko"
    assert _shared(korean) == LIVE_PAGE_SECONDS  # the language cookie is no session


def test_a_signed_in_visitors_language_switch_is_still_checked_for_csrf():
    user = UserFactory()
    signed_in = Client(enforce_csrf_checks=True)
    signed_in.force_login(user)
    refused = signed_in.post("/i18n/setlang/", {"language": "ko", "next": "/clubs/"})
    assert refused.status_code == 403
    page = signed_in.get("/clubs/")
    token = page.content.split(b'name="csrfmiddlewaretoken" value="', 1)[1].split(b'"', 1)[0]
    switched = signed_in.post(
        "/i18n/setlang/",
        {"language": "ko", "next": "/clubs/", "csrfmiddlewaretoken": token.decode()},
    )
    assert switched.status_code == 302
    assert switched.cookies["django_language"].value == "ko"


def test_forms_a_visitor_without_a_session_sends_still_carry_a_token():
    event = EventFactory(
        kind=Event.Kind.SWISS, status=Event.Status.REGISTRATION, options={"entries_open": True}
    )
    for path in ("/accounts/login/", f"/events/{event.pk}/enter/"):
        answer = Client().get(path)
        assert answer.status_code == 200, path
        assert b"csrfmiddlewaretoken" in answer.content, path
        assert "csrftoken" in answer.cookies, path
        assert "public" not in answer.get("Cache-Control", ""), path
