"""The site's own error pages (issue 30): 400, 403, 404, 429 in the site's layout, 500, 413 and
503 standing alone, in the reader's language; JSON under /api/; and an entry sent from a page
whose link was replaced refused with the marker that lets the page keep it."""

from __future__ import annotations

import re
from typing import Any, cast

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory

from core import error_views
from scoring.models import HandSubmission
from scoring.permissions import Actor
from scoring.services import match_link_token, match_links_reissue
from tests.clubs.factories import PlayerFactory, UserFactory
from tests.scoring.factories import MatchFactory, event_director
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db

KO = {"HTTP_ACCEPT_LANGUAGE": "ko"}


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def _match() -> Any:
    event = EventFactory(confirmation="opponent")
    players = [PlayerFactory(club=event.club, name=n) for n in ("Alice", "Bob")]
    return MatchFactory(event=event, players=players)


def _seat(match: Any, position: int) -> Client:
    client = Client()
    client.get(f"/l/{match_link_token(match=match, position=position)}/")
    return client


def _form(**extra: str) -> dict[str, str]:
    return {
        "mode": "counts",
        "knocker": "0",
        "outcome": "knock",
        "knocker_deadwood": "5",
        "defender_deadwood": "25",
        "hand_number": "1",
        **extra,
    }


def _laid_out(html: str, language: str) -> None:
    """The site's layout: header with the language switch, one <main>, the page's language."""
    assert f'<html lang="{language}">' in html
    assert '<header class="topbar">' in html
    assert 'class="lang"' in html
    assert 'name="language" value="ko"' in html
    assert html.count("<main") == 1


# -- 404 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "language", "title"),
    [({}, "en", "This page does not exist"), (KO, "ko", "없는 페이지입니다")],
)
def test_an_unknown_page_is_the_sites_404_in_the_readers_language(headers, language, title):
    response = Client().get("/no/such/page/", **headers)
    assert response.status_code == 404
    html = response.content.decode()
    _laid_out(html, language)
    assert f"<h1>{title}</h1>" in html
    assert 'href="/"' in html  # the way home
    assert "Not Found" not in html


def test_the_api_still_answers_404_in_json():
    response = Client().get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


def test_a_replaced_link_says_so_in_korean_in_the_sites_layout():
    match = _match()
    old = match_link_token(match=match, position=0)
    match_links_reissue(match=match, actor=Actor(user=event_director(match.event)), positions=[0])
    response = Client().get(f"/l/{old}/", **KO)
    assert response.status_code == 404
    html = response.content.decode()
    _laid_out(html, "ko")
    assert "유효하지 않은 링크입니다. 새 링크로 바뀌었거나 없는 링크입니다." in html
    assert "디렉터에게 새 " in html  # what to do: ask the director for the new link


# -- 429 ---------------------------------------------------------------------------------------


def test_too_many_invalid_links_say_how_long_to_wait(settings):
    settings.KNOCK_LINK_FAILURE_LIMIT = 2
    client = Client()
    statuses = [client.get(f"/l/{'x' * 32}{i}/").status_code for i in range(3)]
    assert statuses[:2] == [404, 404]
    response = client.get(f"/l/{'y' * 32}/", **KO)
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    html = response.content.decode()
    _laid_out(html, "ko")
    assert re.search(r"\d+분", html)  # "wait N minutes", in Korean


# -- 403 ---------------------------------------------------------------------------------------


