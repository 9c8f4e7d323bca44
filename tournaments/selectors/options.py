"""Event options and tie-break orders: an event's effective options (each option is declared
once, in :mod:`tournaments.options`) and the tie-breaks it ranks by.
"""

from __future__ import annotations

from typing import Any

from competition.tiebreaks import TieBreak
from tournaments.models import Event
from tournaments.options import OPTIONS_BY_NAME, EventOptions, option_read, options_read

DEFAULT_TIEBREAKS: dict[str, tuple[str, ...]] = {
    Event.Kind.SWISS: (
        "buchholz_cut1",
        "buchholz",
        "sonneborn_berger",
        "game_points",
        "lots",
    ),
    Event.Kind.CLUB_NIGHT: ("game_points", "lots"),
    Event.Kind.LEAGUE: ("game_points", "lots"),
    Event.Kind.ROUND_ROBIN: ("head_to_head", "sonneborn_berger", "game_points", "lots"),
    Event.Kind.SINGLE_ELIMINATION: ("game_points", "lots"),
    Event.Kind.DOUBLE_ELIMINATION: ("game_points", "lots"),
}
"""Tie-breaks after match points, per kind (match points always come first)."""

TIEBREAK_CHOICES = ("match_points", *(tb.value for tb in TieBreak))


def event_options(*, event: Event) -> EventOptions:
    """Every option of ``event``: its own value, else the kind's default, else the global one."""
    return options_read(kind=event.kind, stored=event.options)


def event_option(*, event: Event, name: str) -> Any:
    """One option of ``event``, as :func:`event_options` reads it, without reading the others
    (the organiser asks for one on every entry). An unknown ``name`` is a ``KeyError``."""
    return option_read(option=OPTIONS_BY_NAME[name], kind=event.kind, stored=event.options)


def event_tiebreak_order(*, event: Event) -> tuple[TieBreak, ...]:
    """The event's tie-breaks after match points ("match_points" in the stored list is implied)."""
    names = event.tiebreaks or DEFAULT_TIEBREAKS[event.kind]
    return tuple(TieBreak(n) for n in names if n != "match_points")
