"""The printing pages' routes: PDFs and CSV files an event's page links to."""

from django.urls import path

from printing.views import checkin_cards, event_export, round_print, round_wall_sheet

urlpatterns = [
    path(
        "events/<int:pk>/rounds/<int:number>/print/",
        round_print,
        name="round-print",
    ),
    path(
        "events/<int:pk>/rounds/<int:number>/wall-sheet/",
        round_wall_sheet,
        name="round-wall-sheet",
    ),
    path("events/<int:pk>/checkin-codes/", checkin_cards, name="event-checkin-codes"),
    path(
        "events/<int:pk>/export/<slug:what>/<slug:fmt>/",
        event_export,
        name="event-export",
    ),
]
