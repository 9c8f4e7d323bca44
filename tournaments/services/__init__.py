"""Writes for events, registrations, rounds, brackets and standings.

Every public service is keyword-only, validates, writes inside ``transaction.atomic`` and fires
tasks only through ``transaction.on_commit``. Errors are ``core.errors.ApplicationError``.

Scoring reaches five of them through the organiser (``tournaments.organiser``), once each per
scoring service, in its transaction: ``match_players_enter`` when a match starts,
``event_results_seq_bump`` when a result is stored, confirmed or corrected,
``match_finished(match=...)`` when a match becomes final, and, when a correction re-opens a final
match or changes its winner, ``match_result_change_allowed`` (before: may refuse with 409) and
``match_result_changed`` (after: the bracket and ratings follow).
The ratings themselves are ``ratings.services``'; tournaments calls them, never the reverse.
"""

from tournaments.services.brackets import bracket_advance, bracket_start, event_playoff_create
from tournaments.services.corrections import match_result_change_allowed, match_result_changed
from tournaments.services.event_ratings import ratings_update_for_event
from tournaments.services.events import event_create, event_finish, forbidden_pairing_create
from tournaments.services.registrations import (
    event_players_enter,
    match_players_enter,
    registration_checkin,
    registration_checkin_by_token,
    registration_create,
)
from tournaments.services.results import event_results_bump
from tournaments.services.rounds import (
    match_finished,
    round_pair,
    round_pair_execute,
    round_repair,
    tables_assign,
)
from tournaments.services.standings import standings_failed, standings_recompute
from tournaments.services.withdrawals import match_forfeit, registration_drop
from tournaments.services.work import standings_prompt, work_sweep

__all__ = [
    "bracket_advance",
    "bracket_start",
    "event_create",
    "event_finish",
    "event_players_enter",
    "event_playoff_create",
    "event_results_bump",
    "forbidden_pairing_create",
    "match_finished",
    "match_forfeit",
    "match_players_enter",
    "match_result_change_allowed",
    "match_result_changed",
    "ratings_update_for_event",
    "registration_checkin",
    "registration_checkin_by_token",
    "registration_create",
    "registration_drop",
    "round_pair",
    "round_pair_execute",
    "round_repair",
    "standings_failed",
    "standings_prompt",
    "standings_recompute",
    "tables_assign",
    "work_sweep",
]
