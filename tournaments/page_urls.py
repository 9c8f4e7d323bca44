"""Page routes of this app (server-rendered, mounted at the site root)."""

from django.urls import URLPattern, URLResolver, path

from tournaments import views
from tournaments.views import password_reset
from tournaments.views.club_roles import club_invitation_cancel_view
from tournaments.views.invitations import invitation_accept, invitation_decline

urlpatterns: list[URLPattern | URLResolver] = [
    path("accounts/login/", views.SignInView.as_view(), name="login"),
    path("accounts/logout/", views.SignOutView.as_view(), name="logout"),
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/password_reset/",
        password_reset.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password_reset/done/",
        password_reset.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password_reset/<uidb64>/<token>/",
        password_reset.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password_reset/complete/",
        password_reset.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("home/feed/", views.home_feed, name="home-feed"),
    path("me/", views.dashboard, name="dashboard"),
    path(
        "me/invitations/<int:invitation_id>/accept/",
        invitation_accept,
        name="invitation-accept",
    ),
    path(
        "me/invitations/<int:invitation_id>/decline/",
        invitation_decline,
        name="invitation-decline",
    ),
    path("clubs/", views.club_list, name="club-list"),
    path("clubs/new/", views.club_create_view, name="club-create"),
    path("clubs/<slug:slug>/", views.club_detail, name="club-detail"),
    path("clubs/<slug:slug>/edit/", views.club_edit, name="club-edit"),
    path("clubs/<slug:slug>/gem-deck/", views.club_gem_deck, name="club-gem-deck"),
    path("clubs/<slug:slug>/players/", views.club_players, name="club-players"),
    path("clubs/<slug:slug>/players/add/", views.club_player_add, name="club-player-add"),
    path("clubs/<slug:slug>/players/paste/", views.club_player_paste, name="club-player-paste"),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/",
        views.club_player_edit,
        name="club-player-edit",
    ),
    path("clubs/<slug:slug>/roles/", views.club_roles, name="club-roles"),
    path(
        "clubs/<slug:slug>/roles/<int:role_id>/revoke/",
        views.club_role_revoke_view,
        name="club-role-revoke",
    ),
    path(
        "clubs/<slug:slug>/invitations/<int:invitation_id>/cancel/",
        club_invitation_cancel_view,
        name="club-invitation-cancel",
    ),
    path("clubs/<slug:slug>/events/new/", views.event_create_view, name="event-create"),
    path("events/rules-fields/", views.event_rules_fields, name="event-rules-fields"),
    path("events/<int:pk>/settings/", views.event_edit, name="event-edit"),
    path("events/<int:pk>/", views.event_detail, name="event-detail"),
    path("events/<int:pk>/standings/", views.event_standings_fragment, name="event-standings"),
    path("events/<int:pk>/console/", views.event_console_view, name="event-console"),
    path("events/<int:pk>/live/", views.event_live, name="event-live"),
    path("events/<int:pk>/pair/", views.event_pair, name="event-pair"),
    path("events/<int:pk>/rounds/<int:number>/", views.round_detail, name="event-round"),
    path(
        "events/<int:pk>/rounds/<int:number>/repair/",
        views.round_repair_view,
        name="round-repair",
    ),
    path(
        "events/<int:pk>/rounds/<int:number>/print/",
        views.round_print,
        name="round-print",
    ),
    path("events/<int:pk>/checkin-codes/", views.checkin_cards, name="event-checkin-codes"),
    path(
        "events/<int:pk>/export/<slug:what>/<slug:fmt>/",
        views.event_export,
        name="event-export",
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
