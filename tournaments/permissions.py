"""Who may do what with events: directors (event or club) manage them.

The club-role rules (who runs a club, who may direct in it) are in ``clubs.permissions``; reads
being public and writes needing a signed-in user is ``core.permissions``.

Anyone may read clubs, players, public event pages, standings, brackets and ratings. A player's
own check-in link needs no account: its secret token is the credential.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from tournaments.models import Event


def events_directed(*, user: Any) -> QuerySet[Event]:
    """Who directs an event, the one definition of the rule: the events ``user`` directs.

    An event is directed by its directors, its club's admins and directors, and superusers;
    anonymous users and ``None`` direct nothing. Pages, the API, the dashboard and scoring
    (through the organiser) all ask here, or :func:`user_directs_event` for one event.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        return Event.objects.none()
    if getattr(user, "is_superuser", False):
        return Event.objects.all()
    return Event.objects.filter(Q(directors=user) | Q(club__roles__user=user)).distinct()


def user_directs_event(*, user: Any, event_id: int) -> bool:
    """Whether ``user`` directs event ``event_id`` (:func:`events_directed`): one query, none
    for an anonymous user."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return events_directed(user=user).filter(pk=event_id).exists()


def user_can_manage_event(*, user: Any, event: Event) -> bool:
    """Whether ``user`` directs ``event`` (:func:`user_directs_event`)."""
    return user_directs_event(user=user, event_id=event.pk)
