"""A standings rebuild computes without holding a lock, and never stores an older count over a
newer one (``standings_recompute``; measured at national size by ``bench.national_bench``)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, transaction

import tournaments.services.standings as standings_service
import tournaments.services.work as work
from tournaments.models import Event, Standing
from tournaments.services import event_create, registration_create, standings_recompute
from tournaments.services.results import event_results_seq_bump

pytestmark = pytest.mark.django_db(transaction=True)

# Long enough for a writer blocked by the rebuild to show it (the SQLite write gate waits 5 s
# before giving up), short enough for a test.
WRITER_WAIT = 3.0


@pytest.fixture(autouse=True)
def _no_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    """Prompts after commit go nowhere: these tests call the rebuild themselves."""
    monkeypatch.setattr(work, "task_send", lambda *args, **kwargs: True)


def _event(club: Any, make_players: Any) -> Event:
    event = event_create(club_id=club.pk, name="Open", kind="club_night")
    for player in make_players(3):
        registration_create(event=event, player=player, checked_in=True)
    return event


def _in_thread(work_to_do: Any) -> tuple[bool, list[BaseException]]:
    """Run ``work_to_do`` in a thread of its own (its own connection); whether it finished
    within ``WRITER_WAIT`` seconds, and what it raised."""
    raised: list[BaseException] = []

    def run() -> None:
        try:
            work_to_do()
        except BaseException as exc:
            raised.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(WRITER_WAIT)
    finished = not thread.is_alive()
    thread.join()
    return finished, raised


def _bump(event_id: int) -> None:
    with transaction.atomic():
        event_results_seq_bump(event_id=event_id)


def _bump_and_rebuild(event: Event) -> None:
    _bump(event.pk)
    standings_recompute(event=event)


def test_a_result_commits_while_the_standings_are_computed(
    club: Any, make_players: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A result stored during the computation is not kept waiting; the rows stored are those
    of the sequence read with the results, so the standings show "updating" afterwards."""
    event = _event(club, make_players)
    before = Event.objects.get(pk=event.pk).results_seq
    real = standings_service.standings_compute
    seen: list[tuple[bool, list[BaseException]]] = []

    def computing(*, event: Event) -> Any:
        lines = real(event=event)
        seen.append(_in_thread(lambda: _bump(event.pk)))
        return lines

    monkeypatch.setattr(standings_service, "standings_compute", computing)
    assert standings_recompute(event=event) == before
    assert seen == [(True, [])]
    event.refresh_from_db()
    assert (event.standings_seq, event.results_seq) == (before, before + 1)
    assert set(Standing.objects.filter(event=event).values_list("seq", flat=True)) == {before}
    assert Standing.objects.filter(event=event).count() == 3


def test_an_older_count_is_not_stored_over_a_newer_one(
    club: Any, make_players: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two rebuilds overlap: the one that read the results first finishes last, and leaves the
    later count (and its rows) in place."""
    event = _event(club, make_players)
    before = Event.objects.get(pk=event.pk).results_seq
    real = standings_service.standings_compute
    seen: list[tuple[bool, list[BaseException]]] = []

    def computing(*, event: Event) -> Any:
        lines = real(event=event)
        if not seen:  # the first rebuild, half-way: a result and a whole rebuild elsewhere
            seen.append((True, []))
            seen.append(_in_thread(lambda: _bump_and_rebuild(event)))
        return lines

    monkeypatch.setattr(standings_service, "standings_compute", computing)
    assert standings_recompute(event=event) == before + 1
    assert seen[1] == (True, [])
    event.refresh_from_db()
    assert event.standings_seq == event.results_seq == before + 1
    assert set(Standing.objects.filter(event=event).values_list("seq", flat=True)) == {before + 1}


def test_force_stores_the_same_count_again(club: Any, make_players: Any) -> None:
    """``force`` rebuilds current standings (a director's "count again") with the same sequence."""
    event = _event(club, make_players)
    seq = standings_recompute(event=event)
    first = Event.objects.get(pk=event.pk).standings_updated_at
    assert standings_recompute(event=event) == seq
    assert Event.objects.get(pk=event.pk).standings_updated_at == first
    assert standings_recompute(event=event, force=True) == seq
    assert Event.objects.get(pk=event.pk).standings_updated_at != first
