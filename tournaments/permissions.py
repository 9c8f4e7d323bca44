"""Who may do what with events: directors (event or club) manage them.

The club-role rules (who runs a club, who may direct in it) are in ``clubs.permissions``; reads
being public and writes needing a signed-in user is ``core.permissions``.

Anyone may read clubs, players, public event pages, standings, brackets and ratings. A player's
own check-in link needs no account: its secret token is the credential.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from clubs.permissions import event_directors_q
from tournaments.models import Event


def events_directed(*, user: Any) -> QuerySet[Event]:
    """The events ``user`` directs, by the one rule (``clubs.permissions.event_directors_q``:
    its directors, its club's admins and directors, superusers; anonymous users and ``None``
    direct nothing). Pages, the API and the dashboard ask here, or :func:`user_directs_event`
    for one event; scoring asks the same rule of its matches.
    """
    return Event.objects.filter(event_directors_q(user=user)).distinct()


def user_directs_event(*, user: Any, event_id: int) -> bool:
    """Whether ``user`` directs event ``event_id`` (:func:`events_directed`): one query, none
    for an anonymous user (the rule's filter is empty)."""
    return events_directed(user=user).filter(pk=event_id).exists()


def user_can_manage_event(*, user: Any, event: Event) -> bool:
    """Whether ``user`` directs ``event`` (:func:`user_directs_event`)."""
    return user_directs_event(user=user, event_id=event.pk)
