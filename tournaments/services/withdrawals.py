"""Results nobody played: a player dropping out (their open matches become walkovers or
forfeits) and a forfeit recorded by a director. Both are results like any other: the event's
results sequence is bumped and ``match_finished`` follows, inside the same transaction.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Player
from core.errors import ApplicationError
from core.live import live_changed
from scoring.models import Match
from tournaments.models import Event, Registration
from tournaments.services.brackets import bracket_advance
from tournaments.services.events import ELIMINATION_KINDS
from tournaments.services.registrations import last_round_number
from tournaments.services.results import event_results_bump
from tournaments.services.rounds import match_finished
from tournaments.signals import registration_dropped


def _decide_unplayed(match: Match, *, winner: int | None, decision: str, reason: str) -> None:
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED,
        decision=decision,
        winner_id=winner,
        finished_at=timezone.now(),
        summary={**(match.summary or {}), "unplayed": reason},
        live_seq=F("live_seq") + 1,
    )
    live_changed(page="match", pk=match.pk)
    match.refresh_from_db()


def registration_drop(*, registration: Registration) -> Registration:
    """Drop a player: past results stand; every match of theirs without a result is a walkover.

    The opponent of an open match wins it by walkover; later Swiss rounds simply leave the
    player out, later round-robin rounds give the opponents walkovers, and the bracket sends
    their opponents through (see ``bracket_advance``).
    """
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=registration.event_id)
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if registration.status == Registration.Status.DROPPED:
            return registration
        if event.status == Event.Status.FINISHED:
            raise ApplicationError(_("The event is finished."), status=409)
        registration.status = Registration.Status.DROPPED
        registration.dropped_after_round = last_round_number(event)
        registration.save(update_fields=["status", "dropped_after_round"])
        open_matches = list(
            Match.objects.filter(event=event, seats__player_id=registration.player_id)
            .exclude(status=Match.Status.FINISHED)
            .prefetch_related("seats")
        )
        for match in open_matches:
            others = [
                s.player_id for s in match.seats.all() if s.player_id != registration.player_id
            ]
            if len(others) == 1:
                _decide_unplayed(
                    match, winner=others[0], decision=Match.Decision.WALKOVER, reason="dropped"
                )
            else:
                _decide_unplayed(
                    match, winner=None, decision=Match.Decision.FORFEIT, reason="dropped"
                )
        event_results_bump(event=event)
        for match in open_matches:
            match_finished(match=match)
        if event.kind in ELIMINATION_KINDS and (event.draw or {}).get("entrants"):
            bracket_advance(event=event)
        # Before the first round, the place is free: the waiting list (``entries``) moves up.
        registration_dropped.send(sender=Registration, registration=registration)
    return registration


def match_forfeit(*, match: Match, players: Sequence[Player]) -> Match:
    """Record a forfeit: one player forfeiting gives the other a walkover; both score nothing."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status == Match.Status.FINISHED:
            raise ApplicationError(_("This match already has a final result."), status=409)
        seated = list(match.seats.values_list("player_id", flat=True))
        if len(seated) != 2:
            raise ApplicationError(_("Only a two-player match can be forfeited."), status=409)
        gone = {p.pk for p in players}
        if not gone or not gone <= set(seated):
            raise ApplicationError(
                _("Name the player or players of this match who forfeit."), field="players"
            )
        if len(gone) == 2:
            _decide_unplayed(match, winner=None, decision=Match.Decision.FORFEIT, reason="forfeit")
        else:
            other = next(p for p in seated if p not in gone)
            _decide_unplayed(
                match, winner=other, decision=Match.Decision.WALKOVER, reason="forfeit"
            )
        event_results_bump(event=match.event)
        match_finished(match=match)
    return match
