"""The entrant's language: the entry page and the API store the language the entrant entered
in (the request's: the language cookie or ``Accept-Language``, through Django's
LocaleMiddleware), and the mail telling them the waiting list moved them up is written in it,
whatever language the request that freed the place was in."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from entries.models import Entry
from entries.services import entry_language, entry_submit
from tests.entries.factories import OpenEventFactory
from tests.tournaments.factories import RegistrationFactory
from tournaments.services import registration_drop

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counts() -> None:
    cache.clear()


def test_a_language_is_one_of_the_sites():
    assert entry_language("ko") == "ko"
    assert entry_language("ko-KR") == "ko"
    assert entry_language("en-us") == "en"
    assert entry_language("fr") == "en"
    assert entry_language("") == "en"
    assert entry_language(None) == "en"


@pytest.mark.parametrize(
    ("headers", "language"),
    [
        ({"HTTP_ACCEPT_LANGUAGE": "ko-KR,ko;q=0.9"}, "ko"),
        ({"HTTP_ACCEPT_LANGUAGE": "en"}, "en"),
        ({}, "en"),
    ],
)
def test_the_entry_page_stores_the_request_language(headers: dict[str, str], language: str):
    event: Any = OpenEventFactory()
    answer = Client(**headers).post(reverse("event-enter", args=[event.pk]), {"name": "Ann"})
    assert answer.status_code == 200
    assert Entry.objects.get(event=event).language == language


def test_the_entry_page_follows_the_language_cookie():
    event: Any = OpenEventFactory()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.cookies["django_language"] = "ko"
    client.post(reverse("event-enter", args=[event.pk]), {"name": "Ann"})
    assert Entry.objects.get(event=event).language == "ko"


@pytest.mark.parametrize(
    ("accept", "language"), [("ko", "ko"), ("en-GB,en;q=0.8", "en"), ("de", "en")]
)
def test_the_api_stores_the_request_language(accept: str, language: str):
    event: Any = OpenEventFactory()
    made = APIClient().post(
        f"/api/events/{event.pk}/enter/",
        {"name": "Ann"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=accept,
    )
    assert made.status_code == 201, made.content
    assert Entry.objects.get(pk=made.json()["id"]).language == language


def promoted_mail(capture: Any, *, entered_in: str, dropped_in: str) -> mail.EmailMessage:
    """Bob waits (entered in ``entered_in``); a player drops out in a request in ``dropped_in``;
    the mail Bob gets."""
    event: Any = OpenEventFactory(
        name="Spring Open", options={"entries_open": True, "entries_cap": 1}
    )
    first = RegistrationFactory(event=event)
    bob = entry_submit(
        event=event, name="Bob", email="bob@example.org", waiting_list=True, language=entered_in
    )
    assert bob.language == entered_in
    with translation.override(dropped_in), capture(execute=True):
        registration_drop(registration=first)
    bob.refresh_from_db()
    assert bob.status == Entry.Status.ACCEPTED
    (sent,) = [m for m in mail.outbox if "Spring Open" in m.subject and "Bob" in m.body]
    assert sent.to == ["bob@example.org"]
    return sent


def test_a_korean_entrant_is_told_in_korean(django_capture_on_commit_callbacks: Any):
    sent = promoted_mail(django_capture_on_commit_callbacks, entered_in="ko", dropped_in="en")
    assert sent.subject == "Spring Open 대회에 자리가 생겼습니다"
    assert "Bob 님, 안녕하세요." in sent.body
    assert "대기자 명단에서 올라 등록되었습니다" in sent.body
    assert "다음 플레이어가" in sent.body
    assert "waiting list" not in sent.body


def test_an_english_entrant_is_told_in_english(django_capture_on_commit_callbacks: Any):
    sent = promoted_mail(django_capture_on_commit_callbacks, entered_in="en", dropped_in="ko")
    assert sent.subject == "You have a place in Spring Open"
    assert "Hello Bob," in sent.body
    assert "you have moved up from the waiting list" in sent.body
    assert "님" not in sent.body
