"""API routes of online entry (mounted under /api/ before tournaments' routes, at the paths and
names they had there)."""

from django.urls import URLPattern, URLResolver, path

from entries import apis

urlpatterns: list[URLPattern | URLResolver] = [
    path("events/<int:event_id>/enter/", apis.EntryEnterApi.as_view(), name="api-event-enter"),
    path(
        "events/<int:event_id>/entries/",
        apis.EntryListApi.as_view(),
        name="api-event-entries",
    ),
    path(
        "events/<int:event_id>/entries/settings/",
        apis.EntrySettingsApi.as_view(),
        name="api-event-entries-settings",
    ),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/approve/",
        apis.EntryApproveApi.as_view(),
        name="api-entry-approve",
    ),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/refuse/",
        apis.EntryRefuseApi.as_view(),
        name="api-entry-refuse",
    ),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/waitlist/",
        apis.EntryWaitlistApi.as_view(),
        name="api-entry-waitlist",
    ),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/withdraw/",
        apis.EntryWithdrawApi.as_view(),
        name="api-entry-withdraw",
    ),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/merge/",
        apis.EntryMergeApi.as_view(),
        name="api-entry-merge",
    ),
]
