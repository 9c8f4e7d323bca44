"""Writes behind the event director pages: pasting players into an event, an event's settings.

Creating an event is ``events.event_create``; this module changes what it made (a club, its
players and roles are changed by ``clubs.services``). Event settings are checked by the same
validators as ``event_create``; rules and match format are fixed once the event's first match
exists, because a match copies them when it starts (see ``scoring.models.Match.rules``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Player
from clubs.services.players import player_create, player_names_clean
from core.errors import ApplicationError
from core.names import name_clean
from engine.rules import RuleSet
from scoring.models import Match
from tournaments.models import Event, Registration
from tournaments.services.events import (
    checked_match_format,
    checked_options,
    checked_rules,
    checked_tiebreaks,
    registrations_create_many,
)
from tournaments.services.results import event_results_bump


def event_players_paste(
    *, event: Event, names: Iterable[str], checked_in: bool = False
) -> tuple[list[Registration], list[str]]:
    """Register a pasted list of names for the event: a name the club does not have yet becomes
    a new club player; a name already registered is skipped and returned. All or nothing.
    """
    wanted = player_names_clean(names)
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
        rules = checked_rules(rules)
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
    new_format = checked_match_format(match_format)
    new_options = checked_options(options)
    new_tiebreaks = checked_tiebreaks(tiebreaks)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        new_rules = checked_rules(rules if "name" in rules else {**event.rules, **rules})
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
