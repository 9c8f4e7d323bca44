"""factory-boy factories for the scoring tests; they create through the real services.

``HandSubmissionFactory(match=m)`` enters a hand by counts with :func:`scoring.services.hand_submit`
as the event's director; the traits ``gin``, ``undercut`` and ``dead`` change the entry.
"""

from __future__ import annotations

from typing import Any

import factory

from scoring.models import HandSubmission, Match
from scoring.permissions import Actor
from scoring.services import entry_from_dict, hand_submit, match_start
from tests.clubs.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory
from tournaments.selectors.terms import event_terms


def event_director(event: Any) -> Any:
    """A user who directs ``event`` (created once per event)."""
    user = UserFactory(username=f"director-of-{event.pk}")
    event.directors.add(user)
    return user


class MatchFactory(factory.django.DjangoModelFactory):
    """A match started with :func:`match_start` by the event's director."""

    class Meta:
        model = Match

    event = factory.SubFactory(EventFactory)

    @classmethod
    def _create(cls, model_class: type[Match], *args: Any, **kwargs: Any) -> Match:
        event = kwargs.pop("event")
        seats = kwargs.pop("seats", 2)
        players = kwargs.pop("players", None) or [
            PlayerFactory(club=event.club) for _ in range(seats)
        ]
        return match_start(
            actor=Actor(user=event_director(event)),
            event=event_terms(event=event),
            players=[p.pk for p in players],
            **kwargs,
        )


class HandSubmissionFactory(factory.django.DjangoModelFactory):
    """A hand entered through :func:`hand_submit` (by counts, as the director)."""

    class Meta:
        model = HandSubmission

    match = factory.SubFactory(MatchFactory)
    knocker = 0
    outcome = "knock"
    knocker_deadwood = 5
    defender_deadwood = 25

    class Params:
        gin = factory.Trait(outcome="gin", knocker_deadwood=0, defender_deadwood=30)
        undercut = factory.Trait(outcome="undercut", knocker_deadwood=8, defender_deadwood=5)
        dead = factory.Trait(
            outcome="dead", knocker=None, knocker_deadwood=None, defender_deadwood=None
        )

    @classmethod
    def _create(
        cls, model_class: type[HandSubmission], *args: Any, **kwargs: Any
    ) -> HandSubmission:
        match = kwargs.pop("match")
        actor = kwargs.pop("actor", None) or Actor(user=event_director(match.event))
        return hand_submit(match=match, actor=actor, entry=entry_from_dict(kwargs))
