"""The public pages behind the real nginx (deploy/nginx/knock.conf) in front of `manage.py serve`,
as docs/live.md says: a visitor without a session is sent no cookie, so the event's and a table's
pages are kept by nginx's cache and a second visitor is answered from it (X-Cache-Status: HIT);
each language has its own copy (a Korean visitor never gets the English page, nor the other way
round, whether the language comes from the cookie or Accept-Language); a visitor with a session
or a message waiting goes past the cache.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.venue.test_behind_nginx import Phone, club_night_started, knock_behind_nginx

pytestmark = [
    pytest.mark.venue,
    pytest.mark.filterwarnings("ignore::urllib3.exceptions.InsecureRequestWarning"),
]

LANG = re.compile(r'<html lang="([a-z-]+)"')


@pytest.fixture
def venue(tmp_path: Path) -> Iterator[str]:
    with knock_behind_nginx(tmp_path) as (base, _nginx):
        yield base


def _visit(base: str, path: str, n: int, **headers: str) -> tuple[str, str, str]:
    """A new visitor (no cookie of its own) asks for ``path``: (X-Cache-Status, the page's
    language, Cache-Control); it is sent no cookie."""
    phone = Phone(base, f"127.0.2.{n}")
    answer = phone.get(path, headers=headers)
    assert answer.status_code == 200, (path, answer.status_code)
    assert "Set-Cookie" not in answer.headers, (path, answer.headers["Set-Cookie"])
    found = LANG.search(answer.text)
    assert found, answer.text[:300]
    return answer.headers.get("X-Cache-Status", ""), found[1], answer.headers["Cache-Control"]


def _second_is_a_hit(base: str, path: str, first: int, **headers: str) -> str:
    """Two visitors one after the other: the second is answered by the cache. The language."""
    status, lang, control = _visit(base, path, first, **headers)
    assert "public" in control, control
    assert "s-maxage" in control, control
    # The entry lives a second at least: asked again at once, it is a HIT (a rare slow machine may
    # have let it expire in between: once more).
    for n in (first + 1, first + 2):
        again, lang_again, _ = _visit(base, path, n, **headers)
        assert lang_again == lang, (path, headers, lang, lang_again)
        if again == "HIT":
            return lang
    raise AssertionError(f"{path} {headers}: not answered by the cache ({status}, {again})")


def test_public_pages_are_kept_by_nginx_per_language(venue: str) -> None:
    base = venue
    director = Phone(base, "127.0.0.10")
    token = director.token("director", "knock-demo")
    assert token.status_code in (200, 201), token.text
    match, _seats = club_night_started(director, token.json()["token"])
    event = director.get(f"/api/matches/{match}/").json()["event"]
    pages = [f"/matches/{match}/", f"/events/{event}/", f"/events/{event}/projector/"]

    n = 1
    for path in pages:
        assert _second_is_a_hit(base, path, n) == "en"  # no language asked: English
        n += 3
        # Korean, then English, then Korean again, each from the cache, never mixed up.
        for _ in range(2):
            for header, want in (("ko-KR,ko;q=0.9,en-US;q=0.8", "ko"), ("en-US,en;q=0.9", "en")):
                assert _second_is_a_hit(base, path, n, **{"Accept-Language": header}) == want
                n += 3
        # The language cookie wins over Accept-Language, as in Django.
        cookie = {"Cookie": "django_language=ko", "Accept-Language": "en-US,en;q=0.9"}
        assert _second_is_a_hit(base, path, n, **cookie) == "ko"
        n += 3
        cookie = {"Cookie": "django_language=en", "Accept-Language": "ko"}
        assert _second_is_a_hit(base, path, n, **cookie) == "en"
        n += 3
        # A header nginx cannot read for sure is kept apart, as sent: Django picks Korean.
        assert _second_is_a_hit(base, path, n, **{"Accept-Language": "fr, ko;q=0.5"}) == "ko"
        n += 3

    # A visitor with a session, or with a message waiting, goes past the cache.
    signed_in = Phone(base, "127.0.0.11")
    assert signed_in.sign_in("director", "knock-demo").status_code == 302
    mine = signed_in.get(f"/events/{event}/")
    assert mine.headers["X-Cache-Status"] == "BYPASS"
    assert "private" in mine.headers["Cache-Control"]
    assert 'name="csrfmiddlewaretoken"' in mine.text
    flashed = Phone(base, "127.0.0.12").get(f"/events/{event}/", headers={"Cookie": "messages=x"})
    assert flashed.headers["X-Cache-Status"] == "BYPASS"


def test_the_cache_keeps_a_compressed_and_a_plain_copy(venue: str) -> None:
    """A phone asks with Accept-Encoding: gzip and is sent the copy Knock compressed once (nginx
    does not compress it again); a client that asks for none gets its own plain copy, from the
    cache too, never the compressed one."""
    base = venue
    director = Phone(base, "127.0.0.10")
    token = director.token("director", "knock-demo")
    assert token.status_code in (200, 201), token.text
    match, _seats = club_night_started(director, token.json()["token"])
    event = director.get(f"/api/matches/{match}/").json()["event"]
    path = f"/events/{event}/"
    texts = {}
    for n, encoding in ((1, "gzip, deflate, br"), (4, "identity")):
        for attempt in range(3):
            answer = Phone(base, f"127.0.3.{n + attempt}").get(
                path, headers={"Accept-Encoding": encoding}
            )
            assert answer.status_code == 200
            sent = answer.headers.get("Content-Encoding", "")
            assert sent == ("gzip" if encoding != "identity" else ""), (encoding, sent)
            texts[encoding] = answer.text
            if attempt and answer.headers.get("X-Cache-Status") == "HIT":
                break
        else:
            raise AssertionError(f"{encoding}: never answered by the cache")
    for text in texts.values():  # both read as the same page
        assert LANG.search(text)
        assert f"/events/{event}/" in text


def test_the_language_switch_works_for_a_visitor_without_a_session(venue: str) -> None:
    phone = Phone(venue, "127.0.0.13")
    page = phone.get("/clubs/")
    assert page.status_code == 200
    assert "csrfmiddlewaretoken" not in page.text
    switched = phone.post(
        "/i18n/setlang/",
        data={"language": "ko", "next": "/clubs/"},
        headers={"Referer": "https://knock.test/clubs/", "Origin": "https://knock.test"},
    )
    assert switched.status_code == 302, switched.text[:300]
    assert phone.session.cookies.get("django_language") == "ko"
    korean = phone.get("/clubs/")
    found = LANG.search(korean.text)
    assert found, korean.text[:300]
    assert found[1] == "ko"
