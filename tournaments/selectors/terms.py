"""What scoring is told about an event: its terms (:class:`scoring.organiser.EventTerms`), and
the few facts about the event's other rows that starting a match needs.

The organiser (``tournaments.organiser``) gives scoring the terms, and checks a match's players
and round with the other two when scoring tells it players sit down; scoring never reads an
event's columns itself. Reads only.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.organiser import EventTerms
from tournaments.models import Event, Registration, Round
from tournaments.selectors.options import event_option


def event_terms(*, event: Event) -> EventTerms:
    """``event``'s terms, from the row already loaded (no query)."""
    return EventTerms(
        event_id=event.pk,
        name=event.name,
        club_id=event.club_id,
        rules=event.rules,
        match_format=event.match_format,
        confirmation=str(event.confirmation),
        confirm_by_seat_link=bool(event_option(event=event, name="confirm_by_seat_link")),
        finished=event.status == Event.Status.FINISHED,
        at_time=str(event_option(event=event, name="at_time") or "play_on"),
    )


def event_terms_find(*, event_id: int) -> EventTerms | None:
    """The terms of event ``event_id`` (one query), or None when there is none."""
    event = Event.objects.filter(pk=event_id).first()
    return event_terms(event=event) if event is not None else None


def event_players_registered(*, event_id: int, player_ids: Sequence[int]) -> set[int]:
    """Which of ``player_ids`` are registered for event ``event_id`` (whatever their club)."""
    return set(
        Registration.objects.filter(event_id=event_id, player_id__in=player_ids).values_list(
            "player_id", flat=True
        )
    )


def event_round_id(*, event_id: int, number: int) -> int | None:
    """The id of round ``number`` of event ``event_id``, or None."""
    return (
        Round.objects.filter(event_id=event_id, number=number).values_list("pk", flat=True).first()
    )
