"""Who directs what: an event's directors, the events a user directs, the matches a user may see."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch, Q, QuerySet

from scoring.models import Match, Seat
from scoring.organiser import EventTerms, organiser

UserLike = AbstractBaseUser | AnonymousUser | None


# -- who directs what ---------------------------------------------------------------------------


def event_is_director(*, event: EventTerms, user: UserLike) -> bool:
    """True for the event's directors, its club's admins and directors, and superusers.

    The rule is defined once, by the organiser (tournaments' ``events_directed``); this is the
    name scoring uses for it.
    """
    return organiser().user_directs(user=user, event_id=event.event_id)


def events_directed(*, user: UserLike) -> QuerySet[Any]:
    """The ids (``values("pk")``) of the events ``user`` directs (directly, or as an admin or
    director of the club), as the organiser defines it: for a subquery."""
    return organiser().events_directed(user=user)


def match_list_visible(*, user: UserLike, event_id: int | None = None) -> QuerySet[Match]:
    """Matches a signed-in user may see: the ones they play in and those of events they direct."""
    if user is None or not user.is_authenticated:
        return Match.objects.none()
    directed = events_directed(user=user)
    qs = Match.objects.filter(Q(seats__player__user=user) | Q(event_id__in=directed)).distinct()
    if event_id is not None:
        qs = qs.filter(event_id=event_id)
    return qs.select_related("event").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"))
    )
