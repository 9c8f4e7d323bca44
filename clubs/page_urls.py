"""Page routes of this app (server-rendered, at the site root, gathered by ``config.urls``
before the events' pages): signing in, up and out, getting back in, answering an invitation,
and a club's director pages (create, edit, players, roles).

The club list and a club's page list events, so ``tournaments.page_urls`` routes them.
"""

from django.urls import URLPattern, URLResolver, path

from clubs import views
from clubs.views import password_reset

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
    path(
        "me/invitations/<int:invitation_id>/accept/",
        views.invitation_accept,
        name="invitation-accept",
    ),
    path(
        "me/invitations/<int:invitation_id>/decline/",
        views.invitation_decline,
        name="invitation-decline",
    ),
    path("clubs/new/", views.club_create_view, name="club-create"),
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
        views.club_invitation_cancel_view,
        name="club-invitation-cancel",
    ),
]
