"""Writes for registrations: entering players (one, many, open play) and checking them in."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Player
from core.errors import ApplicationError
from core.parsing import strict_int
from scoring.models import Match
from tournaments.models import Event, Registration
from tournaments.selectors import event_option
from tournaments.selectors.lists import FIXED_DRAW_KINDS
from tournaments.selectors.terms import event_players_registered, event_round_id
from tournaments.services.results import event_results_bump
from tournaments.signals import registration_created


def last_round_number(event: Event) -> int:
    return event.rounds.aggregate(n=Max("number"))["n"] or 0


def registration_create(
    *,
    event: Event,
    player: Player,
    seed: int | None = None,
    requested_byes: Iterable[int] = (),
    checked_in: bool = False,
) -> Registration:
    """Register ``player``; once rounds exist this is a late entry joining at the next round.

    A late entry's missed rounds score the event's ``late_entry_points``. Round robins and
    brackets are drawn once, so they take no late entries. An event takes the players of its
    own club only (the club's list is where a guest is added first).
    """
    if player.club_id != event.club_id:
        raise ApplicationError(
            _(
                "%(player)s is not on %(club)s's player list; only the club's own players can "
                "enter its events."
            )
            % {"player": player.name, "club": event.club.name},
            field="player",
        )
    try:
        byes = sorted({strict_int(r) for r in requested_byes})
    except ValueError:
        raise ApplicationError(
            _("A requested bye names a round, counting from 1."), field="requested_byes"
        ) from None
    if any(r < 1 for r in byes):
        raise ApplicationError(
            _("A requested bye names a round, counting from 1."), field="requested_byes"
        )
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.status == Event.Status.FINISHED:
            raise ApplicationError(_("The event is finished."), status=409)
        last = last_round_number(event)
        if last and event.kind in FIXED_DRAW_KINDS:
            raise ApplicationError(
                _("This event's draw is made; it takes no late entries."), status=409
            )
        try:
            with transaction.atomic():
                registration = Registration.objects.create(
                    event=event,
                    player=player,
                    seed=seed,
                    requested_byes=byes,
                    joined_round=last + 1,
                    status=(
                        Registration.Status.CHECKED_IN
                        if checked_in
                        else Registration.Status.REGISTERED
                    ),
                )
        except IntegrityError as exc:
            raise ApplicationError(
                _("%(player)s is already registered.") % {"player": player.name},
                status=409,
                field="player",
            ) from exc
        # A new entrant is a new line of the standings (and, at a club night, their results
        # start to count): the standings are due again.
        event_results_bump(event=event)
        # Their pass (passes), issued in the same transaction.
        registration_created.send(sender=Registration, registration=registration)
    return registration


OPEN_PLAY_KINDS = (Event.Kind.CLUB_NIGHT, Event.Kind.LEAGUE)


def event_players_enter(*, event_id: int, players: Sequence[Player]) -> list[Registration]:
    """Register, checked in, the players of a match starting at a club night or league who are
    not registered yet, so that everybody who plays counts in the standings.

    Refused (400, nothing stored) when the director chose ``registered_only``: then only
    registered players may sit down. Other kinds pair registered players only; nothing to do.
    Returns the registrations created.
    """
    event = Event.objects.get(pk=event_id)
    if event.kind not in OPEN_PLAY_KINDS:
        return []
    registered = set(
        Registration.objects.filter(event=event, player__in=players).values_list(
            "player_id", flat=True
        )
    )
    missing = [p for p in players if p.pk not in registered]
    if not missing:
        return []
    if event_option(event=event, name="registered_only"):
        raise ApplicationError(
            ngettext(
                "%(players)s is not registered for this event, and only registered players "
                "may play here: register them first.",
                "%(players)s are not registered for this event, and only registered players "
                "may play here: register them first.",
                len(missing),
            )
            % {"players": ", ".join(p.name for p in missing)},
            field="players",
        )
    return [registration_create(event=event, player=p, checked_in=True) for p in missing]


def match_players_enter(
    *, match: Match, players: Sequence[Player], round_number: int | None
) -> None:
    """``players`` sit down at ``match``, a match of its event that scoring is about to store
    (not saved yet): the organiser's command behind ``Organiser.players_enter``.

    Refused (400, nothing stored) for a player who is neither of the event's club nor
    registered for it, then for a round the event does not have; files the match in round
    ``round_number`` (sets ``match.round_id``), then enters the players
    (:func:`event_players_enter`, which may refuse in its turn).
    """
    foreign = [p.pk for p in players if p.club_id != match.event.club_id]
    registered = event_players_registered(event_id=match.event_id, player_ids=foreign)
    for pid in foreign:
        if pid not in registered:
            raise ApplicationError(
                _("Player %(id)s is not a player of this event's club.") % {"id": pid},
                field="players",
            )
    if round_number is not None:
        round_id = event_round_id(event_id=match.event_id, number=round_number)
        if round_id is None:
            raise ApplicationError(_("There is no such round."), field="round")
        match.round_id = round_id
    event_players_enter(event_id=match.event_id, players=players)


def registrations_create_many(
    *, event: Event, players: Iterable[Player], checked_in: bool = False
) -> list[Registration]:
    """Register several players at once (the event page's checklist): all of them or none.

    Each player goes through ``registration_create``, so the same rules hold for each (the
    club's own players only, no late entry into a drawn event, a late entry joins at the next
    round), in one transaction. An error names the player it is about.
    """
    chosen: list[Player] = []
    seen: set[int] = set()
    for player in players:
        if player.pk not in seen:
            seen.add(player.pk)
            chosen.append(player)
    if not chosen:
        raise ApplicationError(_("Choose at least one player."), field="players")
    registrations = []
    with transaction.atomic():
        for player in chosen:
            try:
                registrations.append(
                    registration_create(event=event, player=player, checked_in=checked_in)
                )
            except ApplicationError as exc:
                message = exc.message
                if player.name not in message:
                    message = _("%(player)s: %(reason)s") % {
                        "player": player.name,
                        "reason": message,
                    }
                raise ApplicationError(
                    message, status=exc.status, field="players", extra={"player": player.pk}
                ) from exc
    return registrations


def registrations_checkin_all(*, event: Event) -> list[Registration]:
    """Check in every player who registered and has not checked in (dropped players stay out)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.status == Event.Status.FINISHED:
            raise ApplicationError(_("The event is finished."), status=409)
        waiting = list(
            Registration.objects.select_related("event", "player").filter(
                event=event, status=Registration.Status.REGISTERED
            )
        )
        return [registration_checkin(registration=r) for r in waiting]


def registration_checkin(*, registration: Registration) -> Registration:
    """Check a player in (a director's list or the player's own link); twice is harmless."""
    if registration.status == Registration.Status.DROPPED:
        raise ApplicationError(_("A player who dropped out cannot check in again."), status=409)
    if registration.event.status == Event.Status.FINISHED:
        raise ApplicationError(_("The event is finished."), status=409)
    with transaction.atomic():
        changed = (
            Registration.objects.filter(pk=registration.pk)
            .exclude(status=Registration.Status.CHECKED_IN)
            .update(status=Registration.Status.CHECKED_IN)
        )
        if changed:
            # The standings list who is present: they are due again.
            event_results_bump(event=registration.event)
    registration.refresh_from_db(fields=["status"])
    return registration


def registration_checkin_by_token(*, token: str) -> Registration:
    """The player's own check-in link: the secret token is the only credential."""
    registration = (
        Registration.objects.select_related("event", "player").filter(checkin_token=token).first()
    )
    if registration is None:
        raise ApplicationError(_("This check-in link is not valid."), status=404)
    return registration_checkin(registration=registration)
