"""A playoff's registrations are announced like any other (``registration_created``: the apps
above tournaments issue passes and mail from it), and the playoff remembers its group stage."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.helpers import api_event, open_matches, play, seated
from tournaments.models import Event, Registration
from tournaments.services import event_playoff_create, standings_recompute
from tournaments.signals import registration_created

pytestmark = pytest.mark.django_db


def test_each_playoff_registration_is_announced(director_api, club, make_players):
    players = make_players(4)
    data = api_event(director_api, club, players, "round_robin", playoff_cut=3)
    number = 0
    while director_api.post(f"/api/events/{data['id']}/rounds/").status_code == 201:
        number += 1
        for m in open_matches(data["id"], number):
            play(m, winner=min(seated(m)))
    event = Event.objects.get(pk=data["id"])
    standings_recompute(event=event)
    event.refresh_from_db()
    heard: list[Registration] = []

    def hear(sender: Any, registration: Registration, **kwargs: Any) -> None:
        heard.append(registration)

    registration_created.connect(hear, sender=Registration)
    try:
        playoff = event_playoff_create(event=event)
    finally:
        registration_created.disconnect(hear, sender=Registration)
    assert playoff.playoff_of_id == event.pk
    assert list(event.playoffs.all()) == [playoff]
    assert [r.seed for r in heard] == [1, 2, 3]
    assert {r.pk for r in heard} == set(
        Registration.objects.filter(event=playoff).values_list("pk", flat=True)
    )
