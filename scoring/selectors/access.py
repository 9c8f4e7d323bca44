"""Who directs what: an event's directors, the matches a user may see."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch, Q, QuerySet

from clubs.models import Club
from clubs.permissions import event_directors_q
from scoring.models import Match, Seat
from scoring.organiser import EventTerms

UserLike = AbstractBaseUser | AnonymousUser | None


# -- who directs what ---------------------------------------------------------------------------


def event_is_director(*, event: EventTerms, user: UserLike) -> bool:
    """True for the event's directors, its club's admins and directors, and superusers.

    The rule is defined once, below scoring (``clubs.permissions.event_directors_q``), and asked
    here of the event's club row and the event it holds: one query, none for an anonymous user
    (the rule's filter is empty).
    """
    return Club.objects.filter(
        event_directors_q(user=user, event="events__"),
        pk=event.club_id,
        events__pk=event.event_id,
    ).exists()


def match_list_visible(*, user: UserLike, event_id: int | None = None) -> QuerySet[Match]:
    """Matches a signed-in user may see: the ones they play in and those of events they direct."""
    if user is None or not user.is_authenticated:
        return Match.objects.none()
    directed = event_directors_q(user=user, event="event__")
    qs = Match.objects.filter(Q(seats__player__user=user) | directed).distinct()
    if event_id is not None:
        qs = qs.filter(event_id=event_id)
    return qs.select_related("event").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"))
    )
