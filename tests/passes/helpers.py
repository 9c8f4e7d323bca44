"""Events whose players hold passes (registered through the registration service, which issues
them), and a browser holding one."""

from __future__ import annotations

from typing import Any

from django.test import Client

from engine.rules import find_rules
from passes.links import pass_secret
from passes.models import PlayerPass
from tests.clubs.factories import PlayerFactory
from tests.tournaments.factories import EventFactory
from tournaments.models import Event, Registration
from tournaments.services.registrations import registration_create


def swiss_with_passes(
    club: Any, players: int = 4, *, suffix: str = "", **kwargs: Any
) -> tuple[Event, list[Registration]]:
    event: Any = EventFactory(
        club=club,
        kind=Event.Kind.SWISS,
        confirmation=kwargs.pop("confirmation", Event.Confirmation.OPPONENT),
        status=Event.Status.REGISTRATION,
        rounds_planned=3,
        rules=find_rules("standard", target=None).to_dict(),
        **kwargs,
    )
    names = ["Ada", "Bo", "Cy", "Dee", "Eve", "Fay"]
    regs = [
        registration_create(
            event=event, player=PlayerFactory(club=club, name=names[i] + suffix), checked_in=True
        )
        for i in range(players)
    ]
    return event, regs


def active_pass(registration: Registration) -> PlayerPass:
    return PlayerPass.objects.get(registration=registration, revoked_at__isnull=True)


def secret(registration: Registration) -> str:
    return pass_secret(active_pass(registration))


def holding(registration: Registration, client: Client | None = None) -> Client:
    """A browser that opened ``registration``'s pass."""
    client = client or Client()
    opened = client.post("/p/", {"secret": secret(registration)})
    assert opened.status_code == 302, opened.content
    return client
