"""Tournaments as scoring's organiser: the handlers behind :class:`scoring.organiser.Organiser`.

Each method only calls one of this app's own services or permission rules; registered in
``TournamentsConfig.ready``. Scoring calls them inside the result's transaction, so the results
sequence bump and the work records are written with the result, exactly as a direct call did.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.models import Match
from tournaments.models import Event, Player
from tournaments.permissions import user_can_manage_event
from tournaments.services import (
    event_players_enter,
    event_results_bump,
    match_finished,
    match_result_change_allowed,
    match_result_changed,
)


class TournamentsOrganiser:
    """Scoring's results go to standings, brackets, rounds and ratings."""

    def results_changed(self, *, event: Event) -> None:
        event_results_bump(event=event)

    def match_finished(self, *, match: Match) -> None:
        match_finished(match=match)

    def match_result_change_allowed(self, *, match: Match, new_winner: int | None) -> None:
        match_result_change_allowed(match=match, new_winner=new_winner)

    def match_result_changed(self, *, match: Match) -> None:
        match_result_changed(match=match)

    def players_enter(self, *, event: Event, players: Sequence[Player]) -> None:
        event_players_enter(event=event, players=players)

    def user_can_manage_event(self, *, user: Any, event: Event) -> bool:
        return user_can_manage_event(user=user, event=event)
