"""Closing a match as it stands when its table's time is up (docs/rules.md §11, the event's
``at_time`` = ``as_it_stands``).

A director not seated at the match closes it after the hand being played: the engine scores it
as it stands (:func:`engine.game.score_as_it_stands`: no game bonus, box bonus or shutout for
the game in progress; the player or team ahead wins by the difference; level is a draw), the
game in progress and the match are stored finished with that result, the match's summary keeps
how and by whom it was closed (as a forfeit keeps ``unplayed``), and the organiser is told once
at the end. Whether the event plays on or scores as it stands is the event's term; whether the
table's time is up is the organiser's clock (``clock_for``): scoring asks, never reads an event.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.live import live_changed
from engine.game import StandingResult
from scoring.models import Game, Match
from scoring.organiser import ResultChanges, organiser
from scoring.permissions import Actor, match_access
from scoring.selectors import MatchState, match_prefetched, match_standing, match_state


def _refusal(*, state: MatchState, at_time: str, time_up: bool) -> str | None:
    """Why the match may not be closed as it stands (None: it may), in the order a director
    would want to hear it."""
    if at_time != "as_it_stands":
        return _(
            "This event plays matches out at time: the event's setting is not \"scored as it "
            'stands".'
        )
    if state.finished or state.match.status == Match.Status.FINISHED:
        return _("This match already has a final result.")
    if not time_up:
        return _("This table's time is not up yet.")
    if any(view.pending is not None for view in state.games):
        return _("A hand is waiting for confirmation: settle it before closing the table.")
    return None


def match_close_as_it_stands(*, match: Match, actor: Actor) -> StandingResult:
    """Close ``match`` as it stands (a director not seated at it); the engine's standing result.

    409 when the event plays on at time, the match is finished, its table's time is not up, or
    a hand is waiting for confirmation; 403 for anyone but a director not playing at the table.
    """
    with transaction.atomic():
        Match.objects.select_for_update().filter(pk=match.pk).first()
        match = match_prefetched(match_id=match.pk)
        access = match_access(actor=actor, match=match)
        if not access.neutral_director:
            raise ApplicationError(
                _("Only a director not playing at this table can close it as it stands."),
                status=403,
            )
        terms = organiser().terms_for(match=match)
        clock = organiser().clock_for(match=match)
        state = match_state(match=match)
        refusal = _refusal(
            state=state,
            at_time=terms.at_time,
            time_up=clock is not None and clock.at_time,
        )
        if refusal is not None:
            raise ApplicationError(refusal, status=409)
        standing = match_standing(state)
        now = timezone.now()
        _game_close(state=state, standing=standing, now=now)
        closed = {"by": actor.user.pk if actor.user is not None else None, "at": now.isoformat()}
        _match_close(state=state, standing=standing, closed=closed, now=now)
        changes = ResultChanges.of(match=state.match)
        changes.finished[match.pk] = state.match
        changes.tell()
        live_changed(page="match", pk=match.pk)
    return standing


def _game_close(*, state: MatchState, standing: StandingResult, now: datetime) -> None:
    """Store the game in progress finished: to its leader by the difference, or drawn."""
    current = next((view for view in state.games if not view.finished), None)
    if current is None:
        return
    game = current.game
    if game.pk is None:  # a paired match before its first hand
        game.save()
    position, team = (
        (None, standing.game_winner) if state.partnership else (standing.game_winner, None)
    )
    game.status = Game.Status.FINISHED
    game.winner_position = position
    game.winner_team = team
    game.margin = standing.game_margin
    game.result = {"as_it_stands": True, "totals": list(standing.game_totals)}
    game.finished_at = now
    game.save(
        update_fields=[
            "status",
            "winner_position",
            "winner_team",
            "margin",
            "result",
            "finished_at",
        ]
    )


def match_restand(*, state: MatchState, changes: ResultChanges) -> None:
    """A match closed as it stands whose hands a director corrected since: store its result as
    it stands again (the game in progress and the match), noted in ``changes`` as a corrected
    result when it differs from the stored one. Called by ``match_sync``."""
    standing = match_standing(state)
    match = state.match
    summary = match.summary or {}
    stored = (summary.get("winner"), summary.get("margin"), list(summary.get("games_won") or []))
    if stored == (standing.winner, standing.margin, list(standing.games_won)):
        return
    now = timezone.now()
    _game_close(state=state, standing=standing, now=now)
    _match_close(
        state=state,
        standing=standing,
        closed=summary["as_it_stands"],
        now=match.finished_at or now,
    )
    changes.result_changed(match=match)
    changes.corrected.setdefault(match.pk, match)


def _match_close(
    *, state: MatchState, standing: StandingResult, closed: Mapping[str, object], now: datetime
) -> None:
    match = state.match
    winner_player = None
    winner_team = None
    if standing.winner is not None:
        if state.partnership:
            winner_team = standing.winner
        else:
            seat = state.seat(standing.winner)
            winner_player = seat.player if seat is not None else None
    summary = {
        **(match.summary or {}),
        "games_won": list(standing.games_won),
        "winner": standing.winner,
        "winner_name": state.name_of(standing.winner),
        "margin": standing.margin,
        "as_it_stands": closed,
    }
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED,
        winner=winner_player,
        winner_team=winner_team,
        summary=summary,
        finished_at=now,
        live_seq=F("live_seq") + 1,
    )
    match.refresh_from_db()
