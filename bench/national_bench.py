"""A national open on a real database: 2,000 players, pairing a round, and standings under load.

``python -m bench.national_bench`` builds, in a throwaway database created with Django's test
utilities (as ``bench.tournament_bench`` does), a Swiss of 2,000 players with 3 rounds of
results and every hand (``bulk_create``), with the event options a director gets by default
(paired by rating; a field this big is paired by the worker). It then measures two rows:

- **pairing** round 4 end to end: the director's ``round_pair`` (which queues a round this big)
  and the worker's task ``round_pair_task`` run at once after it, timed from the call to the
  committed pairing (1,000 matches with seats and games). Target 3 s.
- **standings lag** at the pace of 1,000 tables: results of round 4 arrive at ``--rate`` a
  second (6: a hand about every 170 s at each table) for ``--seconds``. Each result is a
  one-hand gin that ends its match, entered on one seat's link (``hand_submit``) and confirmed
  on the other's (``hand_confirm``), the scoring services every request goes through. The
  standings prompt the services send after commit goes to a worker process (forked) that runs
  the real Celery task (``event_standings_rebuild``) one message at a time, as one Celery
  worker process with prefetch 1 does; the coalescing is production's
  (``standings_queued_at``: results arriving while a rebuild is queued send nothing). A
  result's lag runs from the moment its confirmation is sent to the commit of the first
  rebuild that counts it (the ``standings_seq`` the standings selector ``event_standings``
  reports as ``as_of``). Target: max 5 s. At the end the selector is read: current, and every
  match won counted.

Other prompts (ratings after each match) are left due in the database: no worker for them
here. CPU seconds (``time.process_time`` of each process; ``time.thread_time`` for each
result) stand beside wall time: on a shared machine the wall time also measures the others.
Set ``DATABASE_URL`` to run on PostgreSQL. Usage:
``python -m bench.national_bench [--players 2000] [--rounds 3] [--rate 6] [--seconds 30]``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault(
    "KNOCK_TEST_SQLITE",
    str(Path(__file__).resolve().parent.parent / "var" / "bench-national.sqlite3"),
)

PAIRING_TARGET = 3.0
LAG_TARGET = 5.0


@dataclass(frozen=True, slots=True)
class Rebuild:
    """One standings rebuild done by the worker: when it committed, the sequence it counts."""

    done: float
    seq: int
    wall: float
    cpu: float


@dataclass(frozen=True, slots=True)
class Result:
    """One result: when its confirmation was sent, the sequence it made, its two requests."""

    sent: float
    seq: int
    wall: float
    cpu: float


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


class StandingsWorker:
    """A worker process that runs the standings task for each prompt, one at a time, and tells
    the time each rebuild committed. It stands in for ``core.work.task_send`` (see
    :meth:`send`): the standings prompt is queued for it, every other prompt is dropped.

    A process of its own (forked, as Celery's prefork pool does), so that a rebuild never holds
    the results' interpreter lock; ``time.perf_counter`` is the system's monotonic clock, the
    same in both processes.
    """

    def __init__(self) -> None:
        context = multiprocessing.get_context("fork")
        self.inbox: multiprocessing.Queue[int | None] = context.Queue()
        self.outbox: multiprocessing.Queue[tuple[str, Any]] = context.Queue()
        self.rebuilds: list[Rebuild] = []
        self.prompts = 0
        self.errors: list[str] = []
        self._process = context.Process(target=self._run, name="bench-standings-worker")

    def send(self, name: str, /, *args: Any, **kwargs: Any) -> bool:
        from tournaments.services.work import STANDINGS_TASK

        if name == STANDINGS_TASK:
            self.prompts += 1
            self.inbox.put(int(args[0]))
        return True

    def start(self) -> None:
        from django.db import connections

        connections.close_all()  # the child opens its own
        self._process.start()

    def stop(self) -> None:
        self.inbox.put(None)
        while (told := self.outbox.get(timeout=120)) != ("stopped", None):
            kind, value = told
            if kind == "rebuild":
                self.rebuilds.append(Rebuild(*value))
            else:
                self.errors.append(value)
        self._process.join(timeout=30)

    def _run(self) -> None:
        from django.db import connection

        from tournaments import tasks

        try:
            while (event_id := self.inbox.get()) is not None:
                wall, cpu = time.perf_counter(), time.process_time()
                outcome = tasks.event_standings_rebuild.apply(args=(event_id,))
                if outcome.failed():
                    self.outbox.put(("error", repr(outcome.result)))
                    continue
                seq = outcome.get()
                done = time.perf_counter()
                if seq is not None:
                    told = (done, int(seq), done - wall, time.process_time() - cpu)
                    self.outbox.put(("rebuild", told))
        finally:
            connection.close()
            self.outbox.put(("stopped", None))


def _pair(event: Any) -> tuple[Any, float, float, float]:
    """Round 4 as the director asks for it and the worker pairs it; returns the round, the
    wall seconds of the request and of the whole, and the CPU seconds of the whole."""
    from tournaments import tasks
    from tournaments.models import Round
    from tournaments.services import round_pair

    wall, cpu = time.perf_counter(), time.process_time()
    rnd = round_pair(event=event)
    asked = time.perf_counter() - wall
    if rnd.status == Round.Status.QUEUED:
        tasks.round_pair_task.apply(args=(rnd.pk,)).get()
        rnd.refresh_from_db()
    total, used = time.perf_counter() - wall, time.process_time() - cpu
    assert rnd.status == Round.Status.PAIRED, rnd.error
    return rnd, asked, total, used


def _seat_links(rnd: Any, count: int) -> list[tuple[Any, str, str]]:
    """The first ``count`` played matches of ``rnd`` with the secrets of their two seats' links
    (made before the clock starts, as the tables' cards are printed before the round)."""
    from scoring.models import Match
    from scoring.services.links import match_link_token

    matches = list(
        Match.objects.filter(round=rnd, decision=Match.Decision.PLAYED)
        .select_related("event")
        .order_by("table_number")[:count]
    )
    return [
        (m, match_link_token(match=m, position=0), match_link_token(match=m, position=1))
        for m in matches
    ]


def _stream(
    event: Any, tables: list[tuple[Any, str, str]], rate: float, seed: int
) -> tuple[list[Result], float, float]:
    """Send one result per table at ``rate`` a second; returns them, the wall and CPU seconds."""
    from scoring.permissions import Actor
    from scoring.services import entry_from_dict, hand_confirm, hand_submit
    from tournaments.models import Event

    rng = random.Random(seed)
    results: list[Result] = []
    started, cpu = time.perf_counter(), time.process_time()
    for k, (match, first, second) in enumerate(tables):
        delay = started + k / rate - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        winner = rng.randint(0, 1)
        links = (first, second)
        entry = entry_from_dict(
            {"knocker": winner, "outcome": "gin", "defender_deadwood": rng.randint(80, 98)}
        )
        sent, used = time.perf_counter(), time.thread_time()
        sub = hand_submit(match=match, actor=Actor(token=links[winner]), entry=entry)
        hand_confirm(submission=sub, actor=Actor(token=links[1 - winner]))
        wall = time.perf_counter() - sent
        used = time.thread_time() - used
        seq = Event.objects.filter(pk=event.pk).values_list("results_seq", flat=True).get()
        results.append(Result(sent, int(seq), wall, used))
    return results, time.perf_counter() - started, time.process_time() - cpu


def _wait_current(event: Any, timeout: float) -> bool:
    """Wait until the stored standings count every result (or ``timeout`` seconds pass)."""
    from tournaments.models import Event

    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        seqs = Event.objects.filter(pk=event.pk).values_list("results_seq", "standings_seq").get()
        if seqs[1] >= seqs[0]:
            return True
        time.sleep(0.05)
    return False


def result_lags(results: list[Result], rebuilds: list[Rebuild]) -> list[float]:
    """Each result's lag: to the first rebuild (in commit order) that counts its sequence."""
    lags = []
    for r in results:
        done = next((b.done for b in rebuilds if b.seq >= r.seq and b.done >= r.sent), None)
        lags.append(float("inf") if done is None else done - r.sent)
    return lags


def _selector_counts(event: Any) -> tuple[bool, int, int]:
    """What the standings page reads: whether current, matches won it counts, and won in fact."""
    from scoring.models import Match
    from tournaments.selectors import event_standings

    shown = event_standings(event=event)
    won = sum(int(row.values.get("won", 0)) for row in shown.rows)
    stored = Match.objects.filter(
        event=event,
        status=Match.Status.FINISHED,
        decision=Match.Decision.PLAYED,
        winner__isnull=False,
    ).count()
    return not shown.stale, won, stored


def _row(label: str, figure: str, target: str, met: bool | None) -> str:
    verdict = "" if met is None else ("ok" if met else "OVER")
    return f"{label:<52} {figure:>26}  {target:<9} {verdict}"


def main(argv: Sequence[str] | None = None) -> int:
    """Build the event in a throwaway database, run both rows, print them; 1 if one missed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of results before")
    parser.add_argument("--rate", type=float, default=6.0, help="results a second")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    import logging

    import django

    django.setup()
    logging.getLogger("celery.app.trace").setLevel(logging.WARNING)  # a line per task run
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    import core.work
    import tournaments.services.work
    from bench.tournament_bench import event_build
    from scoring.models import HandSubmission

    worker = StandingsWorker()
    core.work.task_send = worker.send
    tournaments.services.work.task_send = worker.send

    old = setup_databases(verbosity=0, interactive=False, serialized_aliases=())
    try:
        print(f"National bench on {connection.vendor} ({connection.settings_dict['NAME']})")
        started = time.perf_counter()
        event = event_build(
            args.players,
            args.rounds,
            hands=True,
            seed=args.seed,
            name=f"national-{args.players}",
            options={},
        )
        hands = HandSubmission.objects.filter(hand__game__match__event=event).count()
        print(
            f"built {args.players} players x {args.rounds} rounds, {hands} hands, "
            f"in {time.perf_counter() - started:.1f} s",
            flush=True,
        )
        rnd, asked, paired, paired_cpu = _pair(event)
        print(f"paired round {rnd.number} in {paired:.2f} s", flush=True)
        tables = _seat_links(rnd, round(args.rate * args.seconds))
        event.refresh_from_db()
        print(f"{len(tables)} results at {args.rate:g} a second...", flush=True)
        worker.start()
        try:
            results, wall, cpu = _stream(event, tables, args.rate, args.seed)
            current = _wait_current(event, timeout=60.0)
        finally:
            worker.stop()
        lags = result_lags(results, worker.rebuilds)
        fresh, won, stored = _selector_counts(event)
    finally:
        teardown_databases(old, verbosity=0)

    n = len(results)
    print(
        f"\n{n} results in {wall:.1f} s ({n / wall:.1f} a second), process CPU {cpu:.1f} s; "
        f"{worker.prompts} prompts, {len(worker.rebuilds)} rebuilds "
        f"for {2 * n} result changes (entries and confirmations)"
    )
    print(
        "  a result (entry + confirmation): "
        f"p50 {statistics.median(r.wall for r in results) * 1000:.0f} ms, "
        f"p95 {percentile([r.wall for r in results], 0.95) * 1000:.0f} ms, "
        f"CPU mean {statistics.fmean(r.cpu for r in results) * 1000:.0f} ms"
    )
    if worker.rebuilds:
        print(
            "  a rebuild: "
            f"p50 {statistics.median(b.wall for b in worker.rebuilds):.2f} s, "
            f"max {max(b.wall for b in worker.rebuilds):.2f} s, "
            f"CPU mean {statistics.fmean(b.cpu for b in worker.rebuilds):.2f} s"
        )
    print(
        f"  standings page after: {'current' if fresh and current else 'BEHIND'}, "
        f"{won} matches won counted of {stored}"
        + (f"; worker errors: {worker.errors}" if worker.errors else "")
    )
    pair_ok = paired <= PAIRING_TARGET
    lag_ok = bool(lags) and max(lags) <= LAG_TARGET and fresh and current and won == stored
    print(f"\n{'what':<52} {'figure':>26}  {'target':<9}")
    print(
        _row(
            f"pair round {rnd.number} of {args.players}, end to end (request + task)",
            f"{paired:.2f} s (CPU {paired_cpu:.2f} s)",
            f"<= {PAIRING_TARGET:g} s",
            pair_ok,
        )
    )
    print(_row("  of which the director's request (queues it)", f"{asked:.2f} s", "", None))
    print(
        _row(
            f"standings lag, {args.players} players, {args.rate:g} results/s",
            f"p50 {statistics.median(lags):.2f} p95 {percentile(lags, 0.95):.2f} "
            f"max {max(lags):.2f} s",
            f"<= {LAG_TARGET:g} s",
            lag_ok,
        )
    )
    if worker.rebuilds:
        # The same run with a core for each process: a result waits at worst for the rebuild
        # under way and then its own, each taking its CPU time.
        bound = 2 * max(b.cpu for b in worker.rebuilds) + max(r.cpu for r in results)
        print(_row("  the same, CPU only (2 rebuilds + a result)", f"{bound:.2f} s", "", None))
    return 0 if pair_ok and lag_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
