"""Entries, as the entry page stores them (factory-boy): the event and the rest are
``tests/tournaments/factories.py``'s."""

from __future__ import annotations

import factory
from factory.django import DjangoModelFactory

from entries.models import Entry
from tests.tournaments.factories import EventFactory
from tournaments.models import Event


class OpenEventFactory(EventFactory):
    """A Swiss taking entries online, before its first round."""

    kind = Event.Kind.SWISS
    status = Event.Status.REGISTRATION
    options = factory.LazyFunction(lambda: {"entries_open": True})


class EntryFactory(DjangoModelFactory):
    class Meta:
        model = Entry

    event = factory.SubFactory(OpenEventFactory)
    name = factory.Sequence(lambda n: f"Entrant {n}")
    email = factory.LazyAttribute(lambda entry: f"{entry.name.split()[-1].lower()}@example.org")
    language = "en"
