"""The printing API's routes (under ``/api/``, gathered by ``core.api_urls``): files, not JSON."""

from django.urls import path

from printing.apis import (
    CheckinCodesApi,
    ResultsExportApi,
    RoundPrintApi,
    RoundWallSheetApi,
    StandingsExportApi,
)

urlpatterns = [
    path(
        "events/<int:event_id>/rounds/<int:number>/print/",
        RoundPrintApi.as_view(),
        name="round-print-api",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/wall-sheet/",
        RoundWallSheetApi.as_view(),
        name="round-wall-sheet-api",
    ),
    path(
        "events/<int:event_id>/checkin-codes/",
        CheckinCodesApi.as_view(),
        name="event-checkin-codes-api",
    ),
    path(
        "events/<int:event_id>/standings/export/",
        StandingsExportApi.as_view(),
        name="event-standings-export",
    ),
    path(
        "events/<int:event_id>/results/export/",
        ResultsExportApi.as_view(),
        name="event-results-export",
    ),
]
