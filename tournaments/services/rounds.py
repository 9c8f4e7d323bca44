"""Writes for rounds: pairing (Swiss, round robin, the start of a bracket), re-pairing, tables.

The pairing itself is ``competition``' business; this module loads its input through
the selectors, calls it, and stores the result as a ``Round`` with scoring ``Match`` and ``Seat``
rows. Big Swiss fields are paired by a Celery task: the round is created ``queued`` and a client
polls it until it is ``paired`` or ``failed``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Player
from competition.matching import max_weight_matching
from competition.round_robin import berger_schedule, snake_groups
from competition.swiss import PairingError, pair_swiss
from core.errors import ApplicationError
from core.live import live_changed
from core.work import work_due_add
from scoring.models import Match
from tournaments.models import Event, EventLog, Registration, Round
from tournaments.pairing_messages import pairing_error_text
from tournaments.selectors import (
    event_option,
    event_pairing_registrations,
    event_table_history,
    round_has_results,
    seeded_registrations,
    swiss_input,
)
from tournaments.services.brackets import bracket_advance, bracket_start
from tournaments.services.events import ELIMINATION_KINDS
from tournaments.services.planned import PlannedMatch, planned_matches_store
from tournaments.services.results import event_results_bump
from tournaments.services.work import RATINGS_MATCH_TASK, ROUND_PAIR_TASK
from tournaments.signals import round_paired

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def tables_assign(
    pairs: Sequence[tuple[int, int]], history: Mapping[int, set[int]], *, avoid: bool
) -> list[int]:
    """Table numbers 1..n for ``pairs`` (in pairing order); with ``avoid`` nobody sits again at a
    table they sat at before when that can be helped.

    A greedy pass (best-ranked table first) does it for most rounds; when it leaves a repeat and
    the room has at most ``EXACT_TABLES_LIMIT`` tables, the assignment is solved exactly as a
    maximum-weight matching of games to tables (``competition.max_weight_matching``).
    """
    n = len(pairs)
    if not avoid:
        return list(range(1, n + 1))
    used = [history.get(a, set()) | history.get(b, set()) for a, b in pairs]
    free = list(range(1, n + 1))
    out: list[int] = []
    for sat in used:
        pick = next((t for t in free if t not in sat), free[0])
        free.remove(pick)
        out.append(pick)
    if n > EXACT_TABLES_LIMIT or all(t not in sat for t, sat in zip(out, used, strict=True)):
        return out
    edges = [
        (g, n + t - 1, 2 * n * n - (n * n if t in used[g] else 0) - abs(t - 1 - g))
        for g in range(n)
        for t in range(1, n + 1)
    ]
    mate = max_weight_matching(edges, max_cardinality=True)
    return [mate[g] - n + 1 for g in range(n)]


EXACT_TABLES_LIMIT = 64


def pairing_error_message(*, number: int, code: str, params: Mapping[str, Any]) -> str:
    """Why round ``number`` cannot be paired, in the active language, from the reason as data
    (``PairingError.code`` and ``params``; its English ``str()`` is for logs). The wording lives
    in :mod:`tournaments.pairing_messages`, which ``Round.error_message()`` also uses."""
    pid = params.get("player")
    player = Player.objects.filter(pk=pid).first() if isinstance(pid, int) else None
    return pairing_error_text(
        number=number, code=code, params=params, player_name=player.name if player else None
    )


def _forced(event: Event, number: int) -> bool:
    """True when a director paired round ``number`` before the one before it was complete."""
    return EventLog.objects.filter(
        event=event, kind=EventLog.Kind.ROUND_FORCED, round_number=number
    ).exists()


def _plan_swiss(event: Event, rnd: Round) -> list[PlannedMatch]:
    number = rnd.number
    inp = swiss_input(event=event, round_number=number, allow_unfinished=_forced(event, number))
    try:
        pairing = pair_swiss(inp.players, forbidden=inp.forbidden, config=inp.config)
    except PairingError as exc:
        message = pairing_error_message(number=number, code=exc.code, params=exc.params)
        raise ApplicationError(message, status=409) from exc
    rnd.floats = {str(pid): way.value for pid, way in pairing.floats}
    Round.objects.filter(pk=rnd.pk).update(floats=rnd.floats)
    pairs = [(t.first, t.second) for t in pairing.tables]
    tables = tables_assign(
        pairs,
        event_table_history(event=event),
        avoid=bool(event_option(event=event, name="avoid_same_table")),
    )
    planned = [PlannedMatch(pair, table) for pair, table in zip(pairs, tables, strict=True)]
    planned.extend(
        PlannedMatch(
            (bye.player,),
            decision=Match.Decision.BYE,
            winner=bye.player,
            bye="requested" if bye.requested else "pairing",
        )
        for bye in pairing.byes
    )
    return planned


def _plan_round_robin(event: Event, number: int) -> list[PlannedMatch]:
    draw = event.draw or {}
    if not draw.get("groups"):
        seeded = seeded_registrations(event=event)
        if len(seeded) < 2:
            raise ApplicationError(
                _("A round robin needs at least two checked-in players."), status=409
            )
        groups = int(event_option(event=event, name="groups"))
        cycles = 2 if event_option(event=event, name="double_round_robin") else 1
        draw = {"groups": [list(g) for g in snake_groups(seeded, groups)], "cycles": cycles}
        Event.objects.filter(pk=event.pk).update(draw=draw)
        event.draw = draw
    dropped = set(
        Registration.objects.filter(event=event, status=Registration.Status.DROPPED).values_list(
            "player_id", flat=True
        )
    )
    planned: list[PlannedMatch] = []
    pairs_to_seat: list[tuple[int, int]] = []
    any_round = False
    for group in draw["groups"]:
        schedule = berger_schedule(group, cycles=int(draw.get("cycles", 1)))
        if number > len(schedule):
            continue
        any_round = True
        rr = schedule[number - 1]
        for game in rr.games:
            gone = [p for p in (game.first, game.second) if p in dropped]
            if len(gone) == 2:
                planned.append(
                    PlannedMatch((game.first, game.second), decision=Match.Decision.FORFEIT)
                )
            elif gone:
                other = game.second if gone[0] == game.first else game.first
                planned.append(
                    PlannedMatch(
                        (game.first, game.second), decision=Match.Decision.WALKOVER, winner=other
                    )
                )
            else:
                pairs_to_seat.append((game.first, game.second))
        if rr.bye is not None and rr.bye not in dropped:
            planned.append(
                PlannedMatch((rr.bye,), decision=Match.Decision.BYE, winner=rr.bye, bye="pairing")
            )
    if not any_round:
        raise ApplicationError(_("Every round of the round robin has been paired."), status=409)
    tables = tables_assign(
        pairs_to_seat,
        event_table_history(event=event),
        avoid=bool(event_option(event=event, name="avoid_same_table")),
    )
    planned[:0] = [PlannedMatch(p, t) for p, t in zip(pairs_to_seat, tables, strict=True)]
    return planned


def _pair_into(event: Event, rnd: Round, user: object = None) -> Round:
    """Plan and store ``rnd``'s matches; raises ApplicationError (nothing stored) if impossible."""
    with transaction.atomic():
        if event.kind == Event.Kind.SWISS:
            planned = _plan_swiss(event, rnd)
        else:
            planned = _plan_round_robin(event, rnd.number)
        planned_matches_store(event, rnd, planned, user)
        Round.objects.filter(pk=rnd.pk).update(
            status=Round.Status.PAIRED, error="", error_code="", error_params={}
        )
        rnd.status, rnd.error, rnd.error_code, rnd.error_params = Round.Status.PAIRED, "", "", {}
        if any(p.decision != Match.Decision.PLAYED for p in planned):
            event_results_bump(event=event)
        # The passes show the round and mail it after commit (passes).
        round_paired.send(sender=Round, round=rnd, players=None)
    return rnd


