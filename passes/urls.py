"""API routes of the passes (mounted under /api/)."""

from django.urls import URLPattern, URLResolver, path

from passes import apis

urlpatterns: list[URLPattern | URLResolver] = [
    path("events/<int:event_id>/pass/", apis.PassViewApi.as_view(), name="event-pass"),
    path("events/<int:event_id>/passes/", apis.EventPassesApi.as_view(), name="event-passes-api"),
    path(
        "events/<int:event_id>/passes/<int:registration_id>/reissue/",
        apis.PassReissueApi.as_view(),
        name="event-pass-reissue",
    ),
    path(
        "events/<int:event_id>/passes/<int:registration_id>/revoke/",
        apis.PassRevokeApi.as_view(),
        name="event-pass-revoke",
    ),
]
