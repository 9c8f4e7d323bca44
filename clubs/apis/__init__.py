"""The REST API of clubs, their roles and invitations, and their players.

One APIView per operation; input and output serializers live inside the view. Views only check
permissions, parse input, and call one service or selector; every error is an ApplicationError
turned into JSON by ``core.api.exception_handler``.

The package, one module per resource: :mod:`~clubs.apis.clubs` (clubs, the Gem Rummy deck map,
roles and a club's invitations), :mod:`~clubs.apis.players` and :mod:`~clubs.apis.invitations`
(the signed-in user's own invitations); ``common`` holds the base view and the club lookups.
A club's detail lists its events, so it is ``tournaments.apis.ClubDetailApi``.
"""

from clubs.apis.clubs import (
    ClubGemDeckApi,
    ClubInvitationCancelApi,
    ClubInvitationListApi,
    ClubInvitationOutput,
    ClubListApi,
    ClubOutput,
    ClubRoleListApi,
    ClubRoleOutput,
    ClubRoleRevokeApi,
)
from clubs.apis.invitations import (
    MyInvitationAcceptApi,
    MyInvitationDeclineApi,
    MyInvitationListApi,
)
from clubs.apis.players import (
    PlayerBulkCreateApi,
    PlayerDetailApi,
    PlayerListApi,
    PlayerOutput,
)

__all__ = [
    "ClubGemDeckApi",
    "ClubInvitationCancelApi",
    "ClubInvitationListApi",
    "ClubInvitationOutput",
    "ClubListApi",
    "ClubOutput",
    "ClubRoleListApi",
    "ClubRoleOutput",
    "ClubRoleRevokeApi",
    "MyInvitationAcceptApi",
    "MyInvitationDeclineApi",
    "MyInvitationListApi",
    "PlayerBulkCreateApi",
    "PlayerDetailApi",
    "PlayerListApi",
    "PlayerOutput",
]
