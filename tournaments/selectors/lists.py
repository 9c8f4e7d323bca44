"""Lists for the API and the pages: clubs with their events counted, events, rounds, matches,
forbidden pairings, registrations and a player's matches.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, Prefetch, QuerySet
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from clubs.selectors import club_list, player_list
from core.errors import ApplicationError
from scoring.models import Hand, Match, Seat
from tournaments.models import Event, ForbiddenPairing, Registration, Round


def seats_with_players(through: str = "") -> Prefetch:
    """Prefetch a match's seats with their players in one joined query.

    ``prefetch_related("seats__player")`` fetches the players in a query of its own, whose
    ``IN`` Django 5.2 writes on SQLite as one ``OR`` term per player: at a 50-table club night
    compiling it was a tenth of drawing the event's live regions (docs/live.md).
    """
    return Prefetch(f"{through}seats", queryset=Seat.objects.select_related("player"))


def club_feed_list() -> QuerySet[Club]:
    """The clubs of the home feed and the club list page, each with its ``player_count`` and
    ``event_count``."""
    return club_list().annotate(event_count=Count("events", distinct=True))


def event_list(*, club_id: int | None = None, kind: str | None = None) -> QuerySet[Event]:
    qs = Event.objects.select_related("club").annotate(
        registration_count=Count("registrations", distinct=True)
    )
    if club_id:
        qs = qs.filter(club_id=club_id)
    if kind:
        qs = qs.filter(kind=kind)
    return qs.order_by(F("starts_on").desc(nulls_last=True), "-id")


def event_rounds(*, event: Event) -> QuerySet[Round]:
    return Round.objects.filter(event=event).order_by("number")


def event_round(*, event: Event, number: int) -> Round:
    """Round ``number`` of ``event``; a 404 ``ApplicationError`` if it has not been paired."""
    rnd = Round.objects.filter(event=event, number=number).first()
    if rnd is None:
        raise ApplicationError(
            _("Round %(number)s of this event has not been paired.") % {"number": number},
            status=404,
        )
    return rnd


def round_matches(*, rnd: Round) -> list[Match]:
    return list(
        Match.objects.filter(round=rnd)
        .prefetch_related(seats_with_players())
        .order_by(F("table_number").asc(nulls_last=True), "id")
    )


def event_matches(*, event: Event, open_only: bool = False) -> QuerySet[Match]:
    """The event's matches with their seated players: the ones still being played first, then
    newest first (a club night's tables); only those without a final result if ``open_only``."""
    qs = Match.objects.filter(event=event)
    if open_only:
        qs = qs.exclude(status=Match.Status.FINISHED)
    return qs.prefetch_related(seats_with_players()).order_by("status", "-created_at", "-id")


def event_forbidden_pairings(*, event: Event) -> QuerySet[ForbiddenPairing]:
    """The pairs of players this event keeps apart, with both players."""
    return (
        ForbiddenPairing.objects.filter(event=event)
        .select_related("player_a", "player_b")
        .order_by("player_a__name", "player_b__name")
    )


def event_active_players(*, event: Event) -> QuerySet[Player]:
    """Who can be seated at the event now: its registered players who have not dropped (at a
    club night nobody registered for, any player of the club)."""
    registered = Registration.objects.filter(event=event)
    if event.kind == Event.Kind.CLUB_NIGHT and not registered.exists():
        return player_list(club_id=event.club_id)
    active = registered.exclude(status=Registration.Status.DROPPED)
    return Player.objects.filter(pk__in=active.values("player_id")).order_by("name")


def event_present_players(*, event: Event) -> QuerySet[Player]:
    """Who is in the room: the event's players registered and checked in (a club night's seat
    menus offer these, not the whole club)."""
    present = Registration.objects.filter(event=event, status=Registration.Status.CHECKED_IN)
    return Player.objects.filter(pk__in=present.values("player_id")).order_by("name")


@dataclass(frozen=True, slots=True)
class PlayerMatch:
    """One of a player's matches as their page lists it."""

    match: Match
    opponents: tuple[Player, ...]
    partners: tuple[Player, ...]
    result: str  # "playing", "won", "lost", "draw" or "forfeit"
    margin: int | None = None  # the points won (+) or lost (-) by, one game against one side
    games: tuple[int, int] | None = None  # games won by the player's side and the other's


def _margin_and_games(
    m: Match, result: str, position: int
) -> tuple[int | None, tuple[int, int] | None]:
    """What the player's page shows beside a result: the margin of a one-game match, or the
    games each side won in a longer one (read from the stored summary)."""
    if result not in ("won", "lost") or m.decision != Match.Decision.PLAYED:
        return None, None
    summary = m.summary or {}
    margins = [int(x or 0) for x in summary.get("margins") or []]
    won = [int(x or 0) for x in summary.get("games_won") or []]
    if len(margins) == 1:
        return (margins[0] if result == "won" else -margins[0]), None
    if len(won) == 2 and 0 <= position < 2:
        return None, (won[position], won[1 - position])
    return None, None


def player_matches(*, player: Player, limit: int = 100) -> list[PlayerMatch]:
    """A player's matches, newest first, with opponents, partners and the player's result.

    A partnership is won by a team: the player won when their seat's team is the winning one.
    """
    seats = list(
        Seat.objects.filter(player=player)
        .select_related("match__event", "match__winner", "match__round")
        .prefetch_related(seats_with_players("match__"))
        .order_by("-match__created_at", "-match_id")[:limit]
    )
    out = []
    for seat in seats:
        m = seat.match
        others = [s for s in m.seats.all() if s.player_id != player.pk]
        same_side = [s for s in others if seat.team is not None and s.team == seat.team]
        if m.status != Match.Status.FINISHED:
            result = "playing"
        elif m.winner_team is not None:
            result = "won" if seat.team == m.winner_team else "lost"
        elif m.winner_id is None:
            result = "forfeit" if m.decision == Match.Decision.FORFEIT else "draw"
        else:
            result = "won" if m.winner_id == player.pk else "lost"
        side = seat.team if seat.team is not None else seat.position
        margin, games = _margin_and_games(m, result, side)
        out.append(
            PlayerMatch(
                match=m,
                opponents=tuple(s.player for s in others if s not in same_side),
                partners=tuple(s.player for s in same_side),
                result=result,
                margin=margin,
                games=games,
            )
        )
    return out


FIXED_DRAW_KINDS = (
    Event.Kind.ROUND_ROBIN,
    Event.Kind.SINGLE_ELIMINATION,
    Event.Kind.DOUBLE_ELIMINATION,
)
"""Kinds whose draw is made once, so they take no late entries."""


def event_takes_entries(*, event: Event) -> bool:
    """Whether players can still be registered: not once the event is finished, nor once a
    round robin's or a bracket's draw is made (its first round exists)."""
    if event.status == Event.Status.FINISHED:
        return False
    return event.kind not in FIXED_DRAW_KINDS or not event.rounds.exists()


def round_has_results(*, rnd: Round) -> bool:
    """Whether any result of the round exists (a hand recorded, a match decided other than by
    the pairing's byes): such a round can no longer be re-paired."""
    return (
        Hand.objects.filter(game__match__round=rnd).exists()
        or Match.objects.filter(round=rnd, status=Match.Status.FINISHED)
        .exclude(decision=Match.Decision.BYE)
        .exists()
    )


def registration_list(*, event: Event) -> QuerySet[Registration]:
    return (
        Registration.objects.filter(event=event)
        .select_related("player")
        .order_by(F("seed").asc(nulls_last=True), "id")
    )
