"""Writes behind the director pages: a club, its deck map, roles and players, an event's settings.

Creating things is ``clubs.club_create``, ``clubs.player_create`` and ``events.event_create``; this
module changes what they made. Event settings are checked by the same validators as
``event_create``; rules and match format are fixed once the event's first match exists, because a
match copies them when it starts (see ``scoring.models.Match.rules``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.models import Club, ClubRole, Player
from core.errors import ApplicationError
from core.i18n import engine_message
from core.names import name_clean
from engine.errors import EngineError
from engine.gem import DeckMap
from engine.rules import RuleSet
from scoring.models import Match
from tournaments.models import Event, Registration
from tournaments.services.clubs import club_fields_check, player_create
from tournaments.services.events import (
    _match_format,
    _options,
    _rules,
    _tiebreaks,
    registrations_create_many,
)
from tournaments.services.results import event_results_bump


def club_update(
    *, club: Club, name: str, slug: str, description: str, rating_period_days: int
) -> Club:
    """Change a club's details; the slug (its address) stays unique."""
    with transaction.atomic():
        name, slug = club_fields_check(
            name=name, slug=slug, rating_period_days=rating_period_days, club=club
        )
        club.name, club.slug, club.description = name, slug, description
        club.rating_period_days = rating_period_days
        club.save(update_fields=["name", "slug", "description", "rating_period_days"])
    return club


def club_gem_deck_map_set(*, club: Club, mapping: Mapping[str, Any]) -> Club:
    """Store the club's Gem Rummy deck map after the engine has checked it (empty clears it).

    It is stored as given to :meth:`engine.gem.DeckMap.from_mapping` (card notation to a gem,
    a king to a list of two), so scoring reads it back with that one call.
    """
    data = dict(mapping)
    if data:
        try:
            DeckMap.from_mapping(data)
        except EngineError as exc:
            raise ApplicationError(engine_message(exc), field="gem_deck_map") from exc
    Club.objects.filter(pk=club.pk).update(gem_deck_map=data)
    club.gem_deck_map = data
    return club


def club_role_revoke(*, club: Club, user: User, role: str) -> None:
    """Take a role away; a club always keeps at least one admin."""
    with transaction.atomic():
        roles = ClubRole.objects.select_for_update().filter(club=club)
        if role == ClubRole.Role.ADMIN:
            admins = [r.user_id for r in roles if r.role == ClubRole.Role.ADMIN]
            if admins == [user.pk]:
                raise ApplicationError(
                    _("A club keeps at least one admin."), status=409, field="role"
                )
        roles.filter(user=user, role=role).delete()


def players_create_many(
    *, club: Club, names: Iterable[str], is_guest: bool = False
) -> tuple[list[Player], list[str]]:
    """Add a pasted list of players; names the club already has are skipped and returned.

    All or nothing: either every new name is added or none is.
    """
    wanted = _pasted(names)
    existing = {
        n.casefold() for n in Player.objects.filter(club=club).values_list("name", flat=True)
    }
    skipped = [n for n in wanted if n.casefold() in existing]
    with transaction.atomic():
        created = [
            player_create(club=club, name=n, is_guest=is_guest)
            for n in wanted
            if n.casefold() not in existing
        ]
    return created, skipped


def _pasted(names: Iterable[str]) -> list[str]:
    """The pasted names, trimmed, without blanks and repeats (compared case-insensitively)."""
    wanted: list[str] = []
    seen: set[str] = set()
    for raw in names:
        if not raw.strip():
            continue
        name = name_clean(raw, empty_message=_("Paste at least one name."), field="names")
        if name.casefold() not in seen:
            seen.add(name.casefold())
            wanted.append(name)
    if not wanted:
        raise ApplicationError(_("Paste at least one name."), field="names")
    return wanted


def event_players_paste(
    *, event: Event, names: Iterable[str], checked_in: bool = False
) -> tuple[list[Registration], list[str]]:
    """Register a pasted list of names for the event: a name the club does not have yet becomes
    a new club player; a name already registered is skipped and returned. All or nothing.
    """
    wanted = _pasted(names)
    with transaction.atomic():
        club_players = {p.name.casefold(): p for p in Player.objects.filter(club=event.club)}
        players = [
            club_players.get(n.casefold()) or player_create(club=event.club, name=n) for n in wanted
        ]
        registered = set(
            Registration.objects.filter(event=event).values_list("player_id", flat=True)
        )
        fresh = [p for p in players if p.pk not in registered]
        skipped = [p.name for p in players if p.pk in registered]
        done = (
            registrations_create_many(event=event, players=fresh, checked_in=checked_in)
            if fresh
            else []
        )
    return done, skipped


