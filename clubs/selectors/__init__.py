"""Reads for clubs: the club list, a club's roles and players, and role invitations.

Selectors never write.
"""

from clubs.selectors.clubs import club_list, club_role_list, player_list
from clubs.selectors.invitations import club_invitation_list, user_role_invitations

__all__ = [
    "club_invitation_list",
    "club_list",
    "club_role_list",
    "player_list",
    "user_role_invitations",
]
