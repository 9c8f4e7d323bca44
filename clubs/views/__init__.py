"""Pages for clubs and the accounts of the people who run them: signing in, up and out, getting
back in, answering a role invitation, and a club's create, edit, players and roles pages.

One module per page or resource; this package re-exports the views the URLs name. Views are thin:
they read through ``clubs.selectors``, write only through ``clubs.services``, and turn an
``ApplicationError`` into a message on the page. The club list and a club's page list events:
they are ``tournaments.views``.
"""

from clubs.views.auth import SignInView, SignOutView, signup
from clubs.views.club_players import (
    club_player_add,
    club_player_edit,
    club_player_paste,
    club_players,
)
from clubs.views.club_roles import club_invitation_cancel_view, club_role_revoke_view, club_roles
from clubs.views.clubs import club_create_view, club_edit, club_gem_deck
from clubs.views.invitations import invitation_accept, invitation_decline

__all__ = [
    "SignInView",
    "SignOutView",
    "club_create_view",
    "club_edit",
    "club_gem_deck",
    "club_invitation_cancel_view",
    "club_player_add",
    "club_player_edit",
    "club_player_paste",
    "club_players",
    "club_role_revoke_view",
    "club_roles",
    "invitation_accept",
    "invitation_decline",
    "signup",
]
