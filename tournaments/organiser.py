"""Tournaments as scoring's organiser: the handlers behind :class:`scoring.organiser.Organiser`.

Each method only calls one of this app's own selectors, permission rules or services;
registered in ``TournamentsConfig.ready``. Scoring calls them inside the result's transaction,
so the results sequence bump and the work records are written with the result, exactly as a
direct call did.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import QuerySet

from clubs.models import Player
from scoring.models import Match
from scoring.organiser import EventTerms
from tournaments.permissions import events_directed, user_directs_event
from tournaments.selectors.terms import (
    event_players_registered,
    event_round_id,
    event_terms,
    event_terms_find,
)
from tournaments.services import (
    event_players_enter,
    match_finished,
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

    def user_directs(self, *, user: Any, event_id: int) -> bool:
        return user_directs_event(user=user, event_id=event_id)

    def events_directed(self, *, user: Any) -> QuerySet[Any]:
        return events_directed(user=user).values("pk")

    def players_registered(self, *, event_id: int, player_ids: Sequence[int]) -> set[int]:
        return event_players_registered(event_id=event_id, player_ids=player_ids)

    def round_id(self, *, event_id: int, number: int) -> int | None:
        return event_round_id(event_id=event_id, number=number)

    def players_enter(self, *, event_id: int, players: Sequence[Player]) -> None:
        event_players_enter(event_id=event_id, players=players)

    def results_changed(self, *, event_id: int) -> None:
        event_results_seq_bump(event_id=event_id)

    def match_result_change_allowed(self, *, match: Match, new_winner: int | None) -> None:
        match_result_change_allowed(match=match, new_winner=new_winner)

    def match_result_changed(self, *, match: Match) -> None:
        match_result_changed(match=match)

    def match_finished(self, *, match: Match) -> None:
        match_finished(match=match)
