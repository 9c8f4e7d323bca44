"""API routes of this app (under ``/api/``, gathered by ``core.api_urls`` before the events').

A club's detail (``clubs/<id>/``) and the signed-in user's page (``me/``) list events, so
``tournaments.urls`` routes them.
"""

from django.urls import URLPattern, URLResolver, path

from clubs import apis

urlpatterns: list[URLPattern | URLResolver] = [
    path("clubs/", apis.ClubListApi.as_view(), name="club-list"),
    path("clubs/<int:club_id>/gem-deck/", apis.ClubGemDeckApi.as_view(), name="club-gem-deck"),
    path("clubs/<int:club_id>/roles/", apis.ClubRoleListApi.as_view(), name="club-roles"),
    path(
        "clubs/<int:club_id>/roles/<int:role_id>/",
        apis.ClubRoleRevokeApi.as_view(),
        name="club-role-revoke",
    ),
    path(
        "clubs/<int:club_id>/invitations/",
        apis.ClubInvitationListApi.as_view(),
        name="api-club-invitations",
    ),
    path(
        "clubs/<int:club_id>/invitations/<int:invitation_id>/",
        apis.ClubInvitationCancelApi.as_view(),
        name="api-club-invitation-cancel",
    ),
    path(
        "clubs/<int:club_id>/players/bulk/",
        apis.PlayerBulkCreateApi.as_view(),
        name="club-players-bulk",
    ),
    path("me/invitations/", apis.MyInvitationListApi.as_view(), name="api-my-invitations"),
    path(
        "me/invitations/<int:invitation_id>/accept/",
        apis.MyInvitationAcceptApi.as_view(),
        name="api-my-invitation-accept",
    ),
    path(
        "me/invitations/<int:invitation_id>/decline/",
        apis.MyInvitationDeclineApi.as_view(),
        name="api-my-invitation-decline",
    ),
    path("players/", apis.PlayerListApi.as_view(), name="player-list"),
    path("players/<int:player_id>/", apis.PlayerDetailApi.as_view(), name="player-detail"),
]
