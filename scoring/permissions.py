"""Who is acting, and what they may do at a match.

An :class:`Actor` is built once per request from the signed-in user and the match's private link
(``?k=`` or ``X-Match-Key``); :func:`match_access` then says how the actor stands at one match:
director (event directors, the club's admins and directors, superusers), the seats they hold
(their own seat as a signed-in player, or the seat named by their link), or the table link.
Services take the actor and decide; this module holds no business rule beyond "who is who".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.http import HttpRequest
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from scoring.links import LINK_HEADER, LINK_PARAM, match_link_read
from scoring.models import Match
from scoring.selectors import event_is_director
from tournaments.models import Player

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True, slots=True)
class Actor:
    """The person behind a request: a signed-in user and/or a match link token, and the origin."""

    user: User | None = None
    token: str | None = None
    ip: str | None = None
    user_agent: str = ""

    @classmethod
    def from_request(cls, request: HttpRequest) -> Actor:
        user = request.user if request.user.is_authenticated else None
        token = request.headers.get(LINK_HEADER) or request.GET.get(LINK_PARAM) or None
        return cls(
            user=user,
            token=token,
            ip=request.META.get("REMOTE_ADDR") or None,
            user_agent=(request.headers.get("User-Agent") or "")[:300],
        )


@dataclass(frozen=True, slots=True)
class Access:
    """How an actor stands at one match."""

    director: bool = False
    positions: tuple[int, ...] = ()
    table_link: bool = False
    players: dict[int, Player] = field(default_factory=dict)

    @property
    def can_view(self) -> bool:
        return self.director or bool(self.positions) or self.table_link

    @property
    def is_player(self) -> bool:
        return bool(self.positions) or self.table_link

    def acting_position(self, declared: int | None) -> int | None:
        """The seat the actor acts as: their own, or the one a table-link holder declares.

        A signed-in player or a seat link may only act as their own seat; the table link (a
        shared phone at the table) must say which player is acting.
        """
        if declared is not None:
            if declared not in self.players:
                raise ApplicationError(
                    _("There is no player at seat %(seat)s.") % {"seat": declared},
                    field="as_position",
                )
            if self.table_link or declared in self.positions:
                return declared
            raise ApplicationError(
                _("You cannot act as another player at this table."),
                status=403,
                field="as_position",
            )
        if len(self.positions) == 1:
            return self.positions[0]
        return None


def match_access(*, actor: Actor, match: Match) -> Access:
    """The actor's standing at ``match`` (uses the prefetched seats when there are some)."""
    seats = list(match.seats.all())
    players = {s.position: s.player for s in seats}
    director = actor.user is not None and event_is_director(event=match.event, user=actor.user)
    positions: set[int] = set()
    if actor.user is not None:
        positions |= {s.position for s in seats if s.player.user_id == actor.user.pk}
    table_link = False
    if actor.token:
        link = match_link_read(token=actor.token, match=match)
        if link is not None:
            if link.position is None:
                table_link = True
            elif link.position in players:
                positions.add(link.position)
    return Access(
        director=director,
        positions=tuple(sorted(positions)),
        table_link=table_link,
        players=players,
    )


def match_access_require(*, actor: Actor, match: Match) -> Access:
    """The actor's access, or a 404 for anyone who may not see the match (it is not revealed)."""
    access = match_access(actor=actor, match=match)
    if not access.can_view:
        raise ApplicationError(_("Not found."), status=404)
    return access
