"""factory-boy factories for the tournaments app: events and registrations, and a Swiss ready
to pair."""

from __future__ import annotations

from typing import Any

import factory

from engine.rules import find_rules
from tests.clubs.factories import ClubFactory, PlayerFactory
from tournaments.models import Event, Registration


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Event {n}")
    kind = Event.Kind.CLUB_NIGHT
    status = Event.Status.RUNNING
    rules = factory.LazyFunction(lambda: find_rules("standard").to_dict())
    match_format = factory.LazyFunction(lambda: {"kind": "single_game"})
    confirmation = Event.Confirmation.OPPONENT


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..event.club"))


def swiss_event(players: int = 4, *, player_name: str = "P{}", **kwargs: Any) -> Any:
    """A three-round Swiss, one hand a match and no confirmation, still taking registrations,
    with ``players`` players checked in (named ``player_name`` formatted with 1, 2, ...)."""
    kwargs.setdefault("rules", find_rules("standard", target=None).to_dict())
    event = EventFactory(
        kind=Event.Kind.SWISS,
        confirmation=Event.Confirmation.NONE,
        status=Event.Status.REGISTRATION,
        rounds_planned=3,
        **kwargs,
    )
    for i in range(players):
        RegistrationFactory(
            event=event,
            player=PlayerFactory(club=event.club, name=player_name.format(i + 1)),
            status=Registration.Status.CHECKED_IN,
        )
    return event
