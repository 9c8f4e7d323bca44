"""``python -m drills.reconcile ACKED.json``: check the stored state against what was acknowledged.

Runs inside Django on the drill's database and prints one JSON object: ``ok``, ``counts`` and
``problems`` (each a sentence). ACKED.json lists every hand the API acknowledged
(``{"match": id, "submission": id}``). Reads only, except the ratings replay, which runs inside
a transaction that is always rolled back.
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from typing import Any


class _Rollback(Exception):
    pass


def _jsonish(value: Any) -> Any:
    from django.core.serializers.json import DjangoJSONEncoder

    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def _hands(acked: list[dict[str, int]], counts: Counter[str], problems: list[str]) -> None:
    """Every acknowledged hand stored exactly once (one confirmed entry per hand)."""
    from scoring.models import HandSubmission

    ids = [a["submission"] for a in acked]
    counts["acknowledged"] = len(ids)
    dupes = [i for i, n in Counter(ids).items() if n > 1]
    stored = {
        s.pk: s for s in HandSubmission.objects.filter(pk__in=ids).select_related("hand__game")
    }
    missing = sorted(set(ids) - set(stored))
    if missing:
        problems.append(f"{len(missing)} acknowledged hands not stored: {missing[:5]}")
    for a in acked:
        s = stored.get(a["submission"])
        if s is not None and s.hand.game.match_id != a["match"]:
            problems.append(f"hand {s.pk} stored on match {s.hand.game.match_id}, not {a['match']}")
    hands = Counter(stored[i].hand_id for i in set(ids) if i in stored)
    twice = [h for h, n in hands.items() if n > 1]
    if dupes or twice:
        problems.append(f"stored more than once: submissions {dupes[:5]}, hands {twice[:5]}")
    confirmed = Counter(
        HandSubmission.objects.filter(status=HandSubmission.Status.CONFIRMED).values_list(
            "hand_id", flat=True
        )
    )
    doubled = [h for h, n in confirmed.items() if n > 1]
    if doubled:
        problems.append(f"{len(doubled)} hands with two confirmed entries: {doubled[:5]}")
    counts["stored_once"] = len(set(ids)) - len(missing) - len(twice)
    counts["missing"] = len(missing)
    counts["duplicated"] = len(set(dupes)) + len(twice) + len(doubled)
    counts["stored_total"] = HandSubmission.objects.count()


def _sheets(counts: Counter[str], problems: list[str]) -> None:
    """Every score sheet's totals equal the sum of its hands' credits."""
    from scoring.models import Match
    from scoring.selectors import match_prefetched, match_scoresheet, match_state

    for match_id in (
        Match.objects.filter(games__hands__isnull=False).distinct().values_list("pk", flat=True)
    ):
        sheet = match_scoresheet(state=match_state(match=match_prefetched(match_id=match_id)))
        for game in sheet["games"]:
            rows = game["rows"]
            if not rows or "running_totals" not in rows[-1]:
                continue
            width = len(rows[-1]["running_totals"])
            summed = [0] * width
            for row in rows:
                for seat, credit in row["credits"].items():
                    summed[int(seat)] += credit
            if summed != rows[-1]["running_totals"]:
                problems.append(
                    f"match {match_id} game {game.get('number')}: totals "
                    f"{rows[-1]['running_totals']} but hands sum to {summed}"
                )
        counts["sheets"] += 1


def _standings(counts: Counter[str], problems: list[str]) -> None:
    """Stored standings are current and equal a from-scratch computation."""
    from tournaments.models import Event, Standing
    from tournaments.selectors import league_table
    from tournaments.selectors.standings import standings_compute

    for event in Event.objects.all():
        if event.results_seq == 0:
            continue
        counts["events"] += 1
        if event.standings_seq != event.results_seq:
            problems.append(
                f"{event.name}: standings at result {event.standings_seq} of {event.results_seq}"
            )
            continue
        lines = (
            league_table(league=event)
            if event.kind == Event.Kind.LEAGUE
            else (standings_compute(event=event))
        )
        fresh = {line.player: (line.rank, _jsonish(line.values)) for line in lines}
        stored = {
            s.player_id: (s.rank, _jsonish(s.values)) for s in Standing.objects.filter(event=event)
        }
        if fresh != stored:
            diff = [p for p in set(fresh) | set(stored) if fresh.get(p) != stored.get(p)]
            problems.append(f"{event.name}: standings differ from a rebuild for players {diff[:5]}")
            continue
        counts["standings_equal"] += 1


def _brackets(counts: Counter[str], problems: list[str]) -> None:
    """Every bracket holds every match its results call for (none missing, none stuck)."""
    from tournaments.models import Event
    from tournaments.selectors.brackets import bracket_pending, event_bracket_snapshot

    for event in Event.objects.filter(
        kind__in=[Event.Kind.SINGLE_ELIMINATION, Event.Kind.DOUBLE_ELIMINATION]
    ):
        if not (event.draw or {}).get("entrants"):
            continue
        counts["brackets"] += 1
        pending = bracket_pending(event_bracket_snapshot(event=event))
        if pending:
            problems.append(f"{event.name}: bracket matches never created: {pending}")
        else:
            counts["brackets_equal"] += 1


def _rounds(counts: Counter[str], problems: list[str]) -> None:
    from tournaments.models import Round

    counts["rounds"] = Round.objects.count()
    stuck = list(
        Round.objects.filter(status__in=[Round.Status.QUEUED, Round.Status.FAILED]).values_list(
            "event__name", "number", "status"
        )
    )
    counts["rounds_stuck"] = len(stuck)
    for name, number, status in stuck:
        problems.append(f"{name}: round {number} is {status}")


def _ratings(counts: Counter[str], problems: list[str]) -> None:
    """The stored ratings equal a replay of every stored result from no ratings at all."""
    from django.db import transaction

    from clubs.models import Club
    from ratings.models import Rating, RatingHistory
    from ratings.services import ratings_openskill_rebuild
    from scoring.models import Match
    from tournaments.models import Event
    from tournaments.services import ratings_update_for_event

    def snapshot() -> dict[tuple[int, str], tuple[float, float, int]]:
        return {
            (r.player_id, r.kind): (r.rating, r.deviation, r.games) for r in Rating.objects.all()
        }

    stored: dict[tuple[int, str], tuple[float, float, int]] = {}
    replayed: dict[tuple[int, str], tuple[float, float, int]] = {}
    try:
        with transaction.atomic():
            # Every rating write holds its club's row lock; so does this replay, so a worker
            # still rating waits for it (or it for the worker). The events' rows first, as a
            # correction takes its event's row before its club's: never the other way round.
            list(Event.objects.select_for_update().order_by("pk").values_list("pk", flat=True))
            list(Club.objects.select_for_update().order_by("pk").values_list("pk", flat=True))
            stored = snapshot()
            RatingHistory.objects.all().delete()
            Rating.objects.all().delete()
            played = Match.objects.filter(
                status=Match.Status.FINISHED, decision=Match.Decision.PLAYED
            ).values_list("event_id", flat=True)
            for event in Event.objects.filter(pk__in=played).order_by("pk"):
                ratings_update_for_event(event=event)
            for club in Club.objects.all():
                ratings_openskill_rebuild(club=club)
            replayed = snapshot()
            raise _Rollback
    except _Rollback:
        pass
    counts["ratings"] = len(replayed)
    differ = [
        key
        for key in set(stored) | set(replayed)
        if key not in stored
        or key not in replayed
        or stored[key][2] != replayed[key][2]
        or not all(
            math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)
            for a, b in zip(stored[key][:2], replayed[key][:2], strict=True)
        )
    ]
    if differ:
        problems.append(f"{len(differ)} ratings differ from a replay: {sorted(differ)[:5]}")
    counts["ratings_equal"] = len(replayed) - len([k for k in differ if k in replayed])


def main(path: str) -> dict[str, Any]:
    import django

    django.setup()
    with open(path) as f:
        acked = json.load(f)
    counts: Counter[str] = Counter()
    problems: list[str] = []
    _hands(acked, counts, problems)
    _sheets(counts, problems)
    _standings(counts, problems)
    _brackets(counts, problems)
    _rounds(counts, problems)
    _ratings(counts, problems)
    return {"ok": not problems, "counts": dict(counts), "problems": problems}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])))