def player_update(*, player: Player, name: str, is_guest: bool, family: str = "") -> Player:
    """Rename a player (or change the guest flag or family); names stay unique in the club."""
    name = name_clean(name, empty_message=_("A player needs a name."))
    player.name, player.is_guest, player.family = name, is_guest, family.strip()
    try:
        with transaction.atomic():
            player.save(update_fields=["name", "is_guest", "family"])
    except IntegrityError as exc:
        raise ApplicationError(
            _("%(club)s already has a player called %(name)s.")
            % {"club": player.club.name, "name": name},
            status=409,
            field="name",
        ) from exc
    return player


def event_has_matches(*, event: Event) -> bool:
    """True once any match of the event exists (it has copied the rules and format)."""
    return Match.objects.filter(event=event).exists()


def event_update(
    *,
    event: Event,
    name: str,
    starts_on: date | None,
    rules: str | Mapping[str, Any],
    match_format: Mapping[str, Any] | None,
    confirmation: str,
    rounds_planned: int | None,
    tiebreaks: Sequence[str] | None,
    options: Mapping[str, Any] | None,
) -> Event:
    """Change an event's settings.

    ``rules`` as a string is a preset's name: that preset, whole. ``rules`` with a ``name`` is
    a whole rule set: the preset it names with the parameters given changed, as at creation (a
    stored rule set names its preset, so it comes back as it is).
    ``rules`` without a ``name`` is a change: the given parameters over the event's current
    rules, so ``{"target": 200}`` keeps everything else as it was.

    The rules and match format cannot change once a match exists: matches keep the rules they
    started with, so a change would leave one event playing under two rule sets. Tie-breaks and
    options that change after results exist make the standings rebuild.
    """
    if isinstance(rules, str):
        rules = _rules(rules)
    if event.status == Event.Status.FINISHED:
        raise ApplicationError(
            _("The event is finished; its settings can no longer change."), status=409
        )
    name = name_clean(name, empty_message=_("An event needs a name."))
    if confirmation not in Event.Confirmation.values:
        raise ApplicationError(
            _("Unknown confirmation policy %(policy)s: choose one of %(choices)s.")
            % {"policy": confirmation, "choices": ", ".join(Event.Confirmation.values)},
            field="confirmation",
        )
    if rounds_planned is not None and rounds_planned < 1:
        raise ApplicationError(
            _("Plan at least one round (rounds_planned)."), field="rounds_planned"
        )
    new_format = _match_format(match_format)
    new_options = _options(options)
    new_tiebreaks = _tiebreaks(tiebreaks)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        new_rules = _rules(rules if "name" in rules else {**event.rules, **rules})
        rules_changed = RuleSet.from_dict(new_rules) != RuleSet.from_dict(event.rules)
        format_changed = new_format != (event.match_format or {"kind": "single_game"})
        if (rules_changed or format_changed) and event_has_matches(event=event):
            raise ApplicationError(
                _(
                    "Play has started: the rules and match format are fixed (matches keep the "
                    "rules they started with)."
                ),
                status=409,
                field="rules" if rules_changed else "match_format",
            )
        standings_changed = new_options != (event.options or {}) or new_tiebreaks != (
            event.tiebreaks or []
        )
        event.name = name
        event.starts_on = starts_on
        event.rules = new_rules
        event.match_format = new_format
        event.confirmation = confirmation
        event.rounds_planned = rounds_planned
        event.options = new_options
        event.tiebreaks = new_tiebreaks
        event.save(
            update_fields=[
                "name",
                "starts_on",
                "rules",
                "match_format",
                "confirmation",
                "rounds_planned",
                "options",
                "tiebreaks",
            ]
        )
        if standings_changed and (event.results_seq or event_has_matches(event=event)):
            event_results_bump(event=event)
    return event
