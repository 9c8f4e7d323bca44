"""The seam between scoring and the app that organises its matches (tournaments).

Scoring keeps the score of matches; it does not know what an event does with a result. The app
above it registers one :class:`Organiser` at start-up (``TournamentsConfig.ready``) and scoring
calls it, synchronously and inside the transaction that stores the result, so the guarantees are
exactly those of a direct call: the event's results sequence is bumped and its work records are
written with the result or not at all, and a refusal (409) rolls the result back.

This module must not import ``tournaments``: the dependency points one way, tournaments to
scoring. It holds no state but the one registered organiser.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from scoring.models import Match


class Organiser(Protocol):
    """What scoring tells, and asks, the app that runs its events.

    Every method is called inside the caller's transaction; none may start its own work outside
    it (tasks go through ``transaction.on_commit`` and durable work records, as before).
    """

    def results_changed(self, *, event: Any) -> None:
        """A result of ``event`` was stored, confirmed or corrected (bump its sequence)."""

    def match_finished(self, *, match: Match) -> None:
        """``match`` became final (advance the bracket, close the round, rate it)."""

    def match_result_change_allowed(self, *, match: Match, new_winner: int | None) -> None:
        """Raise an ``ApplicationError`` (409) when a correction of a final result is refused."""

    def match_result_changed(self, *, match: Match) -> None:
        """A stored correction changed a final result (re-seat later bracket matches, re-rate)."""

    def players_enter(self, *, event: Any, players: Sequence[Any]) -> None:
        """Players sit down at a match of ``event`` (register those who are not yet)."""

    def user_can_manage_event(self, *, user: Any, event: Any) -> bool:
        """Whether ``user`` directs ``event`` (the one definition of the rule lives above)."""

    # -- what scoring reads about events (their rows belong to the app above) ------------------

    def event_find(self, *, event_id: Any) -> Any | None:
        """The event ``event_id`` (its club loaded), or None when there is none."""

    def event_finished(self, *, event: Any) -> bool:
        """Whether ``event`` has finished (no match may start in it any more)."""

    def event_confirm_by_seat_link(self, *, event: Any) -> bool:
        """Whether ``event`` refuses confirmations and disputes made on the table's phone (the
        table link): the other side answers an entry on their own seat's link or account."""

    def event_players_registered(self, *, event: Any, player_ids: Sequence[int]) -> set[int]:
        """Which of ``player_ids`` are registered for ``event`` (whatever their club)."""

    def event_round(self, *, event: Any, number: int) -> Any | None:
        """Round ``number`` of ``event``, or None when it has no such round."""

    def events_directed(self, *, user: Any) -> QuerySet[Any]:
        """The events ``user`` directs (directly, or as an admin or director of the club)."""

    def club_night(self, *, club: Any, name: str, rules: dict[str, Any], director: Any) -> Any:
        """The running club night ``name`` of ``club`` directed by ``director``, made when missing
        (the demo's: opponents confirm, one game a match, starting today)."""


_organiser: Organiser | None = None


def organiser_register(*, organiser: Organiser) -> None:
    """Install the organiser (called once from an ``AppConfig.ready``; a second call replaces
    the first, so that tests may stand in a recording one and put the real one back)."""
    global _organiser
    _organiser = organiser


def organiser() -> Organiser:
    """The registered organiser; a missing one is a configuration error, never a silent skip,
    because a result stored without telling it would leave standings behind for good."""
    if _organiser is None:
        raise ImproperlyConfigured(
            "No scoring organiser is registered: add 'tournaments' to INSTALLED_APPS."
        )
    return _organiser