def test_a_signed_in_user_who_cannot_see_a_page_is_named_and_offered_another_sign_in():
    match = _match()
    client = Client()
    client.force_login(UserFactory(username="ada"))
    response = client.get(f"/events/{match.event.pk}/import/")
    assert response.status_code == 403
    html = response.content.decode()
    _laid_out(html, "en")
    assert "Only the event&#x27;s directors may import score sheets." in html
    assert "You are signed in as ada, who cannot see this." in html
    assert 'action="/accounts/logout/"' in html
    assert 'name="next" value="/accounts/login/?next=' in html
    assert "Sign in as someone else" in html


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/events/{event}/disputes/", "Only the event&#x27;s directors see its disputes."),
        ("/clubs/{club}/edit/", "Only the club&#x27;s admins may change the club."),
    ],
)
def test_the_hand_made_403_pages_are_now_the_sites_403_with_their_message(url, message):
    match = _match()
    client = Client()
    client.force_login(UserFactory(username="bao"))
    address = url.format(event=match.event.pk, club=match.event.club.slug)
    response = client.get(address, **KO)
    assert response.status_code == 403
    html = response.content.decode()
    _laid_out(html, "ko")
    assert "bao 계정으로 로그인되어 있으며" in html
    assert "<h1>권한 없음</h1>" in html


def test_a_seated_director_is_refused_the_links_page_with_the_reason():
    match = _match()
    user = UserFactory(username="cleo")
    match.event.directors.add(user)
    seat = match.seats.get(position=0)
    seat.player.user = user
    seat.player.save()
    client = Client()
    client.force_login(user)
    response = client.get(f"/matches/{match.pk}/links/")
    assert response.status_code == 403
    assert "Only a director not playing at this table sees and reissues its links." in (
        response.content.decode()
    )


# -- 400 ---------------------------------------------------------------------------------------


def test_a_bad_request_is_the_sites_400_page():
    response = Client().get("/", HTTP_HOST="bad host!", **KO)
    assert response.status_code == 400
    html = response.content.decode()
    _laid_out(html, "ko")
    assert "<h1>요청을 읽을 수 없습니다</h1>" in html
    assert "htmx-2.min.js" in html  # the site's own layout, not the standalone page


# -- 500, 503, 413: standing alone -------------------------------------------------------------


@pytest.mark.urls("tests.core.error_urls")
@pytest.mark.parametrize(
    ("headers", "language", "title"),
    [({}, "en", "Something went wrong on our side"), (KO, "ko", "서버에서 문제가 생겼습니다")],
)
def test_a_server_error_is_the_sites_500_in_the_readers_language(
    headers, language, title, django_assert_num_queries
):
    client = Client(raise_request_exception=False)
    with django_assert_num_queries(0):
        response = client.get("/test-only/boom/", **headers)
    assert response.status_code == 500
    html = response.content.decode()
    _laid_out(html, language)
    assert f"<h1>{title}</h1>" in html
    assert 'name="csrfmiddlewaretoken"' in html  # the language switch can post


