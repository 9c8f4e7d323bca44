"""Recording match results the way scoring stores them, for the tournament tests.

Scoring owns hand entry; these tests only need its output rows: a closed ``Game`` with its
winner and margin, confirmed ``HandSubmission`` rows whose ``result`` carries ``winner`` (seat
position), ``outcome`` and the engine's ``scored`` entry, and the match finished, in one
transaction that bumps the event's results sequence and calls ``match_finished``, as scoring
does. Besides: a hand entered through scoring's own service (``director_knock``), and the event
form as the browser posts it (``event_form_post``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.rules import find_rules
from scoring.models import Game, Hand, HandSubmission, Match, Seat
from scoring.permissions import Actor
from scoring.services import entry_from_dict, hand_submit
from tests.clubs.factories import UserFactory
from tournaments.services import event_results_bump, match_finished

# Rules of one hand a game (no target): one entered hand finishes a match.
ONE_HAND = find_rules("standard", target=None).to_dict()


def play(
    match: Match,
    *,
    winner: int | None,
    margin: int = 30,
    hands: Sequence[tuple[int, str]] | None = None,
) -> Match:
    """Finish ``match``: ``winner`` a player id (None: a draw); ``hands`` as (seat, outcome)."""
    with transaction.atomic():
        seats = list(match.seats.order_by("position").values_list("player_id", flat=True))
        pos = seats.index(winner) if winner is not None else None
        game, _ = Game.objects.get_or_create(match=match, number=1)
        game.status = Game.Status.FINISHED
        game.winner_position = pos
        game.margin = margin if pos is not None else None
        game.finished_at = timezone.now()
        game.save()
        if hands is None:
            hands = [
                (pos if pos is not None else 0, "gin"),
                (pos if pos is not None else 1, "knock"),
            ]
        start = Hand.objects.filter(game=game).count()
        for k, (seat, outcome) in enumerate(hands, start=start + 1):
            hand = Hand.objects.create(game=game, number=k)
            result = {
                "winner": seat,
                "outcome": outcome,
                "points": 20,
                "scored": {"winner": seat, "points": 20, "outcome": outcome, "others": []},
            }
            HandSubmission.objects.create(
                hand=hand,
                version=1,
                entry=HandSubmission.Entry.COUNTS,
                payload={},
                result=result,
                **HandSubmission.verdict_columns(result),
                status=HandSubmission.Status.CONFIRMED,
            )
        match.status = Match.Status.FINISHED
        match.winner_id = winner
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "winner", "finished_at"])
        event_results_bump(event=match.event)
        match_finished(match=match)
    return match


def correct(match: Match, *, winner: int | None, margin: int = 10) -> Match:
    """A correction of a finished match's only game: new winner and margin, results bumped."""
    with transaction.atomic():
        seats = list(match.seats.order_by("position").values_list("player_id", flat=True))
        pos = seats.index(winner) if winner is not None else None
        Game.objects.filter(match=match, number=1).update(
            winner_position=pos, margin=margin if pos is not None else None
        )
        Match.objects.filter(pk=match.pk).update(winner_id=winner)
        match.refresh_from_db()
        event_results_bump(event=match.event)
        match_finished(match=match)
    return match


def open_matches(event_id: int, number: int | None = None) -> list[Match]:
    """The event's matches still to be played (of one round if given), by table."""
    qs = Match.objects.filter(event_id=event_id).exclude(status=Match.Status.FINISHED)
    if number is not None:
        qs = qs.filter(round__number=number)
    return list(qs.order_by("table_number", "id"))


def seated(match: Match) -> list[int]:
    return list(match.seats.order_by("position").values_list("player_id", flat=True))


def api_event(api: Any, club: Any, players: Sequence[Any], kind: str, **options: Any) -> Any:
    """Create an event of ``kind`` through the API and register ``players`` checked in, seeded
    in order; every request must succeed. Returns the event's JSON."""
    body = {"club": club.pk, "name": kind, "kind": kind, "options": options}
    response = api.post("/api/events/", body, format="json")
    assert response.status_code == 201, response.json()
    event = response.json()
    for k, p in enumerate(players, start=1):
        response = api.post(
            f"/api/events/{event['id']}/registrations/",
            {"player": p.pk, "seed": k, "checked_in": True},
            format="json",
        )
        assert response.status_code == 201, response.json()
    return event


def finished_match(
    event: Any,
    players: Sequence[Any],
    *,
    at: Any,
    winner: Any = None,
    winner_team: int | None = None,
    teams: Sequence[int] | None = None,
    totals: list[int] | None = None,
) -> Match:
    """A final match as scoring stores it (its seats, one finished game, the winner), without
    playing it: for rating tests, which need only the outcome and when it was final."""
    match = Match.objects.create(
        event=event,
        rules=event.rules,
        status=Match.Status.FINISHED,
        winner=winner,
        winner_team=winner_team,
        finished_at=at,
    )
    Seat.objects.bulk_create(
        Seat(match=match, player=p, position=k, team=teams[k] if teams else None)
        for k, p in enumerate(players)
    )
    Game.objects.create(
        match=match,
        number=1,
        status=Game.Status.FINISHED,
        result={"final_totals": totals or []},
    )
    return match


def director_knock(match: Match) -> None:
    """A director of the match's event enters a knock won by seat 0 (3 deadwood against 20)."""
    director = UserFactory(username=f"dir-{match.pk}")
    match.event.directors.add(director)
    entry = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 3, "defender_deadwood": 20}
    hand_submit(match=match, actor=Actor(user=director), entry=entry_from_dict(entry))


def event_form_post(**overrides: Any) -> dict[str, Any]:
    """A complete event form as the browser posts it: the ``classic`` preset, untouched."""
    rules = find_rules("classic").to_dict()
    data: dict[str, Any] = {
        "name": "Spring Swiss",
        "kind": "swiss",
        "starts_on": "2025-04-05",
        "preset": "classic",
        "fmt_kind": "single_game",
        "confirmation": "opponent",
        "rounds_planned": "3",
        "opt_pair_by": "rating",
        "opt_forbid_same_club": "allow",
        "opt_forbid_family": "allow",
        "opt_grand_final_reset": "on",
        "opt_at_time": "play_on",
    }
    for name, value in rules.items():
        if name == "name":
            continue
        if isinstance(value, bool):
            if value:
                data[f"r_{name}"] = "on"
        elif isinstance(value, list):
            data[f"r_{name}"] = " ".join(str(v) for v in value)
        else:
            data[f"r_{name}"] = "" if value is None else str(value)
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}
