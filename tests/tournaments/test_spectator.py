"""A spectator at an event: a finished event's podium, the standings' legend and freshness, and
every round's tables one tap away (issue 14)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from core.errors import ApplicationError
from engine.rules import find_rules
from scoring.models import Match
from scoring.permissions import Actor
from scoring.services import entry_from_dict, hand_submit
from tests.clubs.factories import UserFactory
from tests.tournaments.factories import swiss_event
from tests.tournaments.helpers import api_event, open_matches, play, seated
from tournaments.models import Event, Standing
from tournaments.selectors import event_round, event_standings
from tournaments.services import event_finish, round_pair, standings_recompute
from tournaments.views.events import bracket_podium

pytestmark = pytest.mark.django_db


def _win(match: Match, director: Any) -> None:
    hand_submit(
        match=match,
        actor=Actor(user=director),
        entry=entry_from_dict(
            {"knocker": 0, "outcome": "knock", "knocker_deadwood": 3, "defender_deadwood": 20}
        ),
    )


def _played_swiss(*, finish: bool = True, rounds: int = 2) -> Event:
    """A four-player Swiss with ``rounds`` rounds played (the first seat wins every match)."""
    event = swiss_event(4, rules=find_rules("standard", target=None).to_dict())
    director = UserFactory(username=f"td-{event.pk}")
    event.directors.add(director)
    for _ in range(rounds):
        rnd = round_pair(event=event)
        for match in Match.objects.filter(round=rnd, decision=Match.Decision.PLAYED):
            _win(match, director)
    standings_recompute(event=event)
    if finish:
        event_finish(event=event)
    event.refresh_from_db()
    return event


def test_a_finished_events_podium_is_its_top_three_best_first() -> None:
    event = _played_swiss()
    podium = event_standings(event=event).podium()
    ranks = [s.rank for s in podium]
    assert ranks == sorted(ranks)
    assert ranks[0] == 1
    assert all(rank <= 3 for rank in ranks)
    assert len(podium) >= 3
    best = Standing.objects.get(event=event, rank=1)
    assert podium[0].player_id == best.player_id


def test_tied_players_share_a_podium_place() -> None:
    event = _played_swiss()
    Standing.objects.filter(event=event).update(rank=1)
    assert len(event_standings(event=event).podium()) == 4


def test_a_running_event_has_no_podium() -> None:
    event = _played_swiss(finish=False)
    assert event_standings(event=event).podium() == []


def test_freshness_shows_the_time_today_and_the_date_before() -> None:
    event = _played_swiss(finish=False, rounds=1)
    assert event_standings(event=event).updated_today
    Event.objects.filter(pk=event.pk).update(
        standings_updated_at=timezone.now() - dt.timedelta(days=2)
    )
    standings = event_standings(event=event)
    assert not standings.updated_today
    html = Client().get(f"/events/{event.pk}/standings/").content.decode()
    assert re.search(r"Updated \d{4}-\d\d-\d\d \d\d:\d\d</time>", html)
    assert "result" not in html.lower().split("<table")[0]


def test_event_round_is_a_404_for_a_round_not_paired() -> None:
    event = _played_swiss(finish=False, rounds=1)
    assert event_round(event=event, number=1).number == 1
    with pytest.raises(ApplicationError) as info:
        event_round(event=event, number=2)
    assert info.value.status == 404


def _position(html: str, marker: str) -> int:
    index = html.find(marker)
    assert index >= 0, marker
    return index


def test_a_spectator_sees_the_winner_then_standings_then_pairings() -> None:
    event = _played_swiss()
    winner = Standing.objects.select_related("player").get(event=event, rank=1).player.name
    html = Client().get(f"/events/{event.pk}/").content.decode()
    podium = html[_position(html, 'id="podium"') : _position(html, 'id="standings-panel"')]
    assert "Winner" in podium
    assert winner in podium
    assert "Second place" in podium
    assert "Third place" in podium
    assert _position(html, 'id="standings-panel"') < _position(html, 'id="pairings"')
    # every column is explained: an <abbr> on the header and a legend under the table
    assert '<abbr title="Match points: the points for the matches won and drawn">MP</abbr>' in html
    assert "<dt>Buch. cut 1</dt><dd>Buchholz cut 1: Buchholz without the weakest opponent</dd>" in (
        html
    )
    assert "<dt>W-D-L</dt>" in html
    # game points are net margins, so a player behind has fewer than zero: the legend says so
    assert "the margins of the games won less those of the games lost" in html
    # both rounds can be opened
    assert f'href="/events/{event.pk}/rounds/1/"' in html
    assert f'href="/events/{event.pk}/rounds/2/"' in html


def test_a_running_event_shows_no_podium() -> None:
    event = _played_swiss(finish=False)
    html = Client().get(f"/events/{event.pk}/").content.decode()
    assert 'id="podium"' not in html


def test_each_rounds_tables_and_results_open_on_their_own_page() -> None:
    event = _played_swiss()
    first = Match.objects.filter(round__event=event, round__number=1).order_by("table_number")
    html = Client().get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert "<h1>Round 1" in html
    assert 'aria-current="page"' in html
    for match in first:
        if match.decision == Match.Decision.PLAYED:
            names = [s.player.name for s in match.seats.all()]
            assert all(name in html for name in names)
            assert f"/matches/{match.pk}/" in html
    assert "won" in html  # the result of each finished table
    assert Client().get(f"/events/{event.pk}/rounds/3/").status_code == 404
    assert Client().get(f"/events/{event.pk + 999}/rounds/1/").status_code == 404


def test_the_spectator_page_in_korean() -> None:
    event = _played_swiss()
    client = Client()
    html = client.get(f"/events/{event.pk}/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "우승" in html
    assert "승점" in html
    round_page = client.get(f"/events/{event.pk}/rounds/1/", HTTP_ACCEPT_LANGUAGE="ko")
    assert "1라운드" in round_page.content.decode()


def _slot(player: int | None, name: str | None = None) -> dict[str, Any]:
    return {"player": player, "name": name, "vacancy": None}


def test_a_brackets_podium_is_the_champion_the_finalist_and_the_third_place_winner() -> None:
    matches = [
        {"section": "winners", "round": 1, "status": "played", "home": _slot(1, "A"),
         "away": _slot(4, "D"), "winner": _slot(1, "A")},
        {"section": "winners", "round": 1, "status": "played", "home": _slot(2, "B"),
         "away": _slot(3, "C"), "winner": _slot(2, "B")},
        {"section": "winners", "round": 2, "status": "played", "home": _slot(1, "A"),
         "away": _slot(2, "B"), "winner": _slot(2, "B")},
        {"section": "third_place", "round": 1, "status": "played", "home": _slot(4, "D"),
         "away": _slot(3, "C"), "winner": _slot(3, "C")},
    ]  # fmt: skip
    podium = bracket_podium(matches, _slot(2, "B"))
    assert [(p["place"], p["name"]) for p in podium] == [(1, "B"), (2, "A"), (3, "C")]
    assert bracket_podium(matches, None) == []


def test_a_finished_knockout_opens_with_its_champion_finalist_and_third(
    director_api, club, make_players
) -> None:
    players = make_players(6)
    event = api_event(director_api, club, players, "single_elim", third_place=True)
    assert director_api.post(f"/api/events/{event['id']}/rounds/").status_code == 201
    while ready := open_matches(event["id"]):
        play(ready[0], winner=min(seated(ready[0])))
    bracket = director_api.get(f"/api/events/{event['id']}/bracket/").json()
    final = next(m for m in bracket["matches"] if m["section"] == "winners" and m["round"] == 3)
    third = next(m for m in bracket["matches"] if m["section"] == "third_place")
    runner_up = next(
        side["name"]
        for side in (final["home"], final["away"])
        if side["player"] != bracket["champion"]["player"]
    )
    html = Client().get(f"/events/{event['id']}/").content.decode()
    podium = html[_position(html, 'id="podium"') : _position(html, 'id="standings-panel"')]
    places = re.findall(r'class="place place-(\d)".*?class="who"[^>]*>([^<]+)</a>', podium, re.S)
    assert places == [
        ("1", bracket["champion"]["name"]),
        ("2", runner_up),
        ("3", third["winner"]["name"]),
    ]


def test_a_walkover_table_says_who_won_it() -> None:
    """A table decided by a drop names its winner, as a played table does."""
    from tournaments.models import Registration
    from tournaments.services import registration_drop

    event = swiss_event(4)
    round_pair(event=event)
    match = Match.objects.filter(event=event).first()
    seats = list(match.seats.order_by("position").select_related("player"))
    leaver, stayer = seats[0].player, seats[1].player
    registration_drop(registration=Registration.objects.get(event=event, player=leaver))
    html = Client().get(f"/events/{event.pk}/").content.decode()
    row = html[html.index('class="list pairings"') :]
    row = row[row.index(leaver.name) :]
    row = row[: row.index("</li>")]
    assert '<span class="badge">walkover</span>' in row
    assert f"{stayer.name} won" in row
