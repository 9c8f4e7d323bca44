"""Writes for elimination brackets: the draw, advancing on results, and playoffs after a cut.

The bracket's shape and how results flow through it are ``competition.elimination``'s;
here the stored results are replayed through it and whatever match it says can now be played
(or was decided by a walkover) is created. Bracket matches carry their bracket id in
``Match.bracket_key`` and belong to the round of their depth in the bracket (a match one step
after another is one round later), so a player never has two matches in one round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from competition.elimination import MatchStatus
from competition.round_robin import playoff_seeding
from core.errors import ApplicationError
from core.live import live_changed
from core.names import name_clean
from scoring.models import Match
from tournaments.models import Event, Registration, Round, Standing
from tournaments.selectors import (
    bracket_pending,
    event_bracket_snapshot,
    event_option,
    event_table_history,
    seeded_registrations,
)
from tournaments.services.events import ELIMINATION_KINDS, event_create
from tournaments.services.planned import PlannedMatch, planned_matches_store
from tournaments.services.results import event_results_bump
from tournaments.signals import registration_created, round_paired

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def bracket_start(*, event: Event, user: User | None = None) -> Round:
    """Draw the bracket from the checked-in players in seed order and create its first matches."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.kind not in ELIMINATION_KINDS:
            raise ApplicationError(_("Only an elimination event has a bracket."), status=409)
        if (event.draw or {}).get("entrants"):
            raise ApplicationError(
                _("The bracket is drawn; it advances by itself as results come in."), status=409
            )
        entrants = seeded_registrations(event=event)
        if len(entrants) < 2:
            raise ApplicationError(
                _("A bracket needs at least two checked-in players."), status=409
            )
        event.draw = {"entrants": entrants}
        event.status = Event.Status.RUNNING
        event.save(update_fields=["draw", "status"])
        bracket_advance(event=event, user=user)
        rnd = Round.objects.filter(event=event).order_by("number").first()
        if rnd is None:  # a two-player bracket whose only match is decided: still a round 1
            rnd = Round.objects.create(event=event, number=1, status=Round.Status.FINISHED)
            live_changed(page="event", pk=event.pk)
        return rnd


def _free_tables(event: Event, pairs: list[tuple[int, int]], avoid: bool) -> list[int]:
    """Free table numbers, lowest first, avoiding tables the players sat at if asked."""
    busy = set(
        Match.objects.filter(event=event, table_number__isnull=False)
        .exclude(status=Match.Status.FINISHED)
        .values_list("table_number", flat=True)
    )
    history = event_table_history(event=event) if avoid else {}
    limit = len(busy) + len(pairs) + 1
    out: list[int] = []
    for a, b in pairs:
        used = history.get(a, set()) | history.get(b, set())
        free = [t for t in range(1, limit + 1) if t not in busy]
        pick = next((t for t in free if t not in used), free[0])
        busy.add(pick)
        out.append(pick)
    return out


def _players_of(home: object, away: object) -> tuple[int, int]:
    """The two players of a ready bracket match (both slots hold a player id)."""
    if not isinstance(home, int) or not isinstance(away, int):
        raise ApplicationError(_("A bracket match is ready only when both players are known."))
    return home, away


def bracket_advance(*, event: Event, user: User | None = None) -> list[Match]:
    """Create every bracket match that can now be played, and record walkovers for dropped players.

    Replays the stored results, so it can be called any number of times: a bracket match is
    created only if it has no stored match yet. Runs under the event's row lock. When the
    champion is known and nothing is left to play, the event is finished.
    """
    created: list[Match] = []
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        avoid = bool(event_option(event=event, name="avoid_same_table"))
        walkovers = False
        while True:
            snap = event_bracket_snapshot(event=event)
            pending = bracket_pending(snap)
            if not pending:
                break
            states = {ms.match.id: ms for ms in snap.state.matches}
            ready = [states[k] for k in pending if states[k].status is MatchStatus.READY]
            pairs = [_players_of(ms.home, ms.away) for ms in ready]
            tables = _free_tables(event, pairs, avoid)
            by_depth: dict[int, list[PlannedMatch]] = {}
            for ms, table in zip(ready, tables, strict=True):
                by_depth.setdefault(snap.depth[ms.match.id], []).append(
                    PlannedMatch(
                        _players_of(ms.home, ms.away),
                        table,
                        bracket_key=str(ms.match.id),
                    )
                )
            for key in pending:
                ms = states[key]
                if ms.status is not MatchStatus.WALKOVER:
                    continue
                walkovers = True
                seated = tuple(p for p in (ms.home, ms.away) if isinstance(p, int))
                winner = ms.winner if isinstance(ms.winner, int) else None
                by_depth.setdefault(snap.depth[key], []).append(
                    PlannedMatch(
                        seated,
                        decision=Match.Decision.WALKOVER if winner else Match.Decision.FORFEIT,
                        winner=winner,
                        bracket_key=str(key),
                    )
                )
            for depth, planned in sorted(by_depth.items()):
                rnd, _created = Round.objects.get_or_create(
                    event=event, number=depth, defaults={"status": Round.Status.PAIRED}
                )
                if rnd.status == Round.Status.FINISHED and any(
                    p.decision == Match.Decision.PLAYED for p in planned
                ):
                    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.PAIRED)
                created.extend(planned_matches_store(event, rnd, planned, user))
                at_tables = [
                    pid for p in planned if p.decision == Match.Decision.PLAYED for pid in p.players
                ]
                if at_tables:  # the passes mail these players their table (passes)
                    round_paired.send(sender=Round, round=rnd, players=at_tables)
            if not any(states[k].status is MatchStatus.WALKOVER for k in pending):
                break
        if walkovers:
            event_results_bump(event=event)
        snap = event_bracket_snapshot(event=event)
        open_left = any(
            ms.status in (MatchStatus.READY, MatchStatus.WAITING) for ms in snap.state.matches
        )
        if snap.state.champion is not None and not open_left:
            Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    return created


