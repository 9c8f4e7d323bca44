"""Writes for clubs, players, events, registrations, rounds, brackets, standings and ratings.

Every public service is keyword-only, validates, writes inside ``transaction.atomic`` and fires
tasks only through ``transaction.on_commit``. Errors are ``core.errors.ApplicationError``.

Scoring calls four of them: ``event_results_bump(event=...)`` in the transaction that stores,
confirms or corrects a result, ``match_finished(match=...)`` when a match becomes final, and,
when a correction re-opens a final match or changes its winner, ``match_result_change_allowed``
(before: may refuse with 409) and ``match_result_changed`` (after: the bracket and ratings follow).
"""

from tournaments.services.brackets import bracket_advance, bracket_start, event_playoff_create
from tournaments.services.clubs import (
    club_create,
    club_role_grant,
    player_create,
    signup_mode,
)
from tournaments.services.corrections import match_result_change_allowed, match_result_changed
from tournaments.services.events import event_create, event_finish, forbidden_pairing_create
from tournaments.services.invitations import (
    club_role_invite,
    role_invitation_accept,
    role_invitation_cancel,
    role_invitation_decline,
)
from tournaments.services.ratings import ratings_update_for_event, ratings_update_for_match
from tournaments.services.registrations import (
    event_players_enter,
    registration_checkin,
    registration_checkin_by_token,
    registration_create,
)
from tournaments.services.results import event_results_bump
from tournaments.services.rounds import (
    assign_tables,
    match_finished,
    round_pair,
    round_pair_execute,
    round_repair,
)
from tournaments.services.standings import standings_failed, standings_recompute
from tournaments.services.withdrawals import match_forfeit, registration_drop
from tournaments.services.work import (
    standings_prompt,
    task_send,
    work_due_add,
    work_due_done,
    work_due_failed,
    work_sweep,
)

__all__ = [
    "assign_tables",
    "bracket_advance",
    "bracket_start",
    "club_create",
    "club_role_grant",
    "club_role_invite",
    "event_create",
    "event_finish",
    "event_players_enter",
    "event_playoff_create",
    "event_results_bump",
    "forbidden_pairing_create",
    "match_finished",
    "match_forfeit",
    "match_result_change_allowed",
    "match_result_changed",
    "player_create",
    "ratings_update_for_event",
    "ratings_update_for_match",
    "registration_checkin",
    "registration_checkin_by_token",
    "registration_create",
    "registration_drop",
    "role_invitation_accept",
    "role_invitation_cancel",
    "role_invitation_decline",
    "round_pair",
    "round_pair_execute",
    "round_repair",
    "signup_mode",
    "standings_failed",
    "standings_prompt",
    "standings_recompute",
    "task_send",
    "work_due_add",
    "work_due_done",
    "work_due_failed",
    "work_sweep",
]
