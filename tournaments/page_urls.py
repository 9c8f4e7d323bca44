"""Page routes of this app (server-rendered, mounted at the site root after ``clubs.page_urls``,
whose ``clubs/new/`` comes before ``clubs/<slug>/`` here)."""

from django.urls import URLPattern, URLResolver, path

from tournaments import views
from tournaments.views.clock import round_clock_run_view

urlpatterns: list[URLPattern | URLResolver] = [
    path("home/feed/", views.home_feed, name="home-feed"),
    path("me/", views.dashboard, name="dashboard"),
    path("clubs/", views.club_list, name="club-list"),
    path("clubs/<slug:slug>/", views.club_detail, name="club-detail"),
    path("clubs/<slug:slug>/events/new/", views.event_create_view, name="event-create"),
    path("events/rules-fields/", views.event_rules_fields, name="event-rules-fields"),
    path("events/<int:pk>/settings/", views.event_edit, name="event-edit"),
    path("events/<int:pk>/", views.event_detail, name="event-detail"),
    path("events/<int:pk>/standings/", views.event_standings_fragment, name="event-standings"),
    path("events/<int:pk>/console/", views.event_console_view, name="event-console"),
    path(
        "events/<int:pk>/matches/<int:match_id>/close-as-it-stands/",
        views.match_close_as_it_stands_view,
        name="match-close-as-it-stands-page",
    ),
    path("events/<int:pk>/live/", views.event_live, name="event-live"),
    path("events/<int:pk>/pair/", views.event_pair, name="event-pair"),
    path("events/<int:pk>/rounds/<int:number>/", views.round_detail, name="event-round"),
    path(
        "events/<int:pk>/rounds/<int:number>/repair/",
        views.round_repair_view,
        name="round-repair",
    ),
    path(
        "events/<int:pk>/rounds/<int:number>/clock/",
        round_clock_run_view,
        name="round-clock-run",
    ),
    path("events/<int:pk>/projector/", views.projector, name="event-projector"),
    path(
        "events/<int:pk>/projector/slides/",
        views.projector_slides,
        name="event-projector-slides",
    ),
    path("events/<int:pk>/registrations/", views.registration_add, name="registration-add"),
    path("events/<int:pk>/registrations/bulk/", views.registration_bulk, name="registration-bulk"),
    path(
        "events/<int:pk>/registrations/paste/",
        views.registration_paste,
        name="registration-paste",
    ),
    path(
        "events/<int:pk>/registrations/checkin-all/",
        views.registration_checkin_all_view,
        name="registration-checkin-all",
    ),
    path(
        "events/<int:pk>/registrations/<int:registration_id>/checkin/",
        views.registration_checkin_view,
        name="registration-checkin",
    ),
    path(
        "events/<int:pk>/registrations/<int:registration_id>/drop/",
        views.registration_drop_view,
        name="registration-drop",
    ),
    path("events/<int:pk>/forbidden/", views.forbidden_pairing_add, name="forbidden-add"),
    path("events/<int:pk>/matches/", views.event_match_start, name="event-match-start"),
    path("checkin/", views.checkin_open, name="checkin-open"),
    path("checkin/<str:token>/", views.checkin_by_link, name="checkin"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
]
