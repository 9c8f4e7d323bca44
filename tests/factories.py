"""factory-boy factories shared by the app tests (each app's tests add their own beside these)."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from engine.rules import find_rules
from tournaments.models import Club, ClubRole, Event, Player, Registration


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw-knock-1234")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class ClubRoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClubRole

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = ClubRole.Role.DIRECTOR


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


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
