"""Tournaments as scoring's organiser: the handlers behind :class:`scoring.organiser.Organiser`.

Each method only calls one of this app's own selectors, permission rules or services;
registered in ``TournamentsConfig.ready``. Scoring calls them inside the result's transaction,
so the results sequence bump and the work records are written with the result, exactly as a
direct call did.
"""

from __future__ import annotations

from collections.abc import Sequence

from clubs.models import Player
from scoring.models import Match
from scoring.organiser import EventTerms, RoundClock
from tournaments.selectors.clock import match_clock_state
from tournaments.selectors.terms import event_terms, event_terms_find
from tournaments.services import (
    match_finished,
    match_players_enter,
    match_result_change_allowed,
    match_result_changed,
)
from tournaments.services.results import event_results_seq_bump


class TournamentsOrganiser:
    """Scoring's results go to standings, brackets, rounds and ratings."""

    def terms_for_event(self, *, event_id: int) -> EventTerms | None:
        return event_terms_find(event_id=event_id)

    def terms_for(self, *, match: Match) -> EventTerms:
        return event_terms(event=match.event)

    def clock_for(self, *, match: Match) -> RoundClock | None:
        return match_clock_state(match=match)

    def players_enter(
        self, *, match: Match, players: Sequence[Player], round_number: int | None
    ) -> None:
        match_players_enter(match=match, players=players, round_number=round_number)

    def results_changed(self, *, event_id: int, counted: bool = True) -> None:
        event_results_seq_bump(event_id=event_id, counted=counted)

    def match_result_change_allowed(self, *, match: Match, new_winner: int | None) -> None:
        match_result_change_allowed(match=match, new_winner=new_winner)

    def match_result_changed(self, *, match: Match) -> None:
        match_result_changed(match=match)

    def match_finished(self, *, match: Match) -> None:
        match_finished(match=match)
