"""Lists of clubs, their roles and their players, for the API and the pages."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from clubs.models import Club, ClubRole, Player


def club_list() -> QuerySet[Club]:
    """Every club by name, each with its ``player_count``."""
    return Club.objects.annotate(player_count=Count("players", distinct=True)).order_by("name")


def club_role_list(*, club: Club) -> QuerySet[ClubRole]:
    """Who holds which role in the club, by role and then user name."""
    return (
        ClubRole.objects.filter(club=club).select_related("user").order_by("role", "user__username")
    )


def player_list(*, club_id: int | None = None) -> QuerySet[Player]:
    qs = Player.objects.select_related("club").order_by("club_id", "name")
    return qs.filter(club_id=club_id) if club_id else qs
