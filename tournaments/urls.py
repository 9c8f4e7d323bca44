"""API routes of this app (mounted under /api/)."""

from django.urls import URLPattern, URLResolver, path

from tournaments import apis
from tournaments.apis.clubs import ClubInvitationCancelApi, ClubInvitationListApi
from tournaments.apis.invitations import (
    MyInvitationAcceptApi,
    MyInvitationDeclineApi,
    MyInvitationListApi,
)
from tournaments.apis.live import EventVersionApi
from tournaments.apis.registrations import RegistrationSelfCheckinByLinkApi

urlpatterns: list[URLPattern | URLResolver] = [
    path("clubs/", apis.ClubListApi.as_view(), name="club-list"),
    path("clubs/<int:club_id>/", apis.ClubDetailApi.as_view(), name="club-detail"),
    path("clubs/<int:club_id>/gem-deck/", apis.ClubGemDeckApi.as_view(), name="club-gem-deck"),
    path("clubs/<int:club_id>/roles/", apis.ClubRoleListApi.as_view(), name="club-roles"),
    path(
        "clubs/<int:club_id>/roles/<int:role_id>/",
        apis.ClubRoleRevokeApi.as_view(),
        name="club-role-revoke",
    ),
    path(
        "clubs/<int:club_id>/invitations/",
        ClubInvitationListApi.as_view(),
        name="api-club-invitations",
    ),
    path(
        "clubs/<int:club_id>/invitations/<int:invitation_id>/",
        ClubInvitationCancelApi.as_view(),
        name="api-club-invitation-cancel",
    ),
    path(
        "clubs/<int:club_id>/players/bulk/",
        apis.PlayerBulkCreateApi.as_view(),
        name="club-players-bulk",
    ),
    path("me/", apis.MeApi.as_view(), name="api-me"),
    path("me/invitations/", MyInvitationListApi.as_view(), name="api-my-invitations"),
    path(
        "me/invitations/<int:invitation_id>/accept/",
        MyInvitationAcceptApi.as_view(),
        name="api-my-invitation-accept",
    ),
    path(
        "me/invitations/<int:invitation_id>/decline/",
        MyInvitationDeclineApi.as_view(),
        name="api-my-invitation-decline",
    ),
    path("players/", apis.PlayerListApi.as_view(), name="player-list"),
    path("players/<int:player_id>/", apis.PlayerDetailApi.as_view(), name="player-detail"),
    path(
        "players/<int:player_id>/ratings/",
        apis.PlayerRatingsApi.as_view(),
        name="player-ratings",
    ),
    path("rule-presets/", apis.RulePresetListApi.as_view(), name="rule-presets"),
    path("events/", apis.EventListApi.as_view(), name="event-list"),
    path("events/<int:event_id>/", apis.EventDetailApi.as_view(), name="event-detail"),
    path(
        "events/<int:event_id>/console/", apis.EventConsoleApi.as_view(), name="api-event-console"
    ),
    path("events/<int:event_id>/version/", EventVersionApi.as_view(), name="event-version"),
    path("events/<int:event_id>/finish/", apis.EventFinishApi.as_view(), name="event-finish"),
    path(
        "events/<int:event_id>/playoff/",
        apis.EventPlayoffCreateApi.as_view(),
        name="event-playoff",
    ),
    path(
        "events/<int:event_id>/registrations/",
        apis.RegistrationListApi.as_view(),
        name="event-registrations",
    ),
    path(
        "events/<int:event_id>/registrations/bulk/",
        apis.RegistrationBulkCreateApi.as_view(),
        name="event-registrations-bulk",
    ),
    path(
        "events/<int:event_id>/registrations/paste/",
        apis.RegistrationPasteApi.as_view(),
        name="event-registrations-paste",
    ),
    path(
        "events/<int:event_id>/registrations/checkin-all/",
        apis.RegistrationCheckinAllApi.as_view(),
        name="event-registrations-checkin-all",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/checkin/",
        apis.RegistrationCheckinApi.as_view(),
        name="registration-checkin",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/drop/",
        apis.RegistrationDropApi.as_view(),
        name="registration-drop",
    ),
    path("checkin/", RegistrationSelfCheckinByLinkApi.as_view(), name="self-checkin-by-link"),
    path("checkin/<str:token>/", apis.RegistrationSelfCheckinApi.as_view(), name="self-checkin"),
    path(
        "events/<int:event_id>/forbidden-pairings/",
        apis.ForbiddenPairingCreateApi.as_view(),
        name="event-forbidden-pairings",
    ),
    path("events/<int:event_id>/rounds/", apis.RoundListApi.as_view(), name="event-rounds"),
    path(
        "events/<int:event_id>/rounds/<int:number>/",
        apis.RoundDetailApi.as_view(),
        name="round-detail",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/repair/",
        apis.RoundRepairApi.as_view(),
        name="round-repair",
    ),
    path(
        "events/<int:event_id>/matches/<int:match_id>/forfeit/",
        apis.MatchForfeitApi.as_view(),
        name="match-forfeit",
    ),
    path(
        "events/<int:event_id>/standings/",
        apis.EventStandingsApi.as_view(),
        name="event-standings",
    ),
    path("events/<int:event_id>/bracket/", apis.EventBracketApi.as_view(), name="event-bracket"),
    path(
        "events/<int:event_id>/rounds/<int:number>/print/",
        apis.RoundPrintApi.as_view(),
        name="round-print-api",
    ),
    path(
        "events/<int:event_id>/checkin-codes/",
        apis.CheckinCodesApi.as_view(),
        name="event-checkin-codes-api",
    ),
    path(
        "events/<int:event_id>/standings/export/",
        apis.StandingsExportApi.as_view(),
        name="event-standings-export",
    ),
    path(
        "events/<int:event_id>/results/export/",
        apis.ResultsExportApi.as_view(),
        name="event-results-export",
    ),
]