def event_playoff_create(*, event: Event, user: User | None = None, name: str = "") -> Event:
    """Cut the top ``playoff_cut`` of each group (round robin) or of the table to a playoff.

    The playoff is a new single-elimination event of the same club, rules and match format,
    whose players are registered, checked in and seeded from the stored standings (which must
    be current). It remembers the event it was cut from (``playoff_of``), and each registration
    is announced like any other (``registration_created``: the players' passes and mail).
    """
    if name.strip():
        name = name_clean(name, empty_message=_("An event needs a name."))
    cut = event_option(event=event, name="playoff_cut")
    if not cut:
        raise ApplicationError(
            _("This event has no playoff cut (the option playoff_cut)."), status=409
        )
    if event.standings_seq < event.results_seq:
        raise ApplicationError(
            _("The standings are still updating; try again in a moment."), status=409
        )
    rows = list(Standing.objects.filter(event=event).order_by("rank"))
    if any(r.values.get("dropped") for r in rows):
        rows = [r for r in rows if not r.values.get("dropped")]
    groups: dict[int, list[tuple[int, int]]] = {}
    for r in rows:
        groups.setdefault(int(r.values.get("group", 1)), []).append(
            (int(r.values.get("group_rank", r.rank)), r.player_id)
        )
    ordered = [[pid for _rank, pid in sorted(m)] for _group, m in sorted(groups.items())]
    # Checked here, in the user's language, rather than worded from playoff_seeding's ValueError.
    short = [k for k, members in enumerate(ordered, start=1) if len(members) < int(cut)]
    if short and len(ordered) == 1:
        raise ApplicationError(
            _("The standings have fewer players than the playoff cut of %(cut)s.") % {"cut": cut},
            status=409,
        )
    if short:
        raise ApplicationError(
            ngettext(
                "Group %(groups)s has fewer players than the playoff cut of %(cut)s.",
                "Groups %(groups)s have fewer players than the playoff cut of %(cut)s.",
                len(short),
            )
            % {"groups": ", ".join(map(str, short)), "cut": cut},
            status=409,
        )
    seeded = playoff_seeding(ordered, int(cut))
    with transaction.atomic():
        playoff = event_create(
            club_id=event.club_id,
            name=name or f"{event.name} playoff",
            kind=Event.Kind.SINGLE_ELIMINATION,
            rules=event.rules,
            match_format=event.match_format,
            confirmation=event.confirmation,
            options={"third_place": bool(event_option(event=event, name="third_place"))},
            starts_on=event.starts_on,
            user=user,
        )
        playoff.directors.add(*event.directors.all())
        playoff.playoff_of = event
        playoff.save(update_fields=["playoff_of"])
        Registration.objects.bulk_create(
            [
                Registration(
                    event=playoff,
                    player_id=pid,
                    seed=k,
                    status=Registration.Status.CHECKED_IN,
                )
                for k, pid in enumerate(seeded, start=1)
            ]
        )
        # Each player's pass, and its mail, as for any registration (passes); read back rather
        # than trusting bulk_create to have set the keys on every database.
        for registration in Registration.objects.filter(event=playoff).order_by("seed"):
            registration_created.send(sender=Registration, registration=registration)
    return playoff
