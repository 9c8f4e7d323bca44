"""Page routes of this app (server-rendered, mounted at the site root)."""

from django.urls import URLPattern, URLResolver, path

from tournaments import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("accounts/login/", views.SignInView.as_view(), name="login"),
    path("accounts/logout/", views.SignOutView.as_view(), name="logout"),
    path("home/feed/", views.home_feed, name="home-feed"),
    path("clubs/", views.club_list, name="club-list"),
    path("clubs/<slug:slug>/", views.club_detail, name="club-detail"),
    path("events/<int:pk>/", views.event_detail, name="event-detail"),
    path("events/<int:pk>/standings/", views.event_standings_fragment, name="event-standings"),
    path("events/<int:pk>/pair/", views.event_pair, name="event-pair"),
    path(
        "events/<int:pk>/rounds/<int:number>/repair/",
        views.round_repair_view,
        name="round-repair",
    ),
    path("events/<int:pk>/registrations/", views.registration_add, name="registration-add"),
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
    path("checkin/<str:token>/", views.checkin_by_link, name="checkin"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
]
