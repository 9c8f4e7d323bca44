"""Writes for events: create and finish, their settings checked; forbidden pairings.

Registrations (entering players, check-in) are in :mod:`tournaments.services.registrations`;
their writes are importable from here too, as before.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Player
from core.errors import ApplicationError
from core.i18n import engine_message
from core.names import name_clean
from core.parsing import strict_int
from engine.errors import EngineError
from engine.game import MatchFormat
from engine.rules import RuleSet, find_rules
from tournaments.models import ELIMINATION_KINDS, ROUND_KINDS, Event, ForbiddenPairing
from tournaments.options import OptionError, options_clean
from tournaments.selectors import TIEBREAK_CHOICES
from tournaments.services.registrations import (
    OPEN_PLAY_KINDS,
    event_players_enter,
    registration_checkin,
    registration_checkin_by_token,
    registration_create,
    registrations_checkin_all,
    registrations_create_many,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

__all__ = [
    "ELIMINATION_KINDS",
    "OPEN_PLAY_KINDS",
    "ROUND_KINDS",
    "event_create",
    "event_finish",
    "event_players_enter",
    "forbidden_pairing_create",
    "registration_checkin",
    "registration_checkin_by_token",
    "registration_create",
    "registrations_checkin_all",
    "registrations_create_many",
]


def checked_rules(rules: str | Mapping[str, Any]) -> dict[str, Any]:
    try:
        if isinstance(rules, str):
            return find_rules(rules).to_dict()
        return RuleSet.from_dict(rules).to_dict()
    except EngineError as exc:
        raise ApplicationError(engine_message(exc), field="rules") from exc


def checked_match_format(match_format: Mapping[str, Any] | None) -> dict[str, Any]:
    data = dict(match_format or {"kind": "single_game"})
    try:
        MatchFormat(
            kind=str(data.get("kind", "single_game")),
            games=strict_int(data.get("games", 1)),
            hands=None if data.get("hands") is None else strict_int(data["hands"]),
        )
    except EngineError as exc:
        raise ApplicationError(engine_message(exc), field="match_format") from exc
    except (TypeError, ValueError) as exc:  # int() of a non-number: its text is Python's English
        raise ApplicationError(
            _("A match format's games and hands are whole numbers."), field="match_format"
        ) from exc
    return data


def checked_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """``options`` as they are stored, checked against their one declaration
    (:mod:`tournaments.options`); a fault is a 400 naming the option."""
    try:
        return options_clean(options)
    except OptionError as exc:
        raise ApplicationError(exc.message, field="options") from exc


def checked_tiebreaks(tiebreaks: Sequence[str] | None) -> list[str]:
    names = list(tiebreaks or [])
    bad = [n for n in names if n not in TIEBREAK_CHOICES]
    if bad:
        raise ApplicationError(
            _("Unknown tie-break(s): %(names)s. Choose from %(choices)s.")
            % {"names": ", ".join(bad), "choices": ", ".join(TIEBREAK_CHOICES)},
            field="tiebreaks",
        )
    if len(set(names)) != len(names):
        raise ApplicationError(_("A tie-break is listed twice."), field="tiebreaks")
    if names and names[0] != "match_points" and "match_points" in names:
        raise ApplicationError(_("Match points always come first."), field="tiebreaks")
    return names


def event_create(
    *,
    club_id: int,
    name: str,
    kind: str,
    rules: str | Mapping[str, Any] = "standard",
    match_format: Mapping[str, Any] | None = None,
    confirmation: str = Event.Confirmation.OPPONENT,
    rounds_planned: int | None = None,
    options: Mapping[str, Any] | None = None,
    tiebreaks: Sequence[str] | None = None,
    league: Event | None = None,
    starts_on: date | None = None,
    user: User | None = None,
) -> Event:
    """Create an event of one kind under a rule set and match format fixed now.

    The lots seed is drawn once here and stored, so the final tie-break is the same on every
    rebuild. Whoever creates the event directs it. A league still taking registrations is
    running once an event of it exists (it is not "upcoming" with its nights played).
    """
    if kind not in Event.Kind.values:
        raise ApplicationError(
            _("Unknown kind of event %(kind)s: choose one of %(choices)s.")
            % {"kind": kind, "choices": ", ".join(Event.Kind.values)},
            field="kind",
        )
    if confirmation not in Event.Confirmation.values:
        raise ApplicationError(
            _("Unknown confirmation policy %(policy)s: choose one of %(choices)s.")
            % {"policy": confirmation, "choices": ", ".join(Event.Confirmation.values)},
            field="confirmation",
        )
    name = name_clean(name, empty_message=_("An event needs a name."))
    if rounds_planned is not None and rounds_planned < 1:
        raise ApplicationError(
            _("Plan at least one round (rounds_planned)."), field="rounds_planned"
        )
    if league is not None and (league.kind != Event.Kind.LEAGUE or league.club_id != club_id):
        raise ApplicationError(
            _("An event can belong only to a league of its own club."), field="league"
        )
    if kind == Event.Kind.LEAGUE and league is not None:
        raise ApplicationError(_("A league cannot belong to another league."), field="league")
    with transaction.atomic():
        event = Event.objects.create(
            club_id=club_id,
            name=name,
            kind=kind,
            rules=checked_rules(rules),
            match_format=checked_match_format(match_format),
            confirmation=confirmation,
            rounds_planned=rounds_planned,
            options=checked_options(options),
            tiebreaks=checked_tiebreaks(tiebreaks),
            league=league,
            starts_on=starts_on,
            lots_seed=secrets.randbits(62),
            status=(
                Event.Status.RUNNING if kind == Event.Kind.CLUB_NIGHT else Event.Status.REGISTRATION
            ),
        )
        if user is not None:
            event.directors.add(user)
        if league is not None:
            Event.objects.filter(pk=league.pk, status=Event.Status.REGISTRATION).update(
                status=Event.Status.RUNNING
            )
            league.refresh_from_db(fields=["status"])
    return event


def event_finish(*, event: Event) -> Event:
    """Close an event: no more rounds, registrations or drops."""
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db(fields=["status"])
    return event


def forbidden_pairing_create(
    *, event: Event, player_a: Player, player_b: Player, hard: bool = True
) -> ForbiddenPairing:
    """Keep two players apart in this event: never (``hard``) or only if nothing else works."""
    if player_a.pk == player_b.pk:
        raise ApplicationError(
            _("A forbidden pairing names two different players."), field="player_b"
        )
    for field, player in (("player_a", player_a), ("player_b", player_b)):
        if player.club_id != event.club_id:
            raise ApplicationError(
                _(
                    "%(player)s is not on %(club)s's player list; only the club's own players "
                    "can enter its events."
                )
                % {"player": player.name, "club": event.club.name},
                field=field,
            )
    a, b = sorted((player_a, player_b), key=lambda p: p.pk)
    pairing, _created = ForbiddenPairing.objects.update_or_create(
        event=event, player_a=a, player_b=b, defaults={"hard": hard}
    )
    return pairing
