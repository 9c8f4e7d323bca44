"""The link given at entry, on the pages and in the API: before the entrant has a place it shows
where their entry stands ("You are number 2 on the waiting list") and withdraws it (refused
clearly the second time), in English and Korean; then the same link is their pass. It never
shows anything of another entrant."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from entries.links import entry_secret
from entries.models import Entry
from entries.services import entry_submit
from passes.models import PlayerPass
from passes.services import pass_reissue
from tests.tournaments.factories import EventFactory
from tournaments.models import Event, Registration
from tournaments.services import registration_drop

# The values of a page's CSRF tokens (the language form's field, htmx's header).
CSRF_VALUES = re.compile(r'(?<=name="csrfmiddlewaretoken" value=")[^"]+|(?<="X-CSRFToken": ")[^"]+')

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counts():
    cache.clear()


def _open(cap: int = 1) -> tuple[Any, list[Entry]]:
    event = EventFactory(
        kind=Event.Kind.SWISS,
        status=Event.Status.REGISTRATION,
        options={"entries_open": True, "entries_cap": cap},
    )
    ann = entry_submit(event=event, name="Ann", email="ann@example.org", note="Ann's note")
    bob = entry_submit(event=event, name="Bob", email="bob@example.org", waiting_list=True)
    cy = entry_submit(event=event, name="Cy", email="cy@example.org", waiting_list=True)
    return event, [ann, bob, cy]


def _holding(entry: Entry, client: Client | None = None) -> Client:
    client = client or Client()
    opened = client.post("/p/", {"secret": "#" + entry_secret(entry)})
    assert opened.status_code == 302, opened.content
    assert opened["Location"] == f"/events/{entry.event_id}/pass/"
    return client


def test_the_entry_page_gives_the_link_and_it_shows_the_place_on_the_list(club: Any):
    event, (_ann, bob, _cy) = _open()
    client = Client()
    answer = client.post(
        f"/events/{event.pk}/enter/", {"name": "Dee", "email": "", "waiting_list": "1"}
    )
    assert answer.status_code == 200
    assert answer["Cache-Control"] == "private, no-store"
    dee = Entry.objects.get(event=event, name="Dee")
    html = answer.content.decode()
    assert "number 3" in html
    assert f"/p/#{entry_secret(dee)}" in html
    assert entry_secret(bob) not in html
    page = _holding(dee, client).get(f"/events/{event.pk}/pass/")
    assert page["Cache-Control"] == "private, no-store"
    html = page.content.decode()
    assert "You are number 3 on the waiting list." in html
    assert html.count('id="entry-withdraw"') == 1
    # of anyone else: nothing (not their names, mails or notes); the page's CSRF tokens are
    # random letters, which hold "Cy" or "Ann" now and then: left out of the search
    shown = CSRF_VALUES.sub("", html)
    for private in ("Ann", "Bob", "Cy", "example.org", "note"):
        assert private not in shown
    assert (
        _holding(bob)
        .get(f"/events/{event.pk}/pass/")
        .content.decode()
        .count("You are number 1 on the waiting list.")
        == 1
    )


def test_withdrawing_from_the_waiting_list_with_the_link(club: Any):
    event, (_ann, bob, cy) = _open()
    browser = _holding(cy)
    confirm = browser.get(f"/events/{event.pk}/pass/withdraw/")
    assert 'id="entry-withdraw-confirm"' in confirm.content.decode()
    done = browser.post(f"/events/{event.pk}/pass/withdraw/", {"confirm": "1"})
    assert done.status_code == 302
    html = browser.get(done["Location"]).content.decode()
    assert "You have withdrawn your entry." in html
    assert 'id="entry-withdraw"' not in html
    assert Entry.objects.get(pk=cy.pk).status == Entry.Status.WITHDRAWN
    assert Entry.objects.get(pk=bob.pk).status == Entry.Status.WAITING
    assert Registration.objects.filter(event=event).count() == 1
    # the second time: refused clearly, nothing stored
    again = browser.post(f"/events/{event.pk}/pass/withdraw/", {"confirm": "1"}, follow=True)
    assert "You have already withdrawn this entry." in again.content.decode()
    # nor can the link check in or take a seat
    assert browser.post(f"/events/{event.pk}/pass/checkin/").status_code == 404
    assert Registration.objects.filter(event=event).count() == 1


def test_the_entry_page_in_korean(club: Any):
    event, (_ann, bob, _cy) = _open()
    browser = _holding(bob)
    html = browser.get(f"/events/{event.pk}/pass/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert 'lang="ko"' in html
    assert 'id="entry-state"' in html
    assert 'id="entry-withdraw"' in html


def test_once_promoted_the_same_link_is_the_pass(club: Any):
    event, (ann, bob, _cy) = _open()
    browser = _holding(bob)
    live = browser.get(f"/events/{event.pk}/pass/live/")
    assert live.status_code == 200
    assert registration_drop(registration=Registration.objects.get(entry=ann))
    bob.refresh_from_db()
    assert bob.status == Entry.Status.ACCEPTED
    # the page that was open moves: its live fragment is the pass's now
    moved = browser.get(f"/events/{event.pk}/pass/live/", HTTP_IF_NONE_MATCH=live["ETag"])
    assert moved.status_code == 200
    assert 'id="pass-checkin"' in moved.content.decode()
    html = browser.get(f"/events/{event.pk}/pass/").content.decode()
    assert 'id="pass-checkin"' in html
    assert "Bob" in html
    # and the link, opened afresh, is the pass
    assert "check me in" in _holding(bob).get(f"/events/{event.pk}/pass/").content.decode()


def test_a_reissued_pass_stops_the_entry_link(club: Any, director: Any):
    event, (ann, _bob, _cy) = _open()
    event.directors.add(director)
    pass_reissue(registration=Registration.objects.get(entry=ann), user=director)
    refused = Client().post("/p/", {"secret": entry_secret(ann)})
    assert refused.status_code == 404
    assert PlayerPass.objects.filter(registration__entry=ann, revoked_at__isnull=True).count() == 1


def test_the_api_shows_and_withdraws_an_entry_without_a_place(club: Any, api: Any):
    event, (ann, bob, cy) = _open()
    key = {"HTTP_X_PASS_KEY": entry_secret(cy)}
    data = api.get(f"/api/events/{event.pk}/pass/", **key).json()
    assert data["status"] == "waiting"
    assert data["waiting_position"] == 2
    assert data["player"] == "Cy"
    assert data["current"] is None
    assert data["results"] == []
    assert api.post(f"/api/events/{event.pk}/pass/checkin/", **key).status_code == 409
    assert api.get(f"/api/events/{event.pk}/pass/seat/", **key).status_code == 409
    other = EventFactory(kind=Event.Kind.SWISS)
    assert api.get(f"/api/events/{other.pk}/pass/", **key).status_code == 403
    done = api.post(f"/api/events/{event.pk}/pass/withdraw/", **key)
    assert done.status_code == 200
    assert done.json()["status"] == "withdrawn"
    assert done.json()["waiting_position"] is None
    again = api.post(f"/api/events/{event.pk}/pass/withdraw/", **key)
    assert again.status_code == 409
    assert again.json()["detail"] == "You have already withdrawn this entry."
    assert Entry.objects.get(pk=bob.pk).status == Entry.Status.WAITING
    ko = api.post(f"/api/events/{event.pk}/pass/withdraw/", HTTP_ACCEPT_LANGUAGE="ko", **key)
    assert ko.status_code == 409
    # an accepted entrant's link is their pass
    placed = api.get(f"/api/events/{event.pk}/pass/", HTTP_X_PASS_KEY=entry_secret(ann)).json()
    assert placed["status"] == "registered"
    assert placed["waiting_position"] is None
