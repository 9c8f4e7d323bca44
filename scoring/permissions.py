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
from clubs.permissions import event_directors_q
from core.errors import ApplicationError
from core.net import client_ip
from scoring.links import (
    LINK_HEADER,
    LinkRefused,
    MatchLink,
    key_link,
    key_open,
    keys_for,
    secret_from,
    session_keys,
)
from scoring.models import Credential, Match

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def link_refused_error(refused: LinkRefused) -> ApplicationError:
    """What an invalid link secret answers: 404, or 429 with ``Retry-After`` past the limit."""
    if refused.status == 429:
        minutes = max(1, round((refused.retry_after or 60) / 60))
        return ApplicationError(
            _(
                "Too many invalid links from this address: wait %(minutes)s minutes and try "
                "again. A valid link still opens at once."
            )
            % {"minutes": minutes},
            status=429,
            retry_after=refused.retry_after,
        )
    return ApplicationError(
        _("This link is not valid: it was replaced or never existed."), status=404
    )


def no_seat_message(position: int) -> str:
    """What a person reads when a request names a position no player sits at: the seat as the
    pages number it (from 1) and the position as the API does (from 0)."""
    return _(
        "There is no seat %(seat)s at this table (position %(position)s: positions count from 0)."
    ) % {"seat": position + 1, "position": position}


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
    # Signed in with an API token (DRF's ``request.auth`` set) rather than a session.
    via_token: bool = False

    @classmethod
    def from_request(cls, request: HttpRequest) -> Actor:
        """The request's actor. A secret in the header is looked up once here; an invalid one
        counts against the client's address (:func:`scoring.links.key_open`)."""
        user = request.user if request.user.is_authenticated else None
        token = secret_from(request.headers.get(LINK_HEADER) or "") or None
        ip = client_ip(request)
        token_link = None
        if token is not None:
            try:
                token_link = key_link(key_open(secret=token, ip=ip))
            except LinkRefused as refused:
                if refused.status == 429:
                    raise link_refused_error(refused) from None
        session = getattr(request, "session", None)
        return cls(
            user=user,
            token=token,
            key_ids=tuple(session_keys(session).values()),
            ip=ip,
            user_agent=(request.headers.get("User-Agent") or "")[:300],
            token_link=token_link,
            token_checked=token is not None,
            via_token=user is not None and getattr(request, "auth", None) is not None,
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

    @property
    def account_via(self) -> str | None:
        """How the signed-in account came (a session or an API token); None: nobody signed in."""
        if self.user is None:
            return None
        return Credential.TOKEN if self.via_token else Credential.SESSION


@dataclass(frozen=True, slots=True)
class ActedBy:
    """The credential an act was made with: a :class:`~scoring.models.Credential` and, for a
    link, its key's id (what ``*_via`` and ``*_via_key`` record)."""

    kind: str
    key_id: int | None = None


@dataclass(frozen=True, slots=True)
class Access:
    """How an actor stands at one match."""

    director: bool = False
    identities: tuple[int, ...] = ()
    table_link: bool = False
    players: dict[int, Player] = field(default_factory=dict)
    # What each standing rests on: the seats held through the signed-in account, the key of
    # each link held (by seat; None is the table link), and how the account came.
    account_seats: tuple[int, ...] = ()
    link_keys: dict[int | None, int] = field(default_factory=dict)
    account_via: str | None = None

    @property
    def positions(self) -> tuple[int, ...]:
        """The seats the actor is (kept under its old name for the pages)."""
        return self.identities

    @property
    def can_view(self) -> bool:
        return self.director or bool(self.identities) or self.table_link

    @property
    def sees_pending(self) -> bool:
        """Who may read what of a match, pages and API alike (docs/security.md): its score sheet
        (confirmed hands, totals, results, running or final) is anyone's; what is not yet
        agreed (the entry waiting for confirmation, a dispute) only its players' (an account,
        a seat or table link) and its event's directors'."""
        return self.can_view

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
                    no_seat_message(declared),
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

    def acted_by(self, position: int | None) -> ActedBy:
        """The credential that lets this actor act as seat ``position`` (None: as a director).

        The account comes first (a player signed in who also holds their seat's link acted as
        their account), then the seat's own link; a seat the actor only speaks for was reached
        through the table link.
        """
        if (position is None or position in self.account_seats) and self.account_via:
            return ActedBy(self.account_via)
        if position is not None and position in self.link_keys:
            return ActedBy(Credential.SEAT_LINK, self.link_keys[position])
        if None in self.link_keys:
            return ActedBy(Credential.TABLE_LINK, self.link_keys[None])
        return ActedBy(self.account_via or "")  # no credential found: recorded as unknown


def _directs(*, user: User | None, match: Match) -> bool:
    """Whether ``user`` directs ``match``'s event, by the one rule (``clubs.permissions``) asked
    of the match row: one query, none for an anonymous user (the rule's filter is empty)."""
    return Match.objects.filter(event_directors_q(user=user, event="event__"), pk=match.pk).exists()


def match_access(*, actor: Actor, match: Match) -> Access:
    """The actor's standing at ``match`` (uses the prefetched seats when there are some)."""
    seats = list(match.seats.all())
    players = {s.position: s.player for s in seats}
    director = _directs(user=actor.user, match=match)
    identities: set[int] = set()
    if actor.user is not None:
        identities |= {s.position for s in seats if s.player.user_id == actor.user.pk}
    account_seats = tuple(sorted(identities))
    table_link = False
    link_keys: dict[int | None, int] = {}
    for link in actor.links_for(match):
        if link.position is None:
            table_link = True
            link_keys[None] = link.key_id
        elif link.position in players:
            identities.add(link.position)
            link_keys[link.position] = link.key_id
    return Access(
        director=director,
        identities=tuple(sorted(identities)),
        table_link=table_link,
        players=players,
        account_seats=account_seats,
        link_keys=link_keys,
        account_via=actor.account_via,
    )


def match_access_require(*, actor: Actor, match: Match) -> Access:
    """The actor's access, or a 404 for anyone who may not see the match (it is not revealed)."""
    access = match_access(actor=actor, match=match)
    if not access.can_view:
        raise ApplicationError(_("Not found."), status=404)
    return access
