"""Demo tournaments for a new user: a finished Swiss, a running knockout and a league.

``demo_tournaments_load()`` is called by ``core.demo``. It is idempotent: each piece is looked
up by name first and only what is missing is created. Everything goes through the tournament
services; match results are written as scoring stores them (``Game``, ``Hand`` and confirmed
``HandSubmission`` rows) with every hand scored by the engine from deterministic random deadwood
counts, then ``event_results_bump`` and ``match_finished`` are called as scoring does. (Scoring's
own services need a signed-in actor per hand; the demo writes the same rows directly.)
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from engine.game import ScoredHand, score_game
from engine.rules import RuleSet
from engine.scoring import HandOutcome, score_hand_counts
from scoring.models import Game, Hand, HandSubmission, Match
from tournaments.models import Club, ClubRole, Event, Player, Registration
from tournaments.services import (
    club_create,
    club_role_grant,
    event_create,
    event_finish,
    event_results_bump,
    match_finished,
    player_create,
    ratings_update_for_event,
    registration_create,
    round_pair,
    standings_recompute,
)

CLUB_SLUG = "knock-demo-club"
NAMES = [
    "Ada", "Bora", "Chen", "Dana", "Eun-ji", "Farid", "Gita", "Hugo", "Iris", "Jun",
    "Kai", "Lena", "Min-ho", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sora", "Tomas",
]  # fmt: skip


def demo_match_play(*, match: Match, rng: random.Random) -> Match:
    """Play ``match`` out hand by hand with the engine and store it as scoring would."""
    rules = RuleSet.from_dict(match.rules)
    seats = list(match.seats.order_by("position").values_list("player_id", flat=True))
    strength = rng.random()
    with transaction.atomic():
        game, _ = Game.objects.get_or_create(match=match, number=1)
        hands: list[ScoredHand] = []
        result = None
        for number in range(1, 41):
            knocker = 0 if rng.random() < 0.5 + (strength - 0.5) * 0.3 else 1
            gin = rng.random() < 0.15
            knocker_dw = 0 if gin else rng.randint(1, 10)
            defender_dw = rng.randint(0, 60)
            if defender_dw == knocker_dw:
                defender_dw += 1
            hr = score_hand_counts(
                rules,
                outcome=(
                    HandOutcome.GIN
                    if gin
                    else HandOutcome.KNOCK
                    if defender_dw > knocker_dw
                    else HandOutcome.UNDERCUT
                ),
                knocker_deadwood=knocker_dw,
                defender_deadwood=defender_dw,
            )
            hand = ScoredHand.from_hand(hr, knocker=knocker, defender=1 - knocker)
            hands.append(hand)
            h = Hand.objects.create(game=game, number=number)
            HandSubmission.objects.create(
                hand=h,
                version=1,
                entry=HandSubmission.Entry.COUNTS,
                payload={
                    "knocker": knocker,
                    "outcome": hr.outcome.value,
                    "knocker_deadwood": knocker_dw,
                    "defender_deadwood": defender_dw,
                },
                result={
                    "outcome": hr.outcome.value,
                    "winner_role": hr.winner,
                    "winner": hand.winner,
                    "knocker": knocker,
                    "defender": 1 - knocker,
                    "points": hr.points,
                },
                status=HandSubmission.Status.CONFIRMED,
                confirmed_at=timezone.now(),
            )
            result = score_game(rules, hands)
            if result.finished:
                break
        assert result is not None
        now = timezone.now()
        game.status = Game.Status.FINISHED
        game.winner_position = result.winner
        game.margin = result.margin
        game.result = {"final_totals": list(result.final_totals), "hands": len(hands)}
        game.finished_at = now
        game.save()
        match.status = Match.Status.FINISHED
        match.winner_id = seats[result.winner] if result.winner is not None else None
        match.summary = {"games_won": [int(result.winner == 0), int(result.winner == 1)]}
        match.finished_at = now
        match.save(update_fields=["status", "winner", "summary", "finished_at"])
        event_results_bump(event=match.event)
        match_finished(match=match)
    return match


def _club() -> Club:
    club = Club.objects.filter(slug=CLUB_SLUG).first()
    if club is None:
        club = club_create(
            name="Knock Demo Club",
            slug=CLUB_SLUG,
            user=None,
            description="A club to try Knock with: a Swiss, a knockout and a league.",
        )
    director = get_user_model().objects.filter(username="director").first()
    if director is not None:
        club_role_grant(club=club, user=director, role=ClubRole.Role.ADMIN)
    return club


def _players(club: Club) -> list[Player]:
    out = []
    for k, name in enumerate(NAMES):
        player = Player.objects.filter(club=club, name=name).first()
        if player is None:
            player = player_create(club=club, name=name, is_guest=k >= 16)
        out.append(player)
    return out


def _register(event: Event, players: list[Player]) -> None:
    for seed, p in enumerate(players, start=1):
        registration_create(event=event, player=p, seed=seed, checked_in=True)


def _swiss(club: Club, players: list[Player], rng: random.Random) -> str:
    name = "Autumn Swiss"
    event = Event.objects.filter(club=club, name=name).first()
    if event is not None:
        return f"{name}: kept"
    event = event_create(
        club_id=club.pk,
        name=name,
        kind=Event.Kind.SWISS,
        rules="standard",
        rounds_planned=5,
        starts_on=date.today() - timedelta(days=14),
    )
    _register(event, players[:16])
    for _ in range(5):
        rnd = round_pair(event=event)
        for match in Match.objects.filter(round=rnd, status=Match.Status.SCHEDULED):
            demo_match_play(match=match, rng=rng)
    standings_recompute(event=event)
    ratings_update_for_event(event=event)
    event_finish(event=event)
    return f"{name}: 16 players, 5 rounds, finished"


def _knockout(club: Club, players: list[Player], rng: random.Random) -> str:
    name = "Winter Knockout"
    event = Event.objects.filter(club=club, name=name).first()
    if event is not None:
        return f"{name}: kept"
    event = event_create(
        club_id=club.pk,
        name=name,
        kind=Event.Kind.SINGLE_ELIMINATION,
        rules="standard",
        options={"third_place": True},
        starts_on=date.today(),
    )
    _register(event, players[:12])
    round_pair(event=event)
    first = list(Match.objects.filter(event=event, status=Match.Status.SCHEDULED))
    for match in first[: len(first) - 1]:
        demo_match_play(match=match, rng=rng)
    standings_recompute(event=event)
    return f"{name}: 12 players, bracket running"


def _league(club: Club, players: list[Player], rng: random.Random) -> str:
    name = "Thursday League"
    league = Event.objects.filter(club=club, name=name).first()
    if league is not None:
        return f"{name}: kept"
    league = event_create(club_id=club.pk, name=name, kind=Event.Kind.LEAGUE, rules="standard")
    for night in range(1, 4):
        event = event_create(
            club_id=club.pk,
            name=f"Thursday night {night}",
            kind=Event.Kind.CLUB_NIGHT,
            rules="standard",
            league=league,
            starts_on=date.today() - timedelta(days=7 * (4 - night)),
        )
        here = rng.sample(players, 8)
        _register(event, here)
        for _ in range(6):
            a, b = rng.sample(here, 2)
            match = Match.objects.create(event=event, rules=event.rules, match_format={})
            match.seats.create(player=a, position=0)
            match.seats.create(player=b, position=1)
            demo_match_play(match=match, rng=rng)
        standings_recompute(event=event)
        event_finish(event=event)
    Registration.objects.bulk_create(
        [Registration(event=league, player=p) for p in players[:16]], ignore_conflicts=True
    )
    return f"{name}: 3 club nights in one table"


def demo_tournaments_load() -> list[str]:
    """Create (or keep) the demo club and its events; return a line per piece."""
    rng = random.Random(20240601)
    club = _club()
    players = _players(club)
    return [
        f"Club: {club.name} (/api/clubs/{club.pk}/), {len(players)} players",
        _swiss(club, players, rng),
        _knockout(club, players, rng),
        _league(club, players, rng),
    ]
