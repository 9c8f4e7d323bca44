"""The standings lock under real concurrency, on PostgreSQL with real threads.

Writer threads play whole matches through scoring's real services (``match_start``, then
``hand_submit`` by one seat's link and ``hand_confirm`` by the other's, until the game is over),
each stored or confirmed hand bumping the event's ``results_seq``. At the same time rebuilder
threads call ``standings_recompute(force=True)`` in a loop and, between rebuilds, audit the
stored standings under the event's row lock: whenever they claim to be current
(``standings_seq == results_seq``) they must equal a from-scratch ``standings_compute`` and every
row must carry that sequence. Afterwards the standings are current and equal a fresh compute,
``results_seq`` counts every bump (none lost), and no thread hit anything but a retryable
lock error (deadlock, serialization failure, lock not available), which is retried.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

import pytest
from django.db import DatabaseError, connection, transaction

from scoring.models import HandSubmission, Match
from scoring.permissions import Actor
from scoring.services import (
    entry_from_dict,
    hand_confirm,
    hand_submit,
    match_link_token,
    match_start,
)
from tests.clubs.factories import PlayerFactory
from tests.scoring.factories import event_director
from tests.tournaments.factories import EventFactory, RegistrationFactory
from tournaments.models import Event, Standing
from tournaments.selectors import standings_compute
from tournaments.selectors.terms import event_terms
from tournaments.services import standings_recompute

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

T = TypeVar("T")

PLAYERS = 8
WRITERS = 4
REBUILDERS = 3
MATCHES_PER_WRITER = 3
MAX_HANDS = 30
JOIN_TIMEOUT = 120
# Lock errors a caller is expected to retry: deadlock, serialization failure, lock not available.
RETRYABLE = {"40P01", "40001", "55P03"}


@pytest.fixture(autouse=True)
def _needs_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL)")


class Race:
    """What the threads share: the errors they hit, the retries they made, and a stop flag."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.errors: list[str] = []
        self.retries = 0
        self.audited = 0
        self.writers_done = threading.Event()

    def retrying(self, call: Callable[..., T], **kwargs: Any) -> T:
        """``call(**kwargs)``, again after a retryable lock error (each call is one transaction)."""
        for _attempt in range(10):
            try:
                return call(**kwargs)
            except DatabaseError as exc:
                code = getattr(exc.__cause__, "pgcode", None)
                if code not in RETRYABLE:
                    raise
                with self.lock:
                    self.retries += 1
        return call(**kwargs)

    def fail(self, who: str, exc: BaseException) -> None:
        with self.lock:
            self.errors.append(f"{who}: {type(exc).__name__}: {exc}")


def _stored(event_id: int) -> list[tuple[int, int, dict[str, Any]]]:
    return [
        (s.player_id, s.rank, s.values)
        for s in Standing.objects.filter(event_id=event_id).order_by("rank")
    ]


def _computed(event: Event) -> list[tuple[int, int, dict[str, Any]]]:
    return [(line.player, line.rank, line.values) for line in standings_compute(event=event)]


