"""Event options and tie-break orders: every option's default (global and per kind) and how an
event's own value overrides it.
"""

from __future__ import annotations

from typing import Any

from competition.tiebreaks import TieBreak
from tournaments.models import Event

OPTION_DEFAULTS: dict[str, Any] = {
    "win_points": 1,
    "bye_points": 1,
    "requested_bye_points": 0,
    "late_entry_points": 0,
    "pair_by": "rating",  # or "seed": how round 1 and each score group are ordered
    "forbid_same_club": "allow",  # "allow" | "soft" | "hard"
    "forbid_family": "allow",  # "allow" | "soft" | "hard"
    "avoid_same_table": False,
    "double_round_robin": False,
    "groups": 1,
    "playoff_cut": None,
    "third_place": False,
    "grand_final_reset": True,
    "async_pairing_from": 256,  # fields at least this big are paired by a Celery task
    # Club nights and leagues: a match may seat only players already registered (else starting
    # a match registers its players, so everybody who plays counts in the standings).
    "registered_only": False,
    # Confirming or disputing an entry needs the other side's own seat link or account: the
    # table link (one shared phone) still enters and withdraws, but does not answer.
    "confirm_by_seat_link": False,
}
"""Every event option with its default; ``Event.options`` stores only what differs."""

KIND_OPTION_DEFAULTS: dict[str, dict[str, Any]] = {
    Event.Kind.ROUND_ROBIN: {"bye_points": 0},
}

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


def event_option(*, event: Event, name: str) -> Any:
    """One option of ``event``: its own value, else the kind's default, else the global one."""
    if name in (event.options or {}):
        return event.options[name]
    return KIND_OPTION_DEFAULTS.get(event.kind, {}).get(name, OPTION_DEFAULTS[name])


def event_tiebreak_order(*, event: Event) -> tuple[TieBreak, ...]:
    """The event's tie-breaks after match points ("match_points" in the stored list is implied)."""
    names = event.tiebreaks or DEFAULT_TIEBREAKS[event.kind]
    return tuple(TieBreak(n) for n in names if n != "match_points")
