"""API routes of this app (mounted under /api/; the clubs' own are ``clubs.urls``)."""

from django.urls import URLPattern, URLResolver, path

from tournaments import apis
from tournaments.apis import entries as entry_apis
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
    path(
        "events/<int:event_id>/enter/", entry_apis.EntryEnterApi.as_view(), name="api-event-enter"
    ),
    path(
        "events/<int:event_id>/entries/",
        entry_apis.EntryListApi.as_view(),
        name="api-event-entries",
    ),
    path(
        "events/<int:event_id>/entries/settings/",
        entry_apis.EntrySettingsApi.as_view(),
        name="api-event-entries-settings",
    ),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/approve/",
        entry_apis.EntryApproveApi.as_view(),
        name="api-entry-approve",
    ),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/refuse/",
        entry_apis.EntryRefuseApi.as_view(),
        name="api-entry-refuse",
    ),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/waitlist/",
        entry_apis.EntryWaitlistApi.as_view(),
        name="api-entry-waitlist",
    ),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/withdraw/",
        entry_apis.EntryWithdrawApi.as_view(),
        name="api-entry-withdraw",
    ),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/merge/",
        entry_apis.EntryMergeApi.as_view(),
        name="api-entry-merge",
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
        "events/<int:event_id>/standings/",
        apis.EventStandingsApi.as_view(),
        name="event-standings",
    ),
    path("events/<int:event_id>/bracket/", apis.EventBracketApi.as_view(), name="event-bracket"),
]
