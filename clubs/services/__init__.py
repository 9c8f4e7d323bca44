"""Writes for clubs, their roles and invitations, their players, and the accounts of the people
who run them.

Every public service is keyword-only, validates, and writes inside ``transaction.atomic``.
Errors are ``core.errors.ApplicationError``. Nothing here knows of events: the apps above build
on these (an event's pasted names become club players through :func:`player_create`).
"""

from clubs.services.accounts import SIGNUP_MODES, signup_mode, user_signup
from clubs.services.clubs import (
    RESERVED_CLUB_SLUGS,
    club_create,
    club_fields_check,
    club_gem_deck_map_set,
    club_role_grant,
    club_role_revoke,
    club_update,
)
from clubs.services.invitations import (
    club_role_invite,
    role_invitation_accept,
    role_invitation_cancel,
    role_invitation_decline,
)
from clubs.services.players import (
    player_create,
    player_names_clean,
    player_update,
    players_create_many,
)

__all__ = [
    "RESERVED_CLUB_SLUGS",
    "SIGNUP_MODES",
    "club_create",
    "club_fields_check",
    "club_gem_deck_map_set",
    "club_role_grant",
    "club_role_invite",
    "club_role_revoke",
    "club_update",
    "player_create",
    "player_names_clean",
    "player_update",
    "players_create_many",
    "role_invitation_accept",
    "role_invitation_cancel",
    "role_invitation_decline",
    "signup_mode",
    "user_signup",
]