def _audit(event_id: int) -> bool:
    """Under the event's lock: current standings must equal a fresh compute (True if checked)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event_id)
        seqs = set(Standing.objects.filter(event_id=event_id).values_list("seq", flat=True))
        # One rebuild's rows, computed at or before the sequence they stand for (a hand of a
        # match in play moves both sequences and leaves the rows as they were).
        assert len(seqs) <= 1, seqs
        assert all(seq <= event.standings_seq for seq in seqs), (seqs, event.standings_seq)
        if event.standings_seq != event.results_seq:
            return False
        assert _stored(event_id) == _computed(event)
        return True


def _play(race: Race, event_id: int, director_id: int, seats: list[int], favourite: int) -> None:
    """One whole match: the ``favourite`` seat knocks 5 against 25 (20 points) every hand but
    the second, where the other seat goes gin against 10, until the game (to 100) is over."""
    from django.contrib.auth import get_user_model

    event = Event.objects.get(pk=event_id)
    director = get_user_model().objects.get(pk=director_id)
    match = race.retrying(
        match_start, actor=Actor(user=director), event=event_terms(event=event), players=seats
    )
    tokens = [match_link_token(match=match, position=p) for p in (0, 1)]
    for hand in range(1, MAX_HANDS + 1):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return
        if hand == 2:
            knocker, outcome, deadwood = 1 - favourite, "gin", (0, 10)
        else:
            knocker, outcome, deadwood = favourite, "knock", (5, 25)
        entry = entry_from_dict(
            {
                "knocker": knocker,
                "outcome": outcome,
                "knocker_deadwood": deadwood[0],
                "defender_deadwood": deadwood[1],
            }
        )
        # The knocker enters the hand from their seat link; the other seat confirms it.
        sub = race.retrying(
            hand_submit, match=match, actor=Actor(token=tokens[knocker]), entry=entry
        )
        assert sub.status == HandSubmission.Status.PENDING
        race.retrying(hand_confirm, submission=sub, actor=Actor(token=tokens[1 - knocker]))
    raise AssertionError(f"match {match.pk} not over after {MAX_HANDS} hands")


def _writer(
    race: Race,
    start: threading.Barrier,
    index: int,
    event_id: int,
    director_id: int,
    ids: list[int],
) -> None:
    try:
        start.wait()
        for j in range(MATCHES_PER_WRITER):
            # Different opponents each match (an odd offset never meets itself).
            seats = [ids[(2 * index) % PLAYERS], ids[(2 * index + 1 + 2 * j) % PLAYERS]]
            _play(race, event_id, director_id, seats, favourite=(index + j) % 2)
    except BaseException as exc:  # reported to the main thread
        race.fail(f"writer {index}", exc)
    finally:
        connection.close()


def _rebuilder(
    race: Race, start: threading.Barrier, index: int, event_id: int, seen: list[list[int]]
) -> None:
    try:
        start.wait()
        event = Event.objects.get(pk=event_id)
        while not race.writers_done.is_set():
            seen[index].append(race.retrying(standings_recompute, event=event, force=True))
            if race.retrying(_audit, event_id=event_id):
                with race.lock:
                    race.audited += 1
        # One last rebuild once every result is in.
        seen[index].append(race.retrying(standings_recompute, event=event, force=True))
    except BaseException as exc:  # reported to the main thread
        race.fail(f"rebuilder {index}", exc)
    finally:
        connection.close()


def test_rebuilds_racing_result_entry_stay_consistent() -> None:
    event = cast(
        Event, EventFactory(confirmation=Event.Confirmation.OPPONENT, kind=Event.Kind.CLUB_NIGHT)
    )
    director = event_director(event)
    ids = [
        RegistrationFactory(event=event, player=PlayerFactory(club=event.club)).player_id
        for _ in range(PLAYERS)
    ]
    race = Race()
    start = threading.Barrier(WRITERS + REBUILDERS)
    seen: list[list[int]] = [[] for _ in range(REBUILDERS)]
    writers = [
        threading.Thread(target=_writer, args=(race, start, i, event.pk, director.pk, ids))
        for i in range(WRITERS)
    ]
    rebuilders = [
        threading.Thread(target=_rebuilder, args=(race, start, i, event.pk, seen))
        for i in range(REBUILDERS)
    ]
    for thread in [*writers, *rebuilders]:
        thread.start()
    for thread in writers:
        thread.join(timeout=JOIN_TIMEOUT)
    race.writers_done.set()
    for thread in rebuilders:
        thread.join(timeout=JOIN_TIMEOUT)
    assert not any(t.is_alive() for t in [*writers, *rebuilders]), "a thread hung"
    assert race.errors == [], race.errors

    event.refresh_from_db()
    matches = Match.objects.filter(event=event)
    assert matches.count() == WRITERS * MATCHES_PER_WRITER
    assert all(m.status == Match.Status.FINISHED for m in matches)
    # No bump was lost: every hand was stored (1) and confirmed (1; the confirmation that
    # closed a match's only game tells the organiser once too).
    hands = HandSubmission.objects.filter(hand__game__match__event=event)
    assert hands.count() == hands.filter(status=HandSubmission.Status.CONFIRMED).count()
    assert event.results_seq == 2 * hands.count()

    assert event.standings_seq == event.results_seq
    stored = _stored(event.pk)
    assert stored == _computed(event)
    assert len(stored) == PLAYERS
    assert set(Standing.objects.filter(event=event).values_list("seq", flat=True)) == {
        event.results_seq
    }
    assert sum(s[2]["played"] for s in stored) == 2 * WRITERS * MATCHES_PER_WRITER
    # Each rebuilder saw the sequence only move forward, and the rebuilds really raced the
    # writers (some reflected a partial event).
    for values in seen:
        assert values == sorted(values)
        assert values[-1] == event.results_seq
    assert any(v < event.results_seq for values in seen for v in values)
    # And some audits found the standings current mid-race and compared them in full.
    assert race.audited > 0
