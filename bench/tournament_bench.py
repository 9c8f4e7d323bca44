"""Tournament scale on a real database: pairing, standings and ratings through the services.

``python -m bench.tournament_bench`` builds, in a throwaway database created with Django's test
utilities (so ``var/knock.sqlite3`` or the production database is never touched), a 1,024-player
Swiss of 10 rounds with every hand recorded (history written with ``bulk_create``), and a
4,096-player Swiss with 5 rounds of results. It then times:

- pairing one round of 1,024 and of 4,096 players: the selector (reading the snapshot), the pure
  pairer, and the whole ``round_pair`` service (read, pair, write matches, seats and games);
- rebuilding the standings of the 1,024 x 10 event (``standings_recompute``);
- a rating update for the 1,024-player event (``ratings_update_for_event``).

Set ``DATABASE_URL`` to run it on PostgreSQL (the targets are for PostgreSQL on this machine).
The bench times services, not the broker: messages the services would send on commit are
dropped. Usage: ``python -m bench.tournament_bench [--seed 1] [--small]``.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault(
    "KNOCK_TEST_SQLITE",
    str(Path(__file__).resolve().parent.parent / "var" / "bench-tournament.sqlite3"),
)

T = TypeVar("T")


def _timed(fn: Callable[[], T]) -> tuple[T, float]:
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def event_build(
    players: int,
    rounds: int,
    *,
    hands: bool,
    seed: int,
    name: str,
    options: dict[str, Any] | None = None,
) -> Any:
    """A Swiss event with ``rounds`` rounds of results, written with bulk_create.

    ``options`` are the event's (default: paired at once, by seed, whatever the field's size).
    """
    from django.db import transaction
    from django.utils import timezone

    from clubs.models import Club, Player
    from competition import SwissConfig, SwissPlayer, pair_swiss
    from engine.rules import find_rules
    from scoring.models import Game, Hand, HandSubmission, Match, Seat
    from tournaments.models import Event, Registration, Round

    rng = random.Random(seed)
    rules = find_rules("standard").to_dict()
    with transaction.atomic():
        club = Club.objects.create(name=f"Bench {name}", slug=f"bench-{name}")
        people = Player.objects.bulk_create(
            [Player(club=club, name=f"P{i:05d}") for i in range(players)]
        )
        event = Event.objects.create(
            club=club,
            name=name,
            kind=Event.Kind.SWISS,
            status=Event.Status.RUNNING,
            rules=rules,
            match_format={"kind": "single_game"},
            lots_seed=seed,
            options={"async_pairing_from": 10**9, "pair_by": "seed"}
            if options is None
            else options,
        )
        Registration.objects.bulk_create(
            [
                Registration(event=event, player=p, seed=k, status=Registration.Status.CHECKED_IN)
                for k, p in enumerate(people, start=1)
            ]
        )
        strength = {p.pk: rng.gauss(1500, 200) for p in people}
        score = dict.fromkeys(strength, 0)
        opponents: dict[int, set[int]] = {p: set() for p in strength}
        byes = dict.fromkeys(strength, 0)
        seed_of = {p.pk: k for k, p in enumerate(people, start=1)}
        now = timezone.now()
        for number in range(1, rounds + 1):
            snapshot = [
                SwissPlayer(
                    id=p,
                    score=score[p],
                    seed=seed_of[p],
                    opponents=frozenset(opponents[p]),
                    byes=byes[p],
                )
                for p in strength
            ]
            pairing = pair_swiss(snapshot, config=SwissConfig(order_by="seed"))
            rnd = Round.objects.create(event=event, number=number, status=Round.Status.FINISHED)
            matches: list[Match] = []
            winners: list[int] = []
            for t in pairing.tables:
                a, b = t.first, t.second
                p_a = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
                w = a if rng.random() < p_a else b
                winners.append(w)
                score[w] += 1
                opponents[a].add(b)
                opponents[b].add(a)
                matches.append(
                    Match(
                        event=event,
                        round=rnd,
                        table_number=t.number,
                        rules=rules,
                        status=Match.Status.FINISHED,
                        winner_id=w,
                        finished_at=now,
                    )
                )
            for bye in pairing.byes:
                byes[bye.player] += 1
                score[bye.player] += 1
                matches.append(
                    Match(
                        event=event,
                        round=rnd,
                        rules=rules,
                        status=Match.Status.FINISHED,
                        decision=Match.Decision.BYE,
                        winner_id=bye.player,
                        finished_at=now,
                        summary={"bye": "pairing"},
                    )
                )
            matches = Match.objects.bulk_create(matches)
            seats: list[Seat] = []
            games: list[Game] = []
            for m, t, w in zip(matches, pairing.tables, winners, strict=False):
                seats.append(Seat(match=m, player_id=t.first, position=0))
                seats.append(Seat(match=m, player_id=t.second, position=1))
                games.append(
                    Game(
                        match=m,
                        number=1,
                        status=Game.Status.FINISHED,
                        winner_position=0 if w == t.first else 1,
                        margin=rng.randint(100, 300),
                        finished_at=now,
                    )
                )
            for m, bye in zip(matches[len(pairing.tables) :], pairing.byes, strict=True):
                seats.append(Seat(match=m, player_id=bye.player, position=0))
            Seat.objects.bulk_create(seats)
            games = Game.objects.bulk_create(games)
            if hands:
                hand_rows = [
                    Hand(game=g, number=k) for g in games for k in range(1, rng.randint(3, 7) + 1)
                ]
                hand_rows = Hand.objects.bulk_create(hand_rows, batch_size=5000)
                winner_pos = {g.pk: g.winner_position or 0 for g in games}
                subs = []
                for h in hand_rows:
                    pos = winner_pos[h.game_id] if rng.random() < 0.7 else 1 - winner_pos[h.game_id]
                    outcome = rng.choice(["knock", "knock", "knock", "gin", "undercut"])
                    verdict = {"winner": pos, "outcome": outcome, "points": 20}
                    subs.append(
                        HandSubmission(
                            hand=h,
                            version=1,
                            entry=HandSubmission.Entry.COUNTS,
                            payload={"knocker": pos, "outcome": outcome},
                            result=verdict,
                            **HandSubmission.verdict_columns(verdict),
                            status=HandSubmission.Status.CONFIRMED,
                        )
                    )
                HandSubmission.objects.bulk_create(subs, batch_size=5000)
        Event.objects.filter(pk=event.pk).update(results_seq=rounds)
    event.refresh_from_db()
    return event


def _finish_round(event: Any, number: int, seed: int) -> None:
    """Record every open match of a round as finished, with hands, in bulk (one results bump)."""
    from django.db import transaction
    from django.utils import timezone

    from scoring.models import Game, Hand, HandSubmission, Match
    from tournaments.services import event_results_bump

    rng = random.Random(seed)
    now = timezone.now()
    with transaction.atomic():
        matches = list(
            Match.objects.filter(event=event, round__number=number)
            .exclude(status=Match.Status.FINISHED)
            .prefetch_related("seats", "games")
        )
        games: list[Game] = []
        hands: list[Hand] = []
        for m in matches:
            pos = rng.randint(0, 1)
            m.status, m.finished_at = Match.Status.FINISHED, now
            m.winner_id = next(s.player_id for s in m.seats.all() if s.position == pos)
            g = m.games.all()[0]
            g.status, g.winner_position, g.margin, g.finished_at = (
                Game.Status.FINISHED,
                pos,
                rng.randint(100, 300),
                now,
            )
            games.append(g)
            hands.extend(Hand(game=g, number=k) for k in range(1, 5))
        Match.objects.bulk_update(matches, ["status", "finished_at", "winner"])
        Game.objects.bulk_update(games, ["status", "winner_position", "margin", "finished_at"])
        hands = Hand.objects.bulk_create(hands)
        HandSubmission.objects.bulk_create(
            HandSubmission(
                hand=h,
                version=1,
                entry=HandSubmission.Entry.COUNTS,
                payload={},
                result=verdict,
                **HandSubmission.verdict_columns(verdict),
                status=HandSubmission.Status.CONFIRMED,
            )
            for h, verdict in (
                (h, {"winner": rng.randint(0, 1), "outcome": "knock"}) for h in hands
            )
        )
        event_results_bump(event=event)


def _pairing_times(event: Any) -> dict[str, float]:
    from django.db import transaction

    from competition import pair_swiss
    from scoring.models import Match
    from tournaments.models import Round
    from tournaments.selectors import swiss_input
    from tournaments.services import round_pair

    number = event.rounds.count() + 1
    inp, t_select = _timed(lambda: swiss_input(event=event, round_number=number))
    _, t_pure = _timed(lambda: pair_swiss(inp.players, forbidden=inp.forbidden, config=inp.config))
    rnd, t_service = _timed(lambda: round_pair(event=event))
    assert rnd.status == Round.Status.PAIRED, rnd.error
    with transaction.atomic():
        assert Match.objects.filter(round=rnd).count() >= len(inp.players) // 2
    return {"select": t_select, "pure": t_pure, "service": t_service}


def _row(label: str, seconds: float, target: float | None) -> str:
    verdict = "" if target is None else ("ok" if seconds <= target else "OVER")
    goal = "" if target is None else f"<= {target:g} s"
    return f"{label:<58} {seconds:>8.3f} s  {goal:<9} {verdict}"


def main(argv: Sequence[str] | None = None) -> None:
    """Build the events in a throwaway database and print the table of timings with targets."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--small", action="store_true", help="256 / 512 players (a smoke run)")
    args = parser.parse_args(argv)

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    from scoring.models import HandSubmission
    from tournaments import tasks
    from tournaments.services import ratings_update_for_event, standings_recompute

    for task in (tasks.event_standings_rebuild, tasks.round_pair_task, tasks.ratings_update_task):
        task.delay = lambda *a, **k: None

    small, large = (256, 512) if args.small else (1024, 4096)
    old = setup_databases(verbosity=0, interactive=False, serialized_aliases=())
    try:
        vendor = connection.vendor
        print(f"Tournament bench on {vendor} ({connection.settings_dict['NAME']})")
        event, t_build = _timed(
            lambda: event_build(small, 9, hands=True, seed=args.seed, name=f"swiss-{small}")
        )
        print(f"built {small} players x 9 rounds with every hand in {t_build:.1f} s")
        p_small = _pairing_times(event)
        _, t_finish = _timed(lambda: _finish_round(event, 10, args.seed))
        print(f"recorded round 10's results in {t_finish:.1f} s")
        seq, t_standings = _timed(lambda: standings_recompute(event=event, force=True))
        n_hands = HandSubmission.objects.filter(hand__game__match__event=event).count()
        rated, t_ratings = _timed(lambda: ratings_update_for_event(event=event))
        big, t_build_big = _timed(
            lambda: event_build(large, 5, hands=False, seed=args.seed, name=f"swiss-{large}")
        )
        print(f"built {large} players x 5 rounds in {t_build_big:.1f} s\n")
        p_large = _pairing_times(big)
        print(f"{'what':<58} {'time':>10}  {'target':<9}")
        print(_row(f"pair round 10 of {small}: selector (read snapshot)", p_small["select"], None))
        print(_row(f"pair round 10 of {small}: pure pair_swiss", p_small["pure"], None))
        print(
            _row(
                f"pair round 10 of {small}: round_pair service (all)",
                p_small["service"],
                2.0 if small == 1024 else None,
            )
        )
        print(_row(f"pair round 6 of {large}: selector (read snapshot)", p_large["select"], None))
        print(_row(f"pair round 6 of {large}: pure pair_swiss", p_large["pure"], None))
        print(
            _row(
                f"pair round 6 of {large}: round_pair service (all)",
                p_large["service"],
                10.0 if large == 4096 else None,
            )
        )
        print(
            _row(
                f"standings rebuild {small} x 10 rounds, {n_hands} hands (seq {seq})",
                t_standings,
                2.0 if small == 1024 else None,
            )
        )
        print(
            _row(
                f"rating update, {small}-player event ({rated} players)",
                t_ratings,
                2.0 if small == 1024 else None,
            )
        )
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
