"""A bracket seats its matches one by one (a match is ready once both its players are known):
each time, the pass holders just seated are mailed their table, and nobody else is."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import TestCase

from entries.models import Entry
from passes import tasks
from scoring.models import Match
from tests.clubs.factories import PlayerFactory
from tests.tournaments.factories import EventFactory
from tests.tournaments.helpers import ONE_HAND, play
from tournaments.models import Event
from tournaments.services.brackets import bracket_start
from tournaments.services.registrations import registration_create

pytestmark = pytest.mark.django_db

NAMES = ("Ada", "Bo", "Cy", "Dee")


def _cup(club: Any) -> Event:
    event: Any = EventFactory(
        club=club,
        kind=Event.Kind.SINGLE_ELIMINATION,
        status=Event.Status.REGISTRATION,
        confirmation=Event.Confirmation.NONE,
        rules=ONE_HAND,
    )
    for seed, name in enumerate(NAMES, start=1):
        registration = registration_create(
            event=event, player=PlayerFactory(club=club, name=name), checked_in=True
        )
        registration.seed = seed
        registration.save(update_fields=["seed"])
        Entry.objects.create(
            event=event,
            name=name,
            email=f"{name.lower()}@example.org",
            registration=registration,
            status=Entry.Status.ACCEPTED,
        )
    return event


def _sent_to() -> set[str]:
    return {address for message in mail.outbox for address in message.to}


def test_each_seated_bracket_match_mails_its_two_players_only(club: Any, monkeypatch: Any):
    monkeypatch.setattr(
        tasks.round_passes_mail_task, "delay", lambda *args: tasks.round_passes_mail_task(*args)
    )
    event = _cup(club)
    with TestCase.captureOnCommitCallbacks(execute=True):
        bracket_start(event=event)
    assert _sent_to() == {f"{n.lower()}@example.org" for n in NAMES}
    assert all("Round 1: table" in message.body for message in mail.outbox)
    first, second = Match.objects.filter(event=event, round__number=1).order_by("table_number")
    winners = [
        first.seats.order_by("position")[0].player,
        second.seats.order_by("position")[0].player,
    ]
    mail.outbox.clear()
    with TestCase.captureOnCommitCallbacks(execute=True):
        play(first, winner=winners[0].pk)
    assert mail.outbox == []  # the final waits for the other semi-final
    with TestCase.captureOnCommitCallbacks(execute=True):
        play(second, winner=winners[1].pk)
    assert _sent_to() == {f"{w.name.lower()}@example.org" for w in winners}
    for message in mail.outbox:
        assert "Round 2: table" in message.body
        assert "against" in message.body
