"""Online entry, the services (``entries.services``): each rule of a submission, the
director's actions, and the waiting list moving up when anyone withdraws."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone

from clubs.models import Player
from core.errors import ApplicationError
from entries.models import Entry
from entries.services import (
    entries_promote,
    entry_accept,
    entry_approve,
    entry_merge,
    entry_refuse,
    entry_submit,
    entry_waitlist,
    entry_withdraw,
)
from tests.clubs.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, RegistrationFactory
from tournaments.models import Event, EventLog, Registration, Round
from tournaments.services import registration_drop

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counts() -> None:
    cache.clear()


def open_event(**options: Any) -> Any:
    return EventFactory(
        kind=Event.Kind.SWISS,
        status=Event.Status.REGISTRATION,
        options={"entries_open": True, **options},
    )


def refused(code: str | None = None, status: int = 409, **kwargs: Any) -> ApplicationError:
    before = (Entry.objects.count(), Registration.objects.count(), Player.objects.count())
    with pytest.raises(ApplicationError) as caught:
        entry_submit(**kwargs)
    assert (Entry.objects.count(), Registration.objects.count(), Player.objects.count()) == before
    assert caught.value.status == status
    if code:
        assert caught.value.extra.get("code") == code
    return caught.value


def test_an_entry_is_accepted_and_registered_making_a_guest_player():
    event = open_event()
    entry = entry_submit(event=event, name="  Dee ", email="dee@example.com", note="vegan")
    assert entry.status == Entry.Status.ACCEPTED
    assert entry.registration is not None
    assert entry.registration.player.name == "Dee"
    assert entry.player is not None
    assert entry.player.is_guest
    assert entry.player.club_id == event.club_id


def test_a_name_is_matched_to_the_clubs_player_case_insensitively():
    event = open_event()
    ann = PlayerFactory(club=event.club, name="Ann Lee")
    entry = entry_submit(event=event, name="ann lee")
    assert entry.player == ann
    assert entry.registration.player == ann


def test_duplicates_are_refused_and_store_nothing():
    event = open_event()
    entry_submit(event=event, name="Dee")
    refused("duplicate", event=event, name="DEE")
    bob = PlayerFactory(club=event.club, name="Bob")
    RegistrationFactory(event=event, player=bob)
    refused("duplicate", event=event, name="bob")


def test_closed_not_open_and_started_events_refuse():
    refused("closed", event=EventFactory(kind=Event.Kind.SWISS), name="Dee")
    past = open_event()
    past.entries_close_at = timezone.now() - timedelta(minutes=1)
    past.save()
    error = refused("closed", event=past, name="Dee")
    assert "closed" in error.message
    started = open_event()
    Round.objects.create(event=started, number=1)
    refused("closed", event=started, name="Dee")
    future = open_event()
    future.entries_close_at = timezone.now() + timedelta(hours=1)
    future.save()
    assert entry_submit(event=future, name="Dee").status == Entry.Status.ACCEPTED


def test_the_honeypot_refuses_quietly():
    refused(None, status=400, event=open_event(), name="Dee", honeypot="http://spam")


def test_a_full_event_offers_the_waiting_list():
    event = open_event(entries_cap=1)
    entry_submit(event=event, name="Ann")
    refused("full", event=event, name="Bob")
    bob = entry_submit(event=event, name="Bob", waiting_list=True)
    cy = entry_submit(event=event, name="Cy", waiting_list=True)
    assert (bob.status, bob.waiting_position) == (Entry.Status.WAITING, 1)
    assert (cy.status, cy.waiting_position) == (Entry.Status.WAITING, 2)
    assert bob.registration is None


@override_settings(KNOCK_ENTRY_LIMIT=2)
def test_the_per_address_limit():
    event = open_event()
    entry_submit(event=event, name="A", ip="10.0.0.1")
    entry_submit(event=event, name="B", ip="10.0.0.1")
    error = refused(None, status=429, event=event, name="C", ip="10.0.0.1")
    assert error.retry_after
    assert entry_submit(event=event, name="C", ip="10.0.0.2").status == Entry.Status.ACCEPTED


def test_approval_holds_entries_until_the_director_approves():
    event = open_event(entries_approval=True, entries_cap=1)
    ann = entry_submit(event=event, name="Ann")
    bob = entry_submit(event=event, name="Bob")
    assert ann.status == bob.status == Entry.Status.PENDING
    assert not Registration.objects.filter(event=event).exists()
    assert entry_approve(entry=ann).status == Entry.Status.ACCEPTED
    # Full now: approving Bob puts him on the waiting list; approving again registers him.
    bob = entry_approve(entry=bob)
    assert (bob.status, bob.waiting_position) == (Entry.Status.WAITING, 1)
    assert entry_approve(entry=bob).status == Entry.Status.ACCEPTED
    assert Registration.objects.filter(event=event).count() == 2


def test_refuse_and_waitlist():
    event = open_event(entries_approval=True)
    ann = entry_submit(event=event, name="Ann")
    assert entry_refuse(entry=ann).status == Entry.Status.REFUSED
    with pytest.raises(ApplicationError):
        entry_accept(entry=ann)
    # A refused name may enter again.
    bob = entry_submit(event=event, name="Ann")
    entry_approve(entry=bob)
    bob = entry_waitlist(entry=bob)
    assert bob.status == Entry.Status.WAITING
    assert bob.registration is None
    assert not Registration.objects.filter(event=event).exists()


def test_merging_a_duplicate():
    event = open_event(entries_approval=True)
    first = entry_submit(event=event, name="Dee Park", email="")
    second = entry_submit(event=event, name="Dee P.", email="dee@example.com", note="late")
    entry_approve(entry=second)
    kept = entry_merge(entry=second, into=first)
    assert kept.status == Entry.Status.ACCEPTED
    assert kept.email == "dee@example.com"
    assert kept.registration is not None
    assert "late" in kept.note
    second.refresh_from_db()
    assert second.status == Entry.Status.WITHDRAWN
    assert second.merged_into == kept
    with pytest.raises(ApplicationError):
        entry_merge(entry=kept, into=kept)


def test_the_waiting_list_moves_up_when_a_registered_player_drops(
    django_capture_on_commit_callbacks: Any,
):
    event = open_event(entries_cap=2)
    director_added = RegistrationFactory(event=event)
    entry_submit(event=event, name="Ann")
    bob = entry_submit(event=event, name="Bob", email="bob@example.com", waiting_list=True)
    cy = entry_submit(event=event, name="Cy", waiting_list=True)
    with pytest.raises(ApplicationError):
        entry_submit(event=event, name="Dan")
    with django_capture_on_commit_callbacks(execute=True):
        registration_drop(registration=director_added)
    bob.refresh_from_db()
    cy.refresh_from_db()
    assert bob.status == Entry.Status.ACCEPTED
    assert bob.registration is not None
    assert cy.status == Entry.Status.WAITING
    log = EventLog.objects.get(event=event, kind=EventLog.Kind.ENTRY_PROMOTED)
    assert log.reason == "Bob"
    assert log.details["entry"] == bob.pk
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["bob@example.com"]
    assert event.name in mail.outbox[0].subject


def test_an_entrant_withdrawing_promotes_the_next_one_without_mail_when_none_given(
    django_capture_on_commit_callbacks: Any,
):
    event = open_event(entries_cap=1)
    ann = entry_submit(event=event, name="Ann")
    bob = entry_submit(event=event, name="Bob", waiting_list=True)
    with django_capture_on_commit_callbacks(execute=True):
        ann = entry_withdraw(entry=ann)
    assert ann.status == Entry.Status.WITHDRAWN
    assert ann.registration is not None
    assert ann.registration.status == Registration.Status.DROPPED
    bob.refresh_from_db()
    assert bob.status == Entry.Status.ACCEPTED
    assert mail.outbox == []
    # A waiting entrant withdrawing frees nothing and is simply gone.
    cy = entry_submit(event=event, name="Cy", waiting_list=True)
    assert entry_withdraw(entry=cy).status == Entry.Status.WITHDRAWN


def test_no_promotion_once_the_event_has_started():
    event = open_event(entries_cap=1)
    ann = entry_submit(event=event, name="Ann")
    bob = entry_submit(event=event, name="Bob", waiting_list=True)
    Round.objects.create(event=event, number=1)
    registration_drop(registration=ann.registration)
    bob.refresh_from_db()
    assert bob.status == Entry.Status.WAITING
    assert entries_promote(event=event) == []
