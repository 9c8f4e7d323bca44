"""API routes of this app (mounted under /api/; the clubs' own are ``clubs.urls``)."""

from django.urls import URLPattern, URLResolver, path

from tournaments import apis
from tournaments.apis.clock import RoundClockApi
from tournaments.apis.live import EventVersionApi
from tournaments.apis.registrations import RegistrationSelfCheckinByLinkApi

urlpatterns: list[URLPattern | URLResolver] = [
    path("clubs/<int:club_id>/", apis.ClubDetailApi.as_view(), name="club-detail"),
    path("me/", apis.MeApi.as_view(), name="api-me"),
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
        "events/<int:event_id>/rounds/<int:number>/clock/",
        RoundClockApi.as_view(),
        name="round-clock",
    ),
    path(
        "events/<int:event_id>/matches/<int:match_id>/forfeit/",
        apis.MatchForfeitApi.as_view(),
        name="match-forfeit",
    ),
    path(
        "events/<int:event_id>/matches/<int:match_id>/close-as-it-stands/",
        apis.MatchCloseAsItStandsApi.as_view(),
        name="match-close-as-it-stands",
    ),
    path(
        "events/<int:event_id>/standings/",
        apis.EventStandingsApi.as_view(),
        name="event-standings",
    ),
    path("events/<int:event_id>/bracket/", apis.EventBracketApi.as_view(), name="event-bracket"),
]
