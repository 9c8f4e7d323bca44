"""In a bracket, a holder who has won and waits for the other match sees whom they meet next:
"Next: the winner of Bo against Cy", then "Next: Bo" or their table once the match is made."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.utils import translation

from passes.selectors import pass_version
from scoring.models import Match
from tests.clubs.factories import PlayerFactory
from tests.passes.helpers import active_pass, holding, secret
from tests.tournaments.factories import EventFactory
from tests.tournaments.helpers import ONE_HAND, play
from tournaments.models import Event, Registration
from tournaments.services.brackets import bracket_start
from tournaments.services.registrations import registration_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counts():
    cache.clear()


def _cup(club: Any) -> tuple[Event, dict[str, Registration]]:
    event: Any = EventFactory(
        club=club,
        kind=Event.Kind.SINGLE_ELIMINATION,
        status=Event.Status.REGISTRATION,
        confirmation=Event.Confirmation.NONE,
        rules=ONE_HAND,
    )
    regs = {}
    for seed, name in enumerate(("Ada", "Bo", "Cy", "Dee"), start=1):
        reg = registration_create(
            event=event, player=PlayerFactory(club=club, name=name), checked_in=True
        )
        reg.seed = seed
        reg.save(update_fields=["seed"])
        regs[name] = reg
    bracket_start(event=event)
    return event, regs


def _match_of(event: Event, reg: Registration) -> Match:
    return Match.objects.get(event=event, round__number=1, seats__player_id=reg.player_id)


def test_the_winner_sees_the_other_semi_final_then_the_final(club, api):
    event, regs = _cup(club)  # Ada v Dee, Bo v Cy
    ada = holding(regs["Ada"])
    page = ada.get(f"/events/{event.pk}/pass/").content.decode()
    assert 'id="pass-next"' not in page  # her match is made: it shows itself
    before = pass_version(player_pass=active_pass(regs["Ada"]))
    play(_match_of(event, regs["Ada"]), winner=regs["Ada"].player_id)
    assert pass_version(player_pass=active_pass(regs["Ada"])) != before  # live: the page moves
    page = ada.get(f"/events/{event.pk}/pass/").content.decode()
    assert "Next: the winner of Bo against Cy" in page
    assert page.count('id="pass-current"') == 1
    data = api.get(f"/api/events/{event.pk}/pass/", HTTP_X_PASS_KEY=secret(regs["Ada"])).json()
    assert data["next"] == {"opponent": None, "meets": "winner", "feeder_players": ["Bo", "Cy"]}
    # the loser is told nothing of the bracket's next match
    dee = holding(regs["Dee"]).get(f"/events/{event.pk}/pass/").content.decode()
    assert 'id="pass-next"' not in dee
    with translation.override("ko"):
        ko = ada.get(f"/events/{event.pk}/pass/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "Bo" in ko
    assert "Cy" in ko
    assert 'id="pass-next"' in ko
    # the other semi-final ends: the final is made and shows as the holder's table
    play(_match_of(event, regs["Bo"]), winner=regs["Bo"].player_id)
    page = ada.get(f"/events/{event.pk}/pass/").content.decode()
    assert 'id="pass-next"' not in page
    assert "against Bo" in page
    data = api.get(f"/api/events/{event.pk}/pass/", HTTP_X_PASS_KEY=secret(regs["Ada"])).json()
    assert data["next"] is None
    assert data["current"]["opponents"] == ["Bo"]


def test_a_swiss_pass_has_no_bracket_next(club, api):
    from tests.passes.helpers import swiss_with_passes

    event, regs = swiss_with_passes(club, players=2)
    data = api.get(f"/api/events/{event.pk}/pass/", HTTP_X_PASS_KEY=secret(regs[0])).json()
    assert data["next"] is None
    assert data["next_event"] is None
