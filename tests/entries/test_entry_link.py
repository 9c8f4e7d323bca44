"""The entrant's own link (``entries.links``): given at entry, stored as a digest; it finds an
entry without a place, tells where it stands on the waiting list, lets the entrant withdraw it
(storing nothing else, moving nobody up), and is mailed to an entrant who has no place yet."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import TestCase

from core.errors import ApplicationError
from entries.links import entry_secret
from entries.models import Entry
from entries.selectors import entry_find, entry_waiting_rank
from entries.services import entry_approve, entry_refuse, entry_submit, entry_withdraw_own
from scoring.links import digest_of, looks_like_secret
from tournaments.models import Event, Registration
from tournaments.services import registration_drop

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counts() -> None:
    cache.clear()


def _full(cap: int = 1, **options: Any) -> Any:
    from tests.tournaments.factories import EventFactory

    return EventFactory(
        kind=Event.Kind.SWISS,
        status=Event.Status.REGISTRATION,
        options={"entries_open": True, "entries_cap": cap, **options},
    )


def _state() -> list[tuple[Any, ...]]:
    return list(
        Entry.objects.order_by("pk").values_list("pk", "status", "waiting_position", "registration")
    ) + list(Registration.objects.order_by("pk").values_list("pk", "status"))


def test_every_entry_gets_a_link_stored_only_as_nonce_and_digest():
    event = _full()
    ann = entry_submit(event=event, name="Ann")
    bob = entry_submit(event=event, name="Bob", waiting_list=True)
    for entry in (ann, bob):
        secret = entry_secret(entry)
        assert looks_like_secret(secret)
        assert entry.digest == digest_of(secret)
        assert secret not in (entry.nonce, entry.digest)
    assert entry_find(secret=entry_secret(bob)) == bob
    # an entry with a place is found through its pass only
    assert entry_find(secret=entry_secret(ann)) is None
    assert entry_find(secret="x" * 32) is None
    assert entry_find(secret="") is None


def test_the_waiting_rank_counts_only_those_still_waiting_ahead():
    event = _full()
    entry_submit(event=event, name="Ann")
    bob = entry_submit(event=event, name="Bob", waiting_list=True)
    cy = entry_submit(event=event, name="Cy", waiting_list=True)
    dee = entry_submit(event=event, name="Dee", waiting_list=True)
    assert [entry_waiting_rank(entry=e) for e in (bob, cy, dee)] == [1, 2, 3]
    entry_withdraw_own(entry=bob)
    cy.refresh_from_db()
    dee.refresh_from_db()
    assert [entry_waiting_rank(entry=e) for e in (cy, dee)] == [1, 2]
    assert entry_waiting_rank(entry=Entry.objects.get(name="Ann")) is None


def test_withdrawing_from_the_waiting_list_stores_nothing_else_and_moves_nobody_up():
    event = _full()
    entry_submit(event=event, name="Ann")
    bob = entry_submit(event=event, name="Bob", waiting_list=True)
    cy = entry_submit(event=event, name="Cy", waiting_list=True)
    before = _state()
    done = entry_withdraw_own(entry=bob)
    assert done.status == Entry.Status.WITHDRAWN
    assert done.waiting_position is None
    after = _state()
    changed = [row for row in after if row not in before]
    assert changed == [(bob.pk, Entry.Status.WITHDRAWN, None, None)]
    cy.refresh_from_db()
    assert cy.status == Entry.Status.WAITING  # nobody moved up: no place was freed
    # twice: refused clearly, nothing stored
    with pytest.raises(ApplicationError) as caught:
        entry_withdraw_own(entry=bob)
    assert caught.value.status == 409
    assert caught.value.extra.get("code") == "withdrawn"
    assert _state() == after


def test_only_an_entry_without_a_place_withdraws_with_its_link():
    event = _full(entries_approval=True)
    ann = entry_submit(event=event, name="Ann")  # awaiting approval
    bob = entry_submit(event=event, name="Bob")
    entry_withdraw_own(entry=ann)
    assert Entry.objects.get(pk=ann.pk).status == Entry.Status.WITHDRAWN
    entry_refuse(entry=bob)
    with pytest.raises(ApplicationError) as refused:
        entry_withdraw_own(entry=bob)
    assert refused.value.status == 409
    cy = entry_approve(entry=entry_submit(event=event, name="Cy"))
    assert cy.status == Entry.Status.ACCEPTED
    with pytest.raises(ApplicationError) as placed:
        entry_withdraw_own(entry=cy)
    assert placed.value.status == 409
    assert Registration.objects.filter(event=event).exclude(status="dropped").count() == 1


def test_the_link_is_mailed_to_an_entrant_without_a_place_in_their_language():
    event = _full()
    with TestCase.captureOnCommitCallbacks(execute=True):
        entry_submit(event=event, name="Ann")  # a place: no entry mail (the pass is mailed)
    assert mail.outbox == []
    with TestCase.captureOnCommitCallbacks(execute=True):
        bob = entry_submit(
            event=event, name="Bob", email="bob@example.org", waiting_list=True, language="ko"
        )
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["bob@example.org"]
    assert f"/p/#{entry_secret(bob)}" in message.body
    assert event.name in message.subject
    assert "1" in message.body  # their place on the waiting list


def test_the_pass_of_a_promoted_entrant_opens_with_the_link_they_were_given():
    from passes.links import pass_secret
    from passes.models import PlayerPass

    event = _full()
    ann = entry_submit(event=event, name="Ann")
    bob = entry_submit(event=event, name="Bob", waiting_list=True)
    assert pass_secret(PlayerPass.objects.get(registration__entry=ann)) == entry_secret(ann)
    assert ann.registration is not None
    registration_drop(registration=ann.registration)
    bob.refresh_from_db()
    assert bob.status == Entry.Status.ACCEPTED
    assert pass_secret(PlayerPass.objects.get(registration__entry=bob)) == entry_secret(bob)
