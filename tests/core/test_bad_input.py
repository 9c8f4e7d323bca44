"""Bad input at the boundary (issue 26): text that is not valid Unicode, bodies over the limit,
names with nothing visible, and the API's errors always in JSON (a lost database a 503)."""

from __future__ import annotations

import json
from typing import Any
from unittest import mock

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client, RequestFactory, override_settings
from django.utils import translation

from clubs.models import Club, ClubRole, Player
from core.error_views import csrf_failure
from core.names import name_clean, visible_strip
from core.parsers import unencodable_path
from core.renderers import SafeJSONRenderer
from scoring.models import HandSubmission
from scoring.services import match_link_token
from tests.clubs.factories import ClubRoleFactory, PlayerFactory
from tests.scoring.factories import MatchFactory, event_director
from tests.tournaments.factories import EventFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db

LONE = "\ud800"
MULTIPART = "multipart/form-data; boundary=XX"


def _multipart(fields: dict[str, str]) -> bytes:
    parts = [
        f'--XX\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
        for k, v in fields.items()
    ]
    return ("".join(parts) + "--XX--\r\n").encode("ascii")


def _admin_client() -> tuple[Client, Any]:
    role = ClubRoleFactory(role=ClubRole.Role.ADMIN)
    client = Client()
    client.force_login(role.user)
    return client, role.club


def _post_json(client: Client, url: str, body: object, method: str = "post") -> object:
    # json.dumps writes a lone surrogate as the escape "\ud800", as any client may.
    return getattr(client, method)(url, json.dumps(body), content_type="application/json")


# -- text that is not valid Unicode ------------------------------------------------------------


def test_the_json_path_of_text_that_is_not_valid_unicode():
    assert unencodable_path({"name": LONE}) == "name"
    assert unencodable_path({"players": ["Ann", f"B{LONE}"]}) == "players[1]"
    assert unencodable_path({"hands": [{"knocker": 0}, {"outcome": LONE}]}) == "hands[1].outcome"
    assert unencodable_path({"ok": {LONE: 1}}) == "ok.\\ud800"
    assert unencodable_path(LONE) == ""
    assert unencodable_path({"name": "한글 😀", "n": [1, None, True]}) is None


def test_a_lone_surrogate_in_a_hand_is_400_naming_the_field_and_stores_nothing():
    event = EventFactory(confirmation="opponent")
    match = MatchFactory(event=event, players=[PlayerFactory(club=event.club) for _ in range(2)])
    client = Client(HTTP_X_MATCH_KEY=match_link_token(match=match, position=0))
    before = HandSubmission.objects.count()
    for path in (f"/api/matches/{match.pk}/hands/", f"/api/matches/{match.pk}/hands/preview/"):
        body = {"knocker": 0, "outcome": f"knock{LONE}", "knocker_deadwood": 3}
        response = _post_json(client, path, body)
        assert response.status_code == 400, response.content
        assert response.json()["field"] == "outcome"
        assert "Unicode" in response.json()["detail"]
    assert HandSubmission.objects.count() == before


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        ("post", "/api/events/", {"club": 0, "name": f"Night {LONE}", "kind": "swiss"}, "name"),
        ("post", "/api/clubs/0/players/bulk/", {"names": ["Ann", f"Bo{LONE}"]}, "names[1]"),
        ("post", "/api/clubs/0/roles/", {"username": LONE, "role": "director"}, "username"),
        ("put", "/api/clubs/0/gem-deck/", {"deck": {LONE: 1}}, "deck.\\ud800"),
        ("post", "/api/players/", {"club": 0, "name": "Ann", LONE: "x"}, "\\ud800"),
    ],
)
def test_a_lone_surrogate_anywhere_in_a_json_body_is_400_naming_it(method, path, body, field):
    client, club = _admin_client()
    if "club" in body:
        body = {**body, "club": club.pk}
    before = (Event.objects.count(), Player.objects.count(), ClubRole.objects.count())
    response = _post_json(client, path.replace("/0/", f"/{club.pk}/"), body, method)
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field
    assert (Event.objects.count(), Player.objects.count(), ClubRole.objects.count()) == before


def test_the_message_is_in_the_readers_language():
    client, club = _admin_client()
    response = client.post(
        "/api/players/",
        json.dumps({"club": club.pk, "name": LONE}),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="ko",
    )
    assert response.status_code == 400
    assert "유니코드" in response.json()["detail"]


