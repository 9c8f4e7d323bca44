"""What a signed-in user lands on: the clubs they run, the events they direct (running first),
and the matches they play (open ones first)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Case, Count, IntegerField, Q, Value, When

from clubs.models import Club, ClubRole, Player, RoleInvitation
from clubs.selectors import user_role_invitations
from scoring.models import Match
from tournaments.models import Event
from tournaments.permissions import events_directed
from tournaments.selectors.lists import PlayerMatch, player_matches

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True, slots=True)
class Dashboard:
    """A user's clubs (with their role), directed events, own matches, and the club roles
    they are invited to (which count only once accepted)."""

    clubs: tuple[tuple[Club, str], ...]
    events: tuple[Event, ...]
    matches: tuple[PlayerMatch, ...]
    invitations: tuple[RoleInvitation, ...] = ()

    @property
    def directs(self) -> bool:
        return bool(self.clubs or self.events)


def user_dashboard(*, user: User) -> Dashboard:
    """The user's clubs and events (superusers see every club) and their matches."""
    if getattr(user, "is_superuser", False):
        club_rows = [(c, "admin") for c in Club.objects.order_by("name")]
    else:
        roles: dict[int, str] = {}
        for club_id, role in ClubRole.objects.filter(user=user).values_list("club_id", "role"):
            if roles.get(club_id) != "admin":
                roles[club_id] = role
        club_rows = [(c, roles[c.pk]) for c in Club.objects.filter(pk__in=roles).order_by("name")]
    events = (
        Event.objects.filter(pk__in=events_directed(user=user).values("pk"))
        .select_related("club")
        .annotate(
            registration_count=Count("registrations", distinct=True),
            open_tables=Count(
                "matches",
                filter=~Q(matches__status=Match.Status.FINISHED),
                distinct=True,
            ),
            order=Case(
                When(status=Event.Status.RUNNING, then=Value(0)),
                When(status=Event.Status.REGISTRATION, then=Value(1)),
                default=Value(2),
                output_field=IntegerField(),
            ),
        )
        .distinct()
        .order_by("order", "-starts_on", "-id")[:30]
    )
    matches: list[PlayerMatch] = []
    for player in Player.objects.filter(user=user):
        matches.extend(player_matches(player=player, limit=20))
    matches.sort(key=lambda m: (m.result != "playing", -m.match.created_at.timestamp()))
    return Dashboard(
        clubs=tuple(club_rows),
        events=tuple(events),
        matches=tuple(matches[:20]),
        invitations=tuple(user_role_invitations(user=user)),
    )
