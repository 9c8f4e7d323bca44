"""Who is at an open table of an event, and what a director is told when seating them again.

A match is open until it is finished or decided (a walkover or forfeit). Seating a player who is
still at an open table, or starting a second match at a table in play, is allowed (a last hand
may only wait for its confirmation while the players move on) but never silent: the seat menus
mark such players and the start of the match answers with a warning.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from scoring.models import Match, Seat


def _open_matches(event_id: int) -> QuerySet[Match]:
    return Match.objects.filter(event_id=event_id, decision=Match.Decision.PLAYED).exclude(
        status=Match.Status.FINISHED
    )


def event_open_seats(*, event_id: int) -> dict[int, int | None]:
    """Player id to the table number of the open match they sit at (None: no table number)."""
    seats = Seat.objects.filter(match__in=_open_matches(event_id))
    return dict(seats.values_list("player_id", "match__table_number"))


def event_free_table(*, event_id: int) -> int:
    """The lowest table number that no open match of the event holds."""
    taken = set(
        _open_matches(event_id).exclude(table_number=None).values_list("table_number", flat=True)
    )
    return next(n for n in range(1, len(taken) + 2) if n not in taken)


def seating_warnings(
    *, event_id: int, players: Sequence[int], table_number: int | None, exclude: int | None = None
) -> list[str]:
    """What to tell a director seating ``players`` at ``table_number`` (``exclude``: the match
    just started, when asked afterwards): each player still at another open table, and a table
    that holds another open match."""
    open_matches = _open_matches(event_id)
    if exclude is not None:
        open_matches = open_matches.exclude(pk=exclude)
    warnings = []
    seats = (
        Seat.objects.filter(match__in=open_matches, player_id__in=players)
        .select_related("player", "match")
        .order_by("position")
    )
    for seat in seats:
        if seat.match.table_number:
            warnings.append(
                _(
                    "%(name)s is also at table %(t)s, which has not finished: record its last"
                    " hand or a forfeit there."
                )
                % {"name": seat.player.name, "t": seat.match.table_number}
            )
        else:
            warnings.append(
                _("%(name)s is also in match %(n)s, which has not finished.")
                % {"name": seat.player.name, "n": seat.match.pk}
            )
    if table_number is not None and open_matches.filter(table_number=table_number).exists():
        warnings.append(
            _("Table %(t)s also holds a match that has not finished.") % {"t": table_number}
        )
    return warnings
