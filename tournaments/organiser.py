"""Tournaments as scoring's organiser: the handlers behind :class:`scoring.organiser.Organiser`.

Each method only calls one of this app's own services or permission rules; registered in
``TournamentsConfig.ready``. Scoring calls them inside the result's transaction, so the results
sequence bump and the work records are written with the result, exactly as a direct call did.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from django.db.models import Q, QuerySet

from clubs.models import Club, Player
from scoring.models import Match
from tournaments.models import Event, Registration, Round
from tournaments.permissions import user_can_manage_event
from tournaments.selectors import event_option
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

    def event_find(self, *, event_id: Any) -> Event | None:
        return Event.objects.select_related("club").filter(pk=event_id).first()

    def event_finished(self, *, event: Event) -> bool:
        return event.status == Event.Status.FINISHED

    def event_confirm_by_seat_link(self, *, event: Event) -> bool:
        return bool(event_option(event=event, name="confirm_by_seat_link"))

    def event_players_registered(self, *, event: Event, player_ids: Sequence[int]) -> set[int]:
        return set(
            Registration.objects.filter(event=event, player_id__in=player_ids).values_list(
                "player_id", flat=True
            )
        )

    def event_round(self, *, event: Event, number: int) -> Round | None:
        return Round.objects.filter(event=event, number=number).first()

    def events_directed(self, *, user: Any) -> QuerySet[Event]:
        if user is None or not user.is_authenticated:
            return Event.objects.none()
        if getattr(user, "is_superuser", False):
            return Event.objects.all()
        return Event.objects.filter(Q(directors=user) | Q(club__roles__user=user)).distinct()

    def club_night(self, *, club: Club, name: str, rules: dict[str, Any], director: Any) -> Event:
        event = Event.objects.filter(club=club, name=name).first()
        if event is None:
            event = Event.objects.create(
                club=club,
                name=name,
                kind=Event.Kind.CLUB_NIGHT,
                status=Event.Status.RUNNING,
                starts_on=date.today(),
                rules=rules,
                match_format={"kind": "single_game"},
                confirmation=Event.Confirmation.OPPONENT,
            )
        event.directors.add(director)
        return event
