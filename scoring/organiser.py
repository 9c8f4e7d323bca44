"""The seam between scoring and the app that organises its matches (tournaments).

Scoring keeps the score of matches; it does not know what an event is or does with a result.
The app above it registers one :class:`Organiser` at start-up (``TournamentsConfig.ready``).
Scoring learns what it needs of an event as one read-only value, :class:`EventTerms` (the
organiser's only reads), and tells the organiser what happened with commands, synchronously and
inside the transaction that stores the result, so the guarantees are exactly those of a direct
call: the event's results sequence is bumped and its work records are written with the result
or not at all, and a refusal (409) rolls the result back. Each scoring service tells the
organiser once, at its end.

This module must not import ``tournaments``: the dependency points one way, tournaments to
scoring. Scoring never reads an event's columns itself, only its terms; who directs an event is
the one rule of ``clubs.permissions`` (below scoring), not a question to the organiser. This
module holds no state but the one registered organiser.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from clubs.models import Player
    from scoring.models import Match


@dataclass(frozen=True, slots=True)
class EventTerms:
    """What scoring needs of an event, read once: the terms its matches are played under.

    ``rules`` and ``match_format`` are the event's defaults for a new match (a match keeps its
    own copy); ``confirmation`` is the policy (``scoring.models.Confirmation``);
    ``confirm_by_seat_link`` whether answers to an entry made on the table's phone are refused;
    ``finished`` whether no match may start any more; ``at_time`` what a match unfinished when
    its round's time is up becomes (``play_on``, or ``as_it_stands``: a director may close it as
    it stands, docs/rules.md §11). ``pk`` is ``event_id`` for templates and URLs.
    """

    event_id: int
    name: str
    club_id: int
    rules: Mapping[str, Any]
    match_format: Mapping[str, Any]
    confirmation: str
    confirm_by_seat_link: bool
    finished: bool
    at_time: str = "play_on"

    @property
    def pk(self) -> int:
        return self.event_id


@dataclass(frozen=True, slots=True)
class RoundClock:
    """The clock of a match's round as a page shows it, for the round or one table.

    ``phase`` is "ready" (a length, not started), "running", "paused" or "time" (the round's own
    time is up); ``at_time`` is this table's time being up (its extra time counted);
    ``remaining`` (seconds, never below 0) counts this table's ``extension``; ``deadline`` is set
    only while the clock runs, and ``deadline_ms`` is it in epoch milliseconds for the page's
    script (static/js/clock.js counts down from it without asking the server again).
    """

    round_number: int
    phase: str
    length: int
    remaining: int
    deadline: datetime | None
    extension: int
    at_time: bool
    match_id: int | None = None

    @property
    def deadline_ms(self) -> int | None:
        return int(self.deadline.timestamp() * 1000) if self.deadline is not None else None

    @property
    def started(self) -> bool:
        return self.phase != "ready"


class Organiser(Protocol):
    """What scoring asks of, and tells, the app that runs its events.

    Every method is called inside the caller's transaction; none may start its own work outside
    it (tasks go through ``transaction.on_commit`` and durable work records, as before).
    """

    # -- what scoring reads: an event's terms, one read-only value -----------------------------

    def terms_for_event(self, *, event_id: int) -> EventTerms | None:
        """The terms of event ``event_id``, or None when there is none (one query)."""

    def terms_for(self, *, match: Match) -> EventTerms:
        """The terms of ``match``'s event (no query when the match's event is loaded)."""

    def clock_for(self, *, match: Match) -> RoundClock | None:
        """The clock of ``match``'s round for its table (None: no round, or no clock), which
        the match page shows: "time: finish the hand being played" once it is up."""

    # -- what scoring tells: commands, and one veto -----------------------------------------------

    def players_enter(
        self, *, match: Match, players: Sequence[Player], round_number: int | None
    ) -> None:
        """``players`` sit down at ``match``, a match of its event about to be stored (not saved
        yet): file it in round ``round_number`` (set ``match.round``) and register the players
        who are not yet; raise an ``ApplicationError`` when a player is neither of the event's
        club nor registered for it, when the event has no such round, or when they may not
        sit down (in that order)."""

    def results_changed(self, *, event_id: int, counted: bool = True) -> None:
        """A result of event ``event_id`` was stored, confirmed or corrected (bump its sequence).
        Told once per service call and event, before the match commands below. ``counted``:
        whether it may change what standings count, a final result (a match that is or was
        finished); a hand of a match still in play is not (it moves only the live scores)."""

    def match_result_change_allowed(self, *, match: Match, new_winner: int | None) -> None:
        """The veto: raise an ``ApplicationError`` (409) when a correction of a final result is
        refused (asked before the correction is saved)."""

    def match_result_changed(self, *, match: Match) -> None:
        """A stored correction changed a final result (re-seat later bracket matches, re-rate)."""

    def match_finished(self, *, match: Match) -> None:
        """``match`` became final (advance the bracket, close the round, rate it)."""


@dataclass(slots=True)
class ResultChanges:
    """What one scoring service tells the organiser, each thing once, at its end (:meth:`tell`):
    the events whose results changed, the matches whose final result a correction changed, and
    the matches that finished (in the order first noted)."""

    events: dict[int, bool] = field(default_factory=dict)
    corrected: dict[int, Match] = field(default_factory=dict)
    finished: dict[int, Match] = field(default_factory=dict)

    @classmethod
    def of(cls, *, match: Match) -> ResultChanges:
        """The changes of a service that changed a result of ``match``."""
        changes = cls()
        changes.result_changed(match=match)
        return changes

    def result_changed(self, *, match: Match) -> None:
        """A result of ``match`` was stored, confirmed, disputed, withdrawn or corrected. Noted
        as counted when the match is final as it stands now (a service notes its match before
        bringing it in line, and again after when a game or the match changed state, so a
        match that was final, or became final, is counted either way)."""
        from scoring.models import Match  # the models import nothing of this seam

        final = match.status == Match.Status.FINISHED or match.decision != Match.Decision.PLAYED
        self.events[match.event_id] = self.events.get(match.event_id, False) or final

    def tell(self) -> None:
        """Tell the organiser, inside the service's transaction: each event's results changed
        (the sequence bump, counted if a final result of it changed), then each correction of
        a final result, then each finished match."""
        told = organiser()
        final = {m.event_id for m in (*self.corrected.values(), *self.finished.values())}
        for event_id, counted in self.events.items():
            told.results_changed(event_id=event_id, counted=counted or event_id in final)
        for match in self.corrected.values():
            told.match_result_changed(match=match)
        for match in self.finished.values():
            told.match_finished(match=match)


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
