"""Demo tournaments for a new user: a finished Swiss, a running knockout, a league (one of its
club nights has a walkover), a round robin in progress that a player dropped out of, and a
double-elimination bracket in progress: every kind of event, and the results nobody played.

``demo_tournaments_load()`` is called by :func:`demo_load`, which gathers the whole demo here, in
the top app (``manage.py demo`` runs it): the director account (``clubs.demo``), these events,
the loaders of the apps above tournaments, which register themselves at start-up
(:func:`demo_loader_register`: ``entries.demo``'s open event, then ``passes.demo``'s passes),
then the club night (``scoring.demo``); each app keeps its own loader. It is idempotent: each
piece is looked up by name first and only what is missing is created. Everything goes through
the services: the tournament services create the events, rounds and brackets, and every hand is
played through scoring's services the way players do it at the table: entered on the knocker's
own match link and confirmed on the opponent's (the events use the default "opponent confirms"
policy), from deterministic random deadwood counts. Scoring then closes the games and matches
and calls the tournament hooks itself, so the demo's rows are exactly what real play stores.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, timedelta
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model

from clubs.demo import demo_director_load
from clubs.models import Club, ClubRole, Player
from clubs.services import club_create, club_role_grant, player_create
from engine.rules import find_rules
from scoring.demo import EVENT_NAME as CLUB_NIGHT
from scoring.demo import demo_scoring_load
from scoring.models import HandSubmission, Match
from scoring.permissions import Actor
from scoring.services import (
    entry_from_dict,
    hand_confirm,
    hand_submit,
    match_link_token,
    match_start,
)
from tournaments.models import Event, Registration
from tournaments.selectors.terms import event_terms
from tournaments.services import (
    event_create,
    event_finish,
    match_forfeit,
    ratings_update_for_event,
    registration_create,
    registration_drop,
    round_pair,
    standings_recompute,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

CLUB_SLUG = "knock-demo-club"
DemoLoader = Callable[[], list[str]]
_loaders: list[DemoLoader] = []
DEMO_IP = "192.0.2.20"  # a documentation address: the demo's "phones"
NAMES = [
    "Ada", "Bora", "Chen", "Dana", "Eun-ji", "Farid", "Gita", "Hugo", "Iris", "Jun",
    "Kai", "Lena", "Min-ho", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sora", "Tomas",
]  # fmt: skip


def _phone(match: Match, position: int) -> Actor:
    """The player at ``position`` acting on their own match link."""
    token = match_link_token(match=match, position=position)
    return Actor(token=token, ip=DEMO_IP, user_agent="Knock demo phone")


def _random_hand(rng: random.Random, strength: float) -> dict[str, int | str]:
    knocker = 0 if rng.random() < 0.5 + (strength - 0.5) * 0.3 else 1
    gin = rng.random() < 0.15
    knocker_dw = 0 if gin else rng.randint(1, 10)
    defender_dw = rng.randint(0, 60)
    if defender_dw == knocker_dw:
        defender_dw += 1
    outcome = "gin" if gin else ("knock" if defender_dw > knocker_dw else "undercut")
    return {
        "knocker": knocker,
        "outcome": outcome,
        "knocker_deadwood": knocker_dw,
        "defender_deadwood": defender_dw,
    }


def demo_match_play(*, match: Match, rng: random.Random) -> Match:
    """Play a two-player ``match`` out through scoring's services, one random hand at a time."""
    strength = rng.random()
    players = {0: _phone(match, 0), 1: _phone(match, 1)}
    for _ in range(200):
        data = _random_hand(rng, strength)
        knocker = int(data["knocker"])
        sub = hand_submit(match=match, actor=players[knocker], entry=entry_from_dict(data))
        if sub.status == HandSubmission.Status.PENDING:
            hand_confirm(submission=sub, actor=players[1 - knocker])
        match.refresh_from_db(fields=["status"])
        if match.status == Match.Status.FINISHED:
            return match
    raise RuntimeError(f"demo match {match.pk} did not finish")


def _club() -> Club:
    club = Club.objects.filter(slug=CLUB_SLUG).first()
    if club is None:
        club = club_create(
            name="Knock Demo Club",
            slug=CLUB_SLUG,
            user=None,
            description=(
                "A club to try Knock with: a club night, a league, a Swiss, a round robin, "
                "a knockout and a double elimination."
            ),
        )
    director = get_user_model().objects.filter(username="director").first()
    if director is not None:
        club_role_grant(club=club, user=director, role=ClubRole.Role.ADMIN)
    return club


