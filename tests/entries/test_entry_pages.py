"""Online entry, the pages: the public entry page (English and Korean, the honeypot, the
waiting list offered when full, refusals that store nothing) and the director's list of
entries linked from the console."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from entries.models import Entry
from entries.services import entry_submit
from tests.tournaments.factories import EventFactory
from tournaments.models import Event, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counts() -> None:
    cache.clear()


def open_event(club: Any = None, **options: Any) -> Any:
    extra = {"club": club} if club is not None else {}
    return EventFactory(
        kind=Event.Kind.SWISS,
        status=Event.Status.REGISTRATION,
        options={"entries_open": True, **options},
        **extra,
    )


def enter(event: Any, client: Client | None = None, **data: Any) -> Any:
    return (client or Client()).post(reverse("event-enter", args=[event.pk]), data)


def test_the_entry_page_shows_the_form_and_registers():
    event = open_event(entries_cap=8)
    page = Client().get(reverse("event-enter", args=[event.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="name"' in html
    assert 'name="website"' in html
    assert "8 places left." in html
    answer = enter(event, name="Dee", email="dee@example.com")
    assert answer.status_code == 200
    assert "you are registered" in answer.content.decode()
    assert Registration.objects.filter(event=event, player__name="Dee").exists()


def test_the_entry_page_in_korean():
    event = open_event()
    page = Client(headers={"accept-language": "ko"}).get(reverse("event-enter", args=[event.pk]))
    assert page.status_code == 200
    assert 'lang="ko"' in page.content.decode()


def test_the_event_page_links_to_the_entry_page_while_open():
    event = open_event()
    assert (
        reverse("event-enter", args=[event.pk])
        in Client().get(reverse("event-detail", args=[event.pk])).content.decode()
    )
    closed = EventFactory(kind=Event.Kind.SWISS, status=Event.Status.REGISTRATION)
    assert (
        'id="enter-link"'
        not in Client().get(reverse("event-detail", args=[closed.pk])).content.decode()
    )


def test_a_full_event_offers_the_waiting_list_then_takes_it():
    event = open_event(entries_cap=1)
    enter(event, name="Ann")
    full = enter(event, name="Bob", email="bob@example.com")
    html = full.content.decode()
    assert full.status_code == 200
    assert "The event is full" in html
    assert 'name="waiting_list" value="1"' in html
    assert not Entry.objects.filter(name="Bob").exists()
    waiting = enter(event, name="Bob", email="bob@example.com", waiting_list="1")
    assert "waiting list (number 1)" in waiting.content.decode()
    assert Entry.objects.get(name="Bob").status == Entry.Status.WAITING


def test_refusals_show_their_reason_and_store_nothing():
    event = open_event()
    enter(event, name="Ann")
    duplicate = enter(event, name="ann")
    assert duplicate.status_code == 409
    assert "already entered" in duplicate.content.decode()
    bot = enter(event, name="Bot", website="http://spam.example")
    assert bot.status_code == 400
    closed = EventFactory(kind=Event.Kind.SWISS, status=Event.Status.REGISTRATION)
    page = Client().get(reverse("event-enter", args=[closed.pk]))
    assert "does not take entries online" in page.content.decode()
    assert enter(closed, name="Cy").status_code == 409
    assert Entry.objects.count() == 1


def test_the_per_address_limit_answers_429(settings: Any):
    settings.KNOCK_ENTRY_LIMIT = 1
    event = open_event()
    assert enter(event, name="Ann").status_code == 200
    refused = enter(event, name="Bob")
    assert refused.status_code == 429
    assert refused["Retry-After"]


def test_the_directors_list_and_its_actions(club: Any, director: Any, stranger: Any):
    event = open_event(club=club, entries_approval=True)
    ann = entry_submit(event=event, name="Ann")
    dup = entry_submit(event=event, name="Ann L.", email="ann@example.com")
    client = Client()
    client.force_login(stranger)
    assert client.get(reverse("event-entries", args=[event.pk])).status_code == 403
    client.force_login(director)
    console = client.get(reverse("event-console", args=[event.pk])).content.decode()
    assert reverse("event-entries", args=[event.pk]) in console
    page = client.get(reverse("event-entries", args=[event.pk]))
    assert page.status_code == 200
    assert "ann@example.com" in page.content.decode()
    action = "event-entry-action"
    client.post(reverse(action, args=[event.pk, ann.pk, "approve"]))
    ann.refresh_from_db()
    assert ann.status == Entry.Status.ACCEPTED
    client.post(reverse(action, args=[event.pk, dup.pk, "merge"]), {"into": ann.pk})
    dup.refresh_from_db()
    ann.refresh_from_db()
    assert dup.merged_into_id == ann.pk
    assert ann.email == "ann@example.com"
    client.post(reverse(action, args=[event.pk, ann.pk, "waitlist"]))
    ann.refresh_from_db()
    assert ann.status == Entry.Status.WAITING
    client.post(reverse(action, args=[event.pk, ann.pk, "refuse"]))
    ann.refresh_from_db()
    assert ann.status == Entry.Status.REFUSED
    again = client.post(reverse(action, args=[event.pk, ann.pk, "refuse"]), follow=True)
    assert "can be refused" in again.content.decode()


def test_the_directors_entry_settings(club: Any, director: Any):
    event = EventFactory(club=club, kind=Event.Kind.SWISS, status=Event.Status.REGISTRATION)
    client = Client()
    client.force_login(director)
    url = reverse("event-entries-settings", args=[event.pk])
    client.post(
        url,
        {"entries_open": "on", "entries_cap": "16", "entries_close_at": "2030-01-01T10:00"},
    )
    event.refresh_from_db()
    assert event.options["entries_open"] is True
    assert event.options["entries_cap"] == 16
    assert event.entries_close_at is not None
    bad = client.post(url, {"entries_open": "on", "entries_cap": "0"}, follow=True)
    assert "Most players" in bad.content.decode()
    event.refresh_from_db()
    assert event.options["entries_cap"] == 16


def test_the_console_tells_the_director_who_moved_up(club: Any, director: Any):
    event = open_event(club=club, entries_cap=1)
    ann = entry_submit(event=event, name="Ann")
    entry_submit(event=event, name="Bob", waiting_list=True)
    client = Client()
    client.force_login(director)
    client.post(reverse("event-entry-action", args=[event.pk, ann.pk, "withdraw"]))
    console = client.get(reverse("event-console", args=[event.pk])).content.decode()
    assert "an entrant moved up from the waiting list" in console
    assert "Bob" in console


def test_the_directors_list_shows_each_entrants_language(club: Any, director: Any):
    event = open_event(club=club)
    entry_submit(event=event, name="Ann", language="en")
    entry_submit(event=event, name="Min-jun", language="ko")
    client = Client(headers={"accept-language": "en"})
    client.force_login(director)
    html = client.get(reverse("event-entries", args=[event.pk])).content.decode()
    ann = html[html.index("<strong>Ann</strong>") :]
    assert '<span lang="en">English</span>' in ann[: ann.index("</li>")]
    minjun = html[html.index("<strong>Min-jun</strong>") :]
    assert '<span lang="ko">한국어</span>' in minjun[: minjun.index("</li>")]
    korean = Client(headers={"accept-language": "ko"})
    korean.force_login(director)
    html = korean.get(reverse("event-entries", args=[event.pk])).content.decode()
    assert '<span lang="en">English</span>' in html
    assert '<span lang="ko">한국어</span>' in html


def test_refusals_are_in_korean_for_a_korean_reader():
    from django.utils import translation

    def korean(english: str, **values: str) -> str:
        with translation.override("ko"):
            text = translation.gettext(english) % values if values else translation.gettext(english)
        assert text != english % values if values else text != english, english
        return text

    reader = Client(headers={"accept-language": "ko"})
    full = open_event(entries_cap=1)
    enter(full, name="Ann")
    duplicate = enter(full, reader, name="ann")
    assert duplicate.status_code == 409
    assert korean("%(name)s has already entered this event.", name="ann") in (
        duplicate.content.decode()
    )
    no_room = enter(full, reader, name="Bo")
    assert korean("The event is full. You may join the waiting list.") in no_room.content.decode()
    api = reader.post(
        f"/api/events/{full.pk}/enter/", {"name": "Bo"}, content_type="application/json"
    )
    assert api.status_code == 409
    assert api.json()["detail"] == korean("The event is full. You may join the waiting list.")
    closed = open_event()
    Event.objects.filter(pk=closed.pk).update(options={"entries_open": False})
    shut = enter(closed, reader, name="Cy")
    assert shut.status_code == 409
    assert korean("This event does not take entries online.") in shut.content.decode()
    assert Entry.objects.count() == 1
