"""A player's own check-in link is issued only as ``/checkin/#<token>`` (the token is the URL's
fragment, never sent to a server): the page that reads it, the API that takes it in the body,
the cards that print it, and ``/checkin/<token>/`` still working for cards printed before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.models import ClubRole
from passes.services import pass_find
from printing import services as printing
from scoring.permissions import Actor
from tests.clubs.factories import ClubRoleFactory
from tests.tournaments.factories import EventFactory, RegistrationFactory
from tournaments.links import checkin_url, token_from
from tournaments.models import Event, Registration

pytestmark = pytest.mark.django_db

SCRIPT = Path(settings.BASE_DIR) / "static" / "js" / "checkin.js"


def _registration() -> Any:
    return RegistrationFactory(event=EventFactory(kind=Event.Kind.SWISS))


def test_the_link_carries_the_token_as_its_fragment():
    url = checkin_url(absolute=lambda path: "https://knock.example" + path, token="AbC-1_x")
    assert url == "https://knock.example/checkin/#AbC-1_x"
    assert token_from(url) == "AbC-1_x"
    assert token_from("https://knock.example/checkin/AbC-1_x/") == "AbC-1_x"
    assert token_from("  AbC-1_x ") == "AbC-1_x"


def test_the_fragment_page_posts_the_token_with_a_static_script_and_clears_the_address():
    html = Client().get("/checkin/").content.decode()
    assert 'id="checkin-open"' in html
    assert 'name="token"' in html
    assert "/static/js/checkin.js" in html
    assert "<script>" not in html  # no inline script: CSP script-src 'self'
    script = SCRIPT.read_text(encoding="utf-8")
    assert "window.location.hash" in script
    assert "history.replaceState" in script
    assert 'getElementById("checkin-open")' in script
    assert "form.submit()" in script


def test_posting_the_token_shows_the_players_page_and_its_button_checks_in():
    reg = _registration()
    client = Client()
    shown = client.post("/checkin/", {"token": f"#{reg.checkin_token}"})
    assert shown.status_code == 200
    assert shown["Referrer-Policy"] == "no-referrer"
    html = shown.content.decode()
    assert "I am here" in html
    assert f'action="{reverse("checkin-open")}"' in html  # the button posts the token, no path
    reg.refresh_from_db()
    assert reg.status == Registration.Status.REGISTERED  # looking is not checking in
    done = client.post("/checkin/", {"token": reg.checkin_token, "confirm": "1"})
    assert done.status_code == 200
    assert "You are checked in" in done.content.decode()
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN


def test_a_whole_pasted_link_works_and_a_bad_one_is_a_clear_404():
    reg = _registration()
    pasted = Client().post(
        "/checkin/", {"token": f"https://x.example/checkin/#{reg.checkin_token}"}
    )
    assert "I am here" in pasted.content.decode()
    with translation.override("ko"):
        bad = Client(HTTP_ACCEPT_LANGUAGE="ko").post("/checkin/", {"token": "not-a-token"})
    assert bad.status_code == 404
    assert "유효하지 않은 체크인 링크입니다." in bad.content.decode()
    assert Client().post("/checkin/", {"token": ""}).status_code == 404
    reg.refresh_from_db()
    assert reg.status == Registration.Status.REGISTERED


def test_the_old_path_still_works_and_its_page_posts_without_the_token_in_the_url():
    reg = _registration()
    url = f"/checkin/{reg.checkin_token}/"
    page = Client().get(url)
    assert page.status_code == 200
    assert page["Referrer-Policy"] == "no-referrer"
    assert f'action="{reverse("checkin-open")}"' in page.content.decode()
    assert "You are checked in" in Client().post(url).content.decode()  # an old open page
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN
    assert Client().get("/checkin/not-a-token/").status_code == 404


def test_the_api_takes_the_token_in_the_body(api):
    reg = _registration()
    done = api.post("/api/checkin/", {"token": reg.checkin_token}, format="json")
    assert done.status_code == 200, done.content
    assert done.json()["status"] == "checked_in"
    other = _registration()
    link = f"https://knock.example/checkin/#{other.checkin_token}"
    assert api.post("/api/checkin/", {"token": link}, format="json").status_code == 200
    assert api.post("/api/checkin/", {"token": "nope"}, format="json").status_code == 404
    missing = api.post("/api/checkin/", {}, format="json")
    assert missing.status_code == 400
    assert "token" in missing.json()


def test_the_cards_print_the_fragment_link(monkeypatch):
    reg = _registration()
    role = ClubRoleFactory(club=reg.event.club, role=ClubRole.Role.DIRECTOR)
    seen: list[str] = []

    def capture(**kwargs):
        seen.extend(card.url for card in kwargs["cards"])
        return b"%PDF-"

    monkeypatch.setattr(printing, "qr_cards_pdf", capture)
    printing.checkin_cards_pdf(
        event=reg.event,
        actor=Actor(user=role.user),
        absolute=lambda path: "https://knock.example" + path,
        paper="a4",
    )
    # The card holds the player's pass (issue #27), which checks in too: a fragment link.
    (url,) = seen
    assert url.startswith("https://knock.example/p/#")
    assert pass_find(secret=url.split("#", 1)[1]).registration == reg
