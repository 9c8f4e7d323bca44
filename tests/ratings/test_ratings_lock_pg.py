"""Rating writes under real concurrency, on PostgreSQL with real threads.

Several workers rate finished matches of one club at once (as N Celery workers do after a busy
round), while another re-rates the whole event by the batch path, another rebuilds the club's
OpenSkill ratings, another does what a director's correction does (the event's results bump,
then the ratings it touches), and another replays everything from no ratings at all and rolls
back (what an audit does). Every rating write takes the club's row lock first, and the batch
path marks the event only after its commit, so they wait in turn: no thread may hit any
database error (no deadlock, no duplicate rating row), and afterwards the stored ratings equal a
replay of the stored results.
"""

from __future__ import annotations

import random
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from clubs.models import Club
from ratings.models import Rating, RatingHistory
from ratings.services import (
    club_ratings_lock,
    ratings_openskill_rebuild,
    ratings_update_for_match,
    ratings_withdraw_match,
)
from scoring.models import Match
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.tournaments.helpers import finished_match
from tournaments.models import Event
from tournaments.services import (
    event_create,
    event_results_bump,
    ratings_update_for_event,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PLAYERS = 8
ROUNDS = 3
WORKERS = 4
JOIN_TIMEOUT = 120


class _Rollback(Exception):
    pass


@pytest.fixture(autouse=True)
def _needs_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL)")


def _snapshot() -> dict[tuple[int, str], tuple[float, float, int]]:
    return {(r.player_id, r.kind): (r.rating, r.deviation, r.games) for r in Rating.objects.all()}


def _replay(club: Club, event: Event) -> dict[tuple[int, str], tuple[float, float, int]]:
    """The ratings a replay of every stored result gives, rolled back (as an audit does)."""
    result: dict[tuple[int, str], tuple[float, float, int]] = {}
    try:
        with transaction.atomic():
            # The event's row, then the club's: the order a correction takes them in.
            list(Event.objects.select_for_update().filter(pk=event.pk).values_list("pk"))
            club_ratings_lock(club.pk)
            RatingHistory.objects.all().delete()
            Rating.objects.all().delete()
            ratings_update_for_event(event=event)
            ratings_openskill_rebuild(club=club)
            result = _snapshot()
            raise _Rollback
    except _Rollback:
        pass
    return result


def test_concurrent_rating_writes_of_one_club_wait_in_turn() -> None:
    club = ClubFactory()
    event = event_create(club_id=club.pk, name="Busy night", kind="club_night")
    players = [PlayerFactory(club=club) for _ in range(PLAYERS)]
    t0 = timezone.now() - timedelta(hours=3)
    matches: list[int] = []
    for r in range(ROUNDS):  # each round pairs everyone, so the workers share players
        order = players[:]
        random.Random(r).shuffle(order)
        for k in range(0, PLAYERS, 2):
            a, b = order[k], order[k + 1]
            at = t0 + timedelta(minutes=10 * r + k)
            matches.append(finished_match(event, [a, b], at=at, winner=a if k % 4 else b).pk)
    three = finished_match(event, players[:3], at=t0 + timedelta(hours=1), winner=players[2])
    matches.append(three.pk)

    errors: list[str] = []
    guard = threading.Lock()
    start = threading.Barrier(WORKERS + 4)

    def run(name: str, work: Any) -> None:
        try:
            start.wait(timeout=JOIN_TIMEOUT)
            for _ in range(2):
                work()
        except BaseException as exc:  # every error is the finding
            with guard:
                errors.append(f"{name}: {type(exc).__name__}: {exc}")
        finally:
            connection.close()

    def worker(n: int) -> Any:
        def rate_mine() -> None:
            for m in matches[n::WORKERS]:
                ratings_update_for_match(match_id=m)

        return rate_mine

    jobs = [(f"worker {n}", worker(n)) for n in range(WORKERS)]

    def correction() -> None:
        # What a director's correction of a final result does: the results bump (the event's
        # row), then the ratings it touches (the club's lock), in one transaction.
        with transaction.atomic():
            event_results_bump(event=Event.objects.get(pk=event.pk))
            ratings_withdraw_match(
                match=Match.objects.get(pk=matches[0]), day=timezone.now().date()
            )

    jobs.append(("correction", correction))
    jobs.append(("batch", lambda: ratings_update_for_event(event=Event.objects.get(pk=event.pk))))
    jobs.append(("openskill", lambda: ratings_openskill_rebuild(club=Club.objects.get(pk=club.pk))))
    jobs.append(
        ("audit", lambda: _replay(Club.objects.get(pk=club.pk), Event.objects.get(pk=event.pk)))
    )
    threads = [threading.Thread(target=run, args=job, daemon=True) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(JOIN_TIMEOUT)
    assert not any(t.is_alive() for t in threads), "a rating thread is stuck"
    assert errors == []

    stored = _snapshot()
    assert len(stored) == PLAYERS + 3  # everyone's Glicko-2 rating, three OpenSkill ones
    assert stored == _replay(club, event)
