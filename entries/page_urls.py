"""Page routes of online entry (mounted at the site root before tournaments' pages, at the paths
and names they had there)."""

from django.urls import URLPattern, URLResolver, path

from entries import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("events/<int:pk>/enter/", views.event_enter, name="event-enter"),
    path("events/<int:pk>/entries/", views.event_entries, name="event-entries"),
    path(
        "events/<int:pk>/entries/settings/",
        views.event_entries_settings,
        name="event-entries-settings",
    ),
    path(
        "events/<int:pk>/entries/<int:entry_id>/<slug:action>/",
        views.event_entry_action,
        name="event-entry-action",
    ),
]
