"""Who may do what in a club: admins run the club, directors (and admins) run its events.

The club-role rules every app above asks: pages and the API ask :func:`user_can_manage_club` and
:func:`user_can_direct_club`; "who directs an event" (a club role counts) is defined here once,
by :func:`event_directors_q`, for tournaments (``events_directed``) and scoring alike.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from clubs.models import Club, ClubRole


def user_can_manage_club(*, user: Any, club: Club) -> bool:
    """Club admins (and site superusers) run the club: its details, roles and player list."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return ClubRole.objects.filter(club=club, user=user, role=ClubRole.Role.ADMIN).exists()


def user_can_direct_club(*, user: Any, club: Club) -> bool:
    """Club admins and club directors may create events and add players."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return ClubRole.objects.filter(club=club, user=user).exists()


def event_directors_q(*, user: Any, event: str = "") -> Q:
    """Who directs an event, the one definition of the rule, as a filter on the event at
    ``event``: ``""`` filters events themselves, ``"event__"`` matches, ``"events__"`` clubs.

    An event is directed by its named directors (its ``directors``), its club's admins and
    directors, and superusers; anonymous users and ``None`` direct nothing. The event is a club's
    event of the app above (``tournaments.Event``), reached by its field names, the way lower
    apps refer to it by string; this module imports nothing of it. The filter may repeat a row
    (two ways of directing it): add ``distinct()`` to a list.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        return Q(**{f"{event}pk__in": []})
    if getattr(user, "is_superuser", False):
        return Q(**{f"{event}pk__isnull": False})
    return Q(**{f"{event}directors": user}) | Q(**{f"{event}club__roles__user": user})