class _Untouchable:
    """A session or user that fails if the page reads it."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the error page read {name}")

    def __getitem__(self, name: str) -> Any:
        raise AssertionError(f"the error page read {name}")


def test_the_500_page_reads_neither_the_session_nor_the_user():
    request = RequestFactory().get("/somewhere/", HTTP_ACCEPT_LANGUAGE="ko")
    request.session = cast(Any, _Untouchable())
    request.user = cast(Any, _Untouchable())
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        response = error_views.server_error(request)
    assert response.status_code == 500
    assert "서버에서 문제가 생겼습니다" in response.content.decode()


def test_the_500_page_follows_the_language_the_request_was_read_in():
    request = RequestFactory().get("/somewhere/", HTTP_ACCEPT_LANGUAGE="en")
    request.LANGUAGE_CODE = "ko"
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        response = error_views.server_error(request)
    assert '<html lang="ko">' in response.content.decode()


@pytest.mark.parametrize(
    ("status", "language", "title"),
    [(503, "ko", "Knock가 잠시 바쁩니다"), (413, "en", "Too much was sent at once")],
)
def test_413_and_503_stand_alone_with_the_same_look(status, language, title):
    request = RequestFactory().get("/x/", HTTP_ACCEPT_LANGUAGE=language)
    request.session = cast(Any, _Untouchable())
    response = error_views.error_response(request, status=status, detail="Detail.")
    assert response.status_code == status
    html = response.content.decode()
    _laid_out(html, language)
    assert f"<h1>{title}</h1>" in html


# -- an entry sent from a page whose link was replaced -------------------------------------------


def test_an_entry_from_a_replaced_link_is_refused_with_the_marker_and_nothing_stored():
    match = _match()
    alice = _seat(match, 0)
    match_links_reissue(match=match, actor=Actor(user=event_director(match.event)), positions=[0])
    response = alice.post(f"/matches/{match.pk}/hands/", _form(), **KO)
    assert response.status_code == 404
    assert response["X-Knock-Credential"] == "gone"
    html = response.content.decode()
    _laid_out(html, "ko")
    assert "디렉터가 새 링크로 바꿨습니다" in html
    assert not HandSubmission.objects.filter(hand__game__match=match).exists()
    # the new link opens the same seat again, and the same entry is stored
    alice.get(f"/l/{match_link_token(match=match, position=0)}/")
    assert alice.post(f"/matches/{match.pk}/hands/", _form()).status_code == 302
    assert HandSubmission.objects.filter(hand__game__match=match).count() == 1


def test_a_signed_in_stranger_gets_a_plain_404_without_the_marker():
    match = _match()
    client = Client()
    client.force_login(UserFactory(username="eve"))
    response = client.post(f"/matches/{match.pk}/hands/", _form())
    assert response.status_code == 404
    assert "X-Knock-Credential" not in response
    assert "This page does not exist" in response.content.decode()


def test_the_live_poll_of_a_page_whose_link_was_replaced_says_so_instead_of_dropping_the_form():
    match = _match()
    alice = _seat(match, 0)
    live = f"/matches/{match.pk}/live/"
    before = alice.get(live)
    assert before.status_code == 200
    assert "X-Knock-Credential" not in before
    assert 'name="knocker_deadwood"' in before.content.decode()  # the entry form is hers
    match_links_reissue(match=match, actor=Actor(user=event_director(match.event)), positions=[0])
    after = alice.get(live, **KO)
    # Not the spectator's regions (which have no entry form): the marker static/js/live.js
    # reads to stop polling and say that the link was replaced.
    assert after.status_code == 404
    assert after["X-Knock-Credential"] == "gone"
    assert "디렉터가 새 링크로 바꿨습니다" in after.content.decode()
    # A spectator who never held a link still follows the table.
    spectator = Client().get(live)
    assert spectator.status_code == 200
    assert "X-Knock-Credential" not in spectator


@pytest.mark.parametrize("act", ["confirm", "withdraw", "dispute"])
def test_answering_an_entry_from_a_replaced_link_says_what_happened_and_stores_nothing(act):
    match = _match()
    alice, bob = _seat(match, 0), _seat(match, 1)
    assert alice.post(f"/matches/{match.pk}/hands/", _form()).status_code == 302
    sub = HandSubmission.objects.get(hand__game__match=match)
    # Alice withdraws her own entry; Bob confirms or disputes it: their link is replaced first.
    actor, position = (alice, 0) if act == "withdraw" else (bob, 1)
    match_links_reissue(
        match=match, actor=Actor(user=event_director(match.event)), positions=[position]
    )
    response = actor.post(
        f"/matches/{match.pk}/entries/{sub.pk}/{act}/", {"reason": "wrong count"}, **KO
    )
    assert response.status_code == 404
    assert response["X-Knock-Credential"] == "gone"
    html = response.content.decode()
    _laid_out(html, "ko")
    assert "디렉터가 새 링크로 바꿨습니다" in html
    sub.refresh_from_db()
    assert sub.status == HandSubmission.Status.PENDING


def test_a_failed_csrf_check_on_a_page_is_the_sites_403_with_what_to_do():
    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "x"}, **KO)
    assert response.status_code == 403
    html = response.content.decode()
    _laid_out(html, "ko")
    assert "보안 확인 (CSRF)에 실패했습니다. 페이지를 새로 고친 뒤 다시 시도하세요." in html