def _close_finished_rounds(event: Event) -> None:
    """Mark paired rounds whose every match is final as finished."""
    open_rounds = set(
        Match.objects.filter(event=event, round__isnull=False)
        .exclude(status=Match.Status.FINISHED)
        .values_list("round_id", flat=True)
    )
    Round.objects.filter(event=event, status=Round.Status.PAIRED).exclude(
        pk__in=open_rounds
    ).update(status=Round.Status.FINISHED)


REASON_MAX = 500


def round_pair(
    *, event: Event, user: User | None = None, force: bool = False, reason: str = ""
) -> Round:
    """Pair the event's next round (or draw the bracket, for an elimination event).

    Small Swiss fields and round robins are paired at once; a Swiss field of at least
    ``async_pairing_from`` players gets a ``queued`` round, paired by ``round_pair_task`` after
    commit. The previous round must be complete: every match final, unless the director
    ``force``s it with a ``reason`` (required), kept in the event's log with the tables that
    were still open. Those tables stay open and count when they finish; a Swiss pairing treats
    them as meetings that score nothing yet.
    """
    reason = (reason or "").strip()
    if force and not reason:
        raise ApplicationError(
            _("Say why the round is paired before every result is in."), field="reason"
        )
    if len(reason) > REASON_MAX:
        raise ApplicationError(
            _("Keep the reason under %(n)s characters.") % {"n": REASON_MAX}, field="reason"
        )
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.status == Event.Status.FINISHED:
            raise ApplicationError(_("The event is finished."), status=409)
        if event.kind in (Event.Kind.CLUB_NIGHT, Event.Kind.LEAGUE):
            raise ApplicationError(
                _("Club nights and leagues have no rounds: players sit down with anyone."),
                status=409,
            )
        if event.kind in ELIMINATION_KINDS:
            return bracket_start(event=event, user=user)
        last = Round.objects.filter(event=event).order_by("-number").first()
        if last is not None and last.status == Round.Status.QUEUED:
            raise ApplicationError(
                _("Round %(number)s is still being paired.") % {"number": last.number},
                status=409,
            )
        if last is not None and last.status == Round.Status.FAILED:
            raise ApplicationError(
                _("Round %(number)s could not be paired; re-pair it. %(reason)s")
                % {"number": last.number, "reason": last.error_message()},
                status=409,
            )
        _close_finished_rounds(event)
        open_tables = (
            list(
                Match.objects.filter(round=last)
                .exclude(status=Match.Status.FINISHED)
                .values_list("table_number", flat=True)
            )
            if last is not None
            else []
        )
        if open_tables and not force:
            raise ApplicationError(
                _("Round %(number)s still has matches without a final result.")
                % {"number": last.number if last else 0},
                status=409,
            )
        number = (last.number if last else 0) + 1
        if event.rounds_planned and number > event.rounds_planned:
            raise ApplicationError(
                ngettext(
                    "The %(count)s planned round has been paired.",
                    "All %(count)s planned rounds have been paired.",
                    event.rounds_planned,
                )
                % {"count": event.rounds_planned},
                status=409,
            )
        count = event_pairing_registrations(event=event).count()
        if count < 2:
            raise ApplicationError(_("At least two checked-in players are needed."), status=409)
        if event.status == Event.Status.REGISTRATION:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status"])
        rnd = Round.objects.create(event=event, number=number, status=Round.Status.QUEUED)
        live_changed(page="event", pk=event.pk)
        if open_tables:
            EventLog.objects.create(
                event=event,
                kind=EventLog.Kind.ROUND_FORCED,
                round_number=number,
                reason=reason,
                details={"open_tables": sorted(t for t in open_tables if t is not None)},
                user=user,
            )
        threshold = int(event_option(event=event, name="async_pairing_from"))
        if event.kind == Event.Kind.SWISS and count >= threshold:
            # Recorded with the round: the sweep re-sends a prompt that was lost.
            work_due_add(task=ROUND_PAIR_TASK, key=rnd.pk)
            return rnd
        return _pair_into(event, rnd, user)