def test_a_lone_surrogate_in_a_form_is_400_naming_the_field_and_stores_nothing():
    # A multipart form that declares the charset unicode_escape (or utf-7) can carry a lone
    # surrogate (Django reads urlencoded forms as UTF-8 only).
    client, club = _admin_client()
    before = Player.objects.count()
    response = client.generic(
        "POST",
        f"/clubs/{club.slug}/players/add/",
        _multipart({"add-name": "Ann\\ud800"}),
        content_type=f"{MULTIPART}; charset=unicode_escape",
    )
    assert response.status_code == 400
    assert b"add-name holds text that is not valid Unicode" in response.content
    assert response["Content-Type"].startswith("text/html")
    # ... and the same through the API's form parser, in JSON.
    response = client.generic(
        "POST",
        "/api/players/",
        _multipart({"club": str(club.pk), "name": "+2AA-"}),
        content_type=f"{MULTIPART}; charset=utf-7",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "name"
    assert Player.objects.count() == before


def test_a_urlencoded_form_in_another_charset_is_a_json_400_on_the_api():
    client, club = _admin_client()
    response = client.generic(
        "POST",
        "/api/players/",
        f"club={club.pk}&name=%2B2AA-".encode(),
        content_type="application/x-www-form-urlencoded; charset=utf-7",
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "Bad request."}


def test_a_form_that_cannot_be_read_is_400_not_500():
    client, club = _admin_client()
    response = client.generic(
        "POST",
        f"/clubs/{club.slug}/players/add/",
        b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
        content_type="multipart/form-data",  # no boundary
    )
    assert response.status_code == 400


def test_text_that_cannot_be_encoded_never_breaks_the_json_renderer():
    body = SafeJSONRenderer().render({"role": [f'"{LONE}" is not a valid choice.'], "ok": "한"})
    assert json.loads(body) == {"role": [f'"{LONE}" is not a valid choice.'], "ok": "한"}
    # Valid text is still written as it is, not escaped.
    assert SafeJSONRenderer().render({"ok": "한"}) == '{"ok":"한"}'.encode()


def test_text_from_the_request_that_breaks_a_response_is_a_400_not_a_500():
    # The safety net behind the checks above: a view whose answer cannot be encoded.
    client = Client(raise_request_exception=False)
    error = UnicodeEncodeError("utf-8", f"A{LONE}", 1, 2, "surrogates not allowed")
    with mock.patch("core.health_api.health_status", side_effect=error):
        response = client.get("/api/health/")
    assert response.status_code == 400
    assert "Unicode" in response.json()["detail"]


# -- bodies over the limit ---------------------------------------------------------------------


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_body_over_the_limit_is_413_in_json_on_the_api():
    client, club = _admin_client()
    big = json.dumps({"club": club.pk, "name": "x" * 5000})
    response = client.post("/api/players/", big, content_type="application/json")
    assert response.status_code == 413
    assert response.json() == {"detail": "The request body is too large."}
    # a form body over the limit, refused by Django itself
    response = client.post(
        "/api/players/",
        f"club={club.pk}&name={'x' * 5000}",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 413
    assert response.json() == {"detail": "The request body is too large."}
    assert Player.objects.count() == 0


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_form_over_the_limit_is_a_413_page():
    client, club = _admin_client()
    response = client.post(f"/clubs/{club.slug}/players/add/", {"add-name": "x" * 5000})
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/html")
    assert b"The request body is too large." in response.content
    assert Player.objects.count() == 0


# -- names with nothing visible ----------------------------------------------------------------

INVISIBLE = ["\u200b", "\u200b\u200d\ufeff", " \u2066\u2069 ", "\u3164", "\u00a0\u3000\u180e"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_with_nothing_visible_is_refused(name):
    with pytest.raises(Exception) as caught:
        name_clean(name, empty_message="empty")
    assert caught.value.field == "name"
    assert "visible" in caught.value.message


def test_a_name_is_trimmed_of_invisible_characters_at_its_ends_only():
    assert name_clean("\u200b Ann \ufeff", empty_message="empty") == "Ann"
    family = "👨\u200d👩\u200d👧"  # joined by zero-width joiners: kept
    assert visible_strip(f"\u200b{family}\u200b") == family
    with pytest.raises(Exception, match="empty"):
        name_clean("   ", empty_message="empty")


@pytest.mark.parametrize("name", INVISIBLE)
def test_the_api_refuses_an_invisible_name_for_a_player_club_event_and_a_pasted_list(name):
    client, club = _admin_client()
    before = (Club.objects.count(), Player.objects.count(), Event.objects.count())
    cases = [
        ("/api/players/", {"club": club.pk, "name": name}, "name"),
        ("/api/clubs/", {"name": name}, "name"),
        ("/api/events/", {"club": club.pk, "name": name, "kind": "swiss"}, "name"),
        (f"/api/clubs/{club.pk}/players/bulk/", {"names": ["Ann", name]}, "names"),
    ]
    for path, body, field in cases:
        response = _post_json(client, path, body)
        assert response.status_code == 400, (path, response.content)
        assert response.json()["field"] == field, (path, response.json())
    assert (Club.objects.count(), Player.objects.count(), Event.objects.count()) == before


def test_renaming_to_an_invisible_name_is_refused_and_the_old_name_kept():
    event = EventFactory(name="Friday")
    player = PlayerFactory(club=event.club, name="Ann")
    client = Client()
    client.force_login(event_director(event))
    ClubRoleFactory(club=event.club, user=event_director(event), role="admin")
    response = _post_json(client, f"/api/events/{event.pk}/", {"name": "\u200b"}, "patch")
    assert response.status_code == 400
    assert response.json()["field"] == "name"
    response = _post_json(client, f"/api/players/{player.pk}/", {"name": "\u2800"}, "patch")
    assert response.status_code == 400
    event.refresh_from_db()
    player.refresh_from_db()
    assert (event.name, player.name) == ("Friday", "Ann")


def test_the_page_refuses_an_invisible_player_name_in_the_readers_language():
    client, club = _admin_client()
    with translation.override("ko"):
        response = client.post(
            f"/clubs/{club.slug}/players/add/",
            {"add-name": "\u200b\u200c"},
            HTTP_ACCEPT_LANGUAGE="ko",
        )
    assert response.status_code in (200, 400)
    assert "보이는 글자" in response.content.decode()
    assert Player.objects.count() == 0


# -- the API's errors are JSON -----------------------------------------------------------------


def test_an_unknown_api_address_is_a_json_404_and_a_page_stays_html():
    response = Client().get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}
    page = Client().get("/no-such-page/")
    assert page.status_code == 404
    assert page["Content-Type"].startswith("text/html")


def test_an_unhandled_exception_in_an_api_view_is_a_json_500():
    client = Client(raise_request_exception=False)
    with mock.patch("core.health_api.health_status", side_effect=RuntimeError("boom")):
        response = client.get("/api/health/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert "detail" in response.json()
    assert "boom" not in response.content.decode()


@override_settings(ALLOWED_HOSTS=["knock.example"])
def test_a_disallowed_host_on_the_api_is_a_json_400():
    response = Client().get("/api/health/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert response.json() == {"detail": "Bad request."}


def test_a_csrf_failure_on_the_api_is_json_and_on_a_page_html():
    api = csrf_failure(RequestFactory().post("/api/anything/"), reason="no token")
    assert api.status_code == 403
    assert json.loads(api.content)["detail"].startswith("The security check (CSRF) failed")
    page = csrf_failure(RequestFactory().post("/clubs/new/"), reason="no token")
    assert page.status_code == 403
    assert page["Content-Type"].startswith("text/html")


def test_a_csrf_failure_on_a_page_still_refuses_the_post():
    client, club = _admin_client()
    client = Client(enforce_csrf_checks=True)
    client.force_login(ClubRoleFactory(club=club, role=ClubRole.Role.ADMIN).user)
    response = client.post(f"/clubs/{club.slug}/players/add/", {"add-name": "Ann"})
    assert response.status_code == 403
    assert Player.objects.count() == 0


# -- a lost database connection ----------------------------------------------------------------


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_lost_database_in_an_api_view_is_a_json_503_with_retry_after(error):
    client = Client(raise_request_exception=False)
    with mock.patch("core.health_api.health_status", side_effect=error("connection lost")):
        response = client.get("/api/health/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "database" in response.json()["detail"]


def test_a_lost_database_in_a_page_is_a_503_page_with_retry_after():
    client = Client(raise_request_exception=False)
    with mock.patch("core.views.health_status", side_effect=OperationalError("gone")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Content-Type"].startswith("text/html")


def test_a_lost_database_in_a_middleware_is_a_503_too():
    client = Client(raise_request_exception=False)
    target = "django.middleware.common.CommonMiddleware.process_request"
    with mock.patch(target, side_effect=OperationalError("server closed the connection")):
        api = client.get("/api/health/")
        page = client.get("/")
    assert (api.status_code, page.status_code) == (503, 503)
    assert api.json()["detail"]
    assert api["Retry-After"] == page["Retry-After"] == "5"
