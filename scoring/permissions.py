"""Who is acting, and who they are at a match.

An :class:`Actor` is built once per request from the signed-in user, the private link secret
sent in the ``X-Match-Key`` header (the API) and the seat sessions of the browser (pages: a link
is exchanged for a session on first visit, see :mod:`scoring.links`). :func:`match_access` then
says how the actor stands at one match:

- ``director``: the event's directors, the club's admins and directors, superusers;
- ``identities``: the seats the actor *is* at this match — their own seat as a signed-in
  player, and the seat of a seat link they hold. An actor with an identity is that player and
  nobody else at this match;
- ``table_link``: the shared phone's link; its holder says which player is acting, but only when
  they have no identity of their own at the match (a signed-in player cannot "hand over" to
  themselves as their opponent);
- ``seated_director``: a director who is also a player at this match. Such a director acts as
  their seat only: the two-person rule needs a director *not* seated at the match to settle.

Services take the actor and decide; this module holds no business rule beyond "who is who".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.http import HttpRequest
from django.utils.translation import gettext as _

from clubs.models import Player
from core.errors import ApplicationError
from scoring.links import (
    LINK_HEADER,
    MatchLink,
    bad_secret_blocked,
    bad_secret_note,
    key_find,
    key_link,
    keys_for,
    secret_from,
    session_keys,
)
from scoring.models import Match
from scoring.organiser import organiser

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def client_ip(request: HttpRequest) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


def link_gate(request: HttpRequest) -> None:
    """429 for a source address that sent too many invalid link secrets lately."""
    if bad_secret_blocked(client_ip(request)):
        raise ApplicationError(
            _("Too many invalid links from this address: wait a few minutes and try again."),
            status=429,
        )


@dataclass(frozen=True, slots=True)
class Actor:
    """The person behind a request: a signed-in user, a link secret, seat sessions, the origin."""

    user: User | None = None
    token: str | None = None
    key_ids: tuple[int, ...] = ()
    ip: str | None = None
    user_agent: str = ""
    token_link: MatchLink | None = None
    token_checked: bool = False

    @classmethod
    def from_request(cls, request: HttpRequest) -> Actor:
        """The request's actor. A secret in the header is looked up once here; an invalid one
        counts against the source address (see :func:`link_gate`)."""
        user = request.user if request.user.is_authenticated else None
        token = secret_from(request.headers.get(LINK_HEADER) or "") or None
        ip = client_ip(request)
        token_link = None
        if token is not None:
            link_gate(request)
            key = key_find(secret=token)
            if key is None:
                bad_secret_note(ip)
            else:
                token_link = key_link(key)
        session = getattr(request, "session", None)
        return cls(
            user=user,
            token=token,
            key_ids=tuple(session_keys(session).values()),
            ip=ip,
            user_agent=(request.headers.get("User-Agent") or "")[:300],
            token_link=token_link,
            token_checked=token is not None,
        )

    def links_for(self, match: Match) -> list[MatchLink]:
        """The valid links this actor holds for ``match`` (header secret and seat sessions)."""
        key_ids = list(self.key_ids)
        secret = self.token
        if self.token_checked:
            secret = None
            if self.token_link is not None:
                key_ids.append(self.token_link.key_id)
        return keys_for(match=match, secret=secret, key_ids=key_ids)


@dataclass(frozen=True, slots=True)
class Access:
    """How an actor stands at one match."""

    director: bool = False
    identities: tuple[int, ...] = ()
    table_link: bool = False
    players: dict[int, Player] = field(default_factory=dict)

    @property
    def positions(self) -> tuple[int, ...]:
        """The seats the actor is (kept under its old name for the pages)."""
        return self.identities

    @property
    def can_view(self) -> bool:
        return self.director or bool(self.identities) or self.table_link

    @property
    def is_player(self) -> bool:
        return bool(self.identities) or self.table_link

    @property
    def neutral_director(self) -> bool:
        """A director who is not a player at this match (may settle: confirm, override)."""
        return self.director and not self.identities

    @property
    def speaks_for_table(self) -> bool:
        """The shared phone: a table link held by someone with no seat of their own here."""
        return self.table_link and not self.identities

    def acting_position(self, declared: int | None) -> int | None:
        """The seat the actor acts as: their own, or the one a table-link holder declares.

        A signed-in player or a seat link acts as their own seat only; the table link (a shared
        phone at the table) must say which player is acting. An actor who is two players at
        once (an account seat and another seat's link) must say which, and is judged as both.
        """
        if declared is not None:
            if declared not in self.players:
                raise ApplicationError(
                    _("There is no player at seat %(seat)s.") % {"seat": declared},
                    field="as_position",
                )
            if declared in self.identities or self.speaks_for_table:
                return declared
            raise ApplicationError(
                _("You cannot act as another player at this table."),
                status=403,
                field="as_position",
            )
        if len(self.identities) == 1:
            return self.identities[0]
        return None


def match_access(*, actor: Actor, match: Match) -> Access:
    """The actor's standing at ``match`` (uses the prefetched seats when there are some)."""
    seats = list(match.seats.all())
    players = {s.position: s.player for s in seats}
    director = actor.user is not None and organiser().user_can_manage_event(
        user=actor.user, event=match.event
    )
    identities: set[int] = set()
    if actor.user is not None:
        identities |= {s.position for s in seats if s.player.user_id == actor.user.pk}
    table_link = False
    for link in actor.links_for(match):
        if link.position is None:
            table_link = True
        elif link.position in players:
            identities.add(link.position)
    return Access(
        director=director,
        identities=tuple(sorted(identities)),
        table_link=table_link,
        players=players,
    )


def match_access_require(*, actor: Actor, match: Match) -> Access:
    """The actor's access, or a 404 for anyone who may not see the match (it is not revealed)."""
    access = match_access(actor=actor, match=match)
    if not access.can_view:
        raise ApplicationError(_("Not found."), status=404)
    return access