def round_pair_execute(*, round_id: int) -> Round | None:
    """Pair a queued round (the task's body); does nothing if it is no longer queued.

    A round that cannot be paired is marked ``failed`` with the reason, for the director. The
    worker's language is nobody's: a pairing failure is stored as data (``error_code``,
    ``error_params``) and worded in each reader's language by ``Round.error_message()``;
    ``error`` keeps it as text in the site's default language.
    """
    with transaction.atomic():
        rnd = Round.objects.select_for_update().filter(pk=round_id).first()
        if rnd is None or rnd.status != Round.Status.QUEUED:
            return rnd
        event = Event.objects.select_for_update().get(pk=rnd.event_id)
        try:
            return _pair_into(event, rnd)
        except ApplicationError as exc:
            cause = exc.__cause__
            code, params = "", {}
            text = exc.message
            if isinstance(cause, PairingError):
                code, params = cause.code, dict(cause.params)
                with translation.override(settings.LANGUAGE_CODE):
                    text = pairing_error_message(number=rnd.number, code=code, params=params)
            Round.objects.filter(pk=rnd.pk).update(
                status=Round.Status.FAILED, error=text, error_code=code, error_params=params
            )
            rnd.refresh_from_db()
            return rnd


def round_repair(*, rnd: Round, user: User | None = None) -> Round:
    """Throw away a round's pairing and pair it again, allowed only before any result exists.

    "Any result" is any hand recorded or any match decided other than by the pairing itself
    (byes); a failed round can always be re-paired.
    """
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=rnd.event_id)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if event.kind not in (Event.Kind.SWISS, Event.Kind.ROUND_ROBIN):
            raise ApplicationError(
                _("Only Swiss and round-robin rounds can be re-paired."), status=409
            )
        if Round.objects.filter(event=event, number__gt=rnd.number).exists():
            raise ApplicationError(_("Only the latest round can be re-paired."), status=409)
        if rnd.status == Round.Status.QUEUED:
            raise ApplicationError(_("This round is still being paired."), status=409)
        matches = Match.objects.filter(round=rnd)
        if round_has_results(rnd=rnd):
            raise ApplicationError(
                _("Results exist for this round; it can no longer be re-paired."), status=409
            )
        had_byes = matches.filter(decision=Match.Decision.BYE).exists()
        matches.delete()
        Round.objects.filter(pk=rnd.pk).update(
            status=Round.Status.QUEUED, error="", error_code="", error_params={}
        )
        rnd.status = Round.Status.QUEUED
        if had_byes:
            event_results_bump(event=event)
        return _pair_into(event, rnd, user)


def match_finished(*, match: Match) -> None:
    """The hook scoring calls when a match becomes final (``Match.status == "finished"``).

    Call it inside the transaction that finished the match, after ``event_results_bump``. It
    advances the bracket (elimination events), closes the round when its last match is final,
    and records the rating update as work due (prompted on commit, re-sent by the sweep). Safe
    to call twice: the bracket only gains the matches it is missing, and the rating task is
    idempotent.
    """
    match = Match.objects.select_related("event").get(pk=match.pk)
    if match.status != Match.Status.FINISHED:
        return
    event = match.event
    if event.kind in ELIMINATION_KINDS and (event.draw or {}).get("entrants") and match.bracket_key:
        bracket_advance(event=event)
    if match.round_id is not None:
        _close_finished_rounds(event)
    if match.decision == Match.Decision.PLAYED:
        work_due_add(task=RATINGS_MATCH_TASK, key=match.pk)