def _director(club: Club) -> User:
    """Who starts the league's club-night tables: the demo director (a scorer if there is none)."""
    users = get_user_model()
    director = users.objects.filter(username="director").first()
    if director is None:
        director, _ = users.objects.get_or_create(username="demo-scorer")
    club_role_grant(club=club, user=director, role=ClubRole.Role.DIRECTOR)
    return director


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
    director = Actor(user=_director(club), ip=DEMO_IP, user_agent="Knock demo")
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
            match = match_start(
                actor=director, event=event_terms(event=event), players=[a.pk, b.pk]
            )
            demo_match_play(match=match, rng=rng)
        if night == 3:
            # A table that never played: the director records that one player forfeited.
            match = match_start(
                actor=director, event=event_terms(event=event), players=[here[0].pk, here[1].pk]
            )
            match_forfeit(match=match, players=[here[1]])
        standings_recompute(event=event)
        event_finish(event=event)
    for player in players[:16]:
        registration_create(event=league, player=player)
    return f"{name}: 3 club nights in one table"


def _round_robin(club: Club, players: list[Player], rng: random.Random) -> str:
    name = "Spring All-Play-All"
    event = Event.objects.filter(club=club, name=name).first()
    if event is not None:
        return f"{name}: kept"
    event = event_create(
        club_id=club.pk,
        name=name,
        kind=Event.Kind.ROUND_ROBIN,
        rules="standard",
        starts_on=date.today(),
    )
    field = players[14:20]
    _register(event, field)
    first = round_pair(event=event)
    for match in Match.objects.filter(round=first, status=Match.Status.SCHEDULED):
        demo_match_play(match=match, rng=rng)
    second = round_pair(event=event)
    open_matches = list(Match.objects.filter(round=second, status=Match.Status.SCHEDULED))
    demo_match_play(match=open_matches[0], rng=rng)
    # A player leaves during round 2: their open match there is their opponent's walkover, and
    # every later round gives their opponents one too.
    leaver = open_matches[-1].seats.order_by("position").first()
    assert leaver is not None
    registration_drop(registration=Registration.objects.get(event=event, player=leaver.player))
    standings_recompute(event=event)
    return f"{name}: 6 players, round 2 under way, one dropped out"


def _double_elimination(club: Club, players: list[Player], rng: random.Random) -> str:
    name = "Spring Double Elimination"
    event = Event.objects.filter(club=club, name=name).first()
    if event is not None:
        return f"{name}: kept"
    event = event_create(
        club_id=club.pk,
        name=name,
        kind=Event.Kind.DOUBLE_ELIMINATION,
        rules="standard",
        starts_on=date.today(),
    )
    _register(event, players[:4])
    first = round_pair(event=event)
    for match in Match.objects.filter(round=first, status=Match.Status.SCHEDULED):
        demo_match_play(match=match, rng=rng)
    winners = set(Match.objects.filter(round=first).values_list("winner_id", flat=True))
    # Then the losers' bracket match (both players lost once); the winners' final waits.
    for match in Match.objects.filter(event=event, status=Match.Status.SCHEDULED):
        if not winners & set(match.seats.values_list("player_id", flat=True)):
            demo_match_play(match=match, rng=rng)
    standings_recompute(event=event)
    return f"{name}: 4 players, bracket running"


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
        _round_robin(club, players, rng),
        _double_elimination(club, players, rng),
    ]


def _club_night() -> tuple[Event, User]:
    """The running club night scoring's demo plays its tables at (opponents confirm, one game a
    match, starting today), made when missing, and its director (the demo director, a scorer if
    there is none)."""
    users = get_user_model()
    director = users.objects.filter(username="director").first()
    if director is None:
        director, _ = users.objects.get_or_create(username="demo-scorer")
    club = Club.objects.get(slug=CLUB_SLUG)
    event = Event.objects.filter(club=club, name=CLUB_NIGHT).first()
    if event is None:
        event = Event.objects.create(
            club=club,
            name=CLUB_NIGHT,
            kind=Event.Kind.CLUB_NIGHT,
            status=Event.Status.RUNNING,
            starts_on=date.today(),
            rules=find_rules("standard").to_dict(),
            match_format={"kind": "single_game"},
            confirmation=Event.Confirmation.OPPONENT,
        )
    event.directors.add(director)
    return event, director


def demo_loader_register(loader: DemoLoader) -> None:
    """Add an app's demo loader (an app above tournaments, from its ``AppConfig.ready``: it
    cannot be imported from here); loaders run in the order registered, after these events and
    before the club night, and each must be idempotent. Registering one twice keeps one."""
    if loader not in _loaders:
        _loaders.append(loader)


def demo_load(*, known_password: bool = True) -> list[str]:
    """The whole demo, every app's loader in turn; return a readable report.

    ``known_password`` False (production settings) gives the director account a random password
    (see ``clubs.demo``)."""
    report = demo_director_load(known_password=known_password)
    report += demo_tournaments_load()
    for loader in _loaders:
        report += loader()
    night, director = _club_night()
    report += demo_scoring_load(event=event_terms(event=night), director=director)
    return report
