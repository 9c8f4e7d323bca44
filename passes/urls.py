"""API routes of the passes (mounted under /api/)."""

from django.urls import URLPattern, URLResolver, path

from passes import apis

urlpatterns: list[URLPattern | URLResolver] = [
    path("events/<int:event_id>/pass/", apis.PassViewApi.as_view(), name="event-pass"),
    path(
        "events/<int:event_id>/pass/checkin/",
        apis.PassCheckinApi.as_view(),
        name="event-pass-checkin",
    ),
    path(
        "events/<int:event_id>/pass/withdraw/",
        apis.PassWithdrawApi.as_view(),
        name="event-pass-withdraw",
    ),
    path("events/<int:event_id>/pass/seat/", apis.PassSeatApi.as_view(), name="event-pass-seat"),
    path(
        "events/<int:event_id>/pass/seat/hands/",
        apis.PassSeatHandsApi.as_view(),
        name="event-pass-seat-hands",
    ),
    path(
        "events/<int:event_id>/pass/seat/hands/<int:submission_id>/confirm/",
        apis.PassSeatConfirmApi.as_view(),
        name="event-pass-seat-confirm",
    ),
    path(
        "events/<int:event_id>/pass/seat/hands/<int:submission_id>/dispute/",
        apis.PassSeatDisputeApi.as_view(),
        name="event-pass-seat-dispute",
    ),
    path(
        "events/<int:event_id>/pass/seat/hands/<int:submission_id>/withdraw/",
        apis.PassSeatWithdrawApi.as_view(),
        name="event-pass-seat-withdraw",
    ),
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
