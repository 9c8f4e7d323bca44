"""Page routes of this app (server-rendered, mounted at the site root)."""

from django.urls import URLPattern, URLResolver, path

from scoring import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("l/", views.link_open, name="match-link-open"),
    path("l/<str:secret>/", views.link_visit, name="match-link"),
    path("matches/<int:pk>/", views.match_page, name="match-detail"),
    path("matches/<int:pk>/links/", views.match_links_page, name="match-links"),
    path("matches/<int:pk>/live/", views.match_live, name="match-live"),
    path("matches/<int:pk>/hands/", views.hand_submit_view, name="match-hand-submit"),
    path("matches/<int:pk>/sheet/", views.scoresheet_page, name="match-scoresheet-page"),
    path(
        "matches/<int:pk>/entries/<int:sid>/",
        views.submission_page,
        name="match-submission",
    ),
    path(
        "matches/<int:pk>/entries/<int:sid>/confirm/",
        views.submission_confirm_view,
        name="match-submission-confirm",
    ),
    path(
        "matches/<int:pk>/entries/<int:sid>/withdraw/",
        views.submission_withdraw_view,
        name="match-submission-withdraw",
    ),
    path(
        "matches/<int:pk>/entries/<int:sid>/dispute/",
        views.submission_dispute_view,
        name="match-submission-dispute",
    ),
    path("events/<int:pk>/disputes/", views.event_disputes_page, name="event-disputes"),
    path("events/<int:pk>/import/", views.event_import_page, name="event-import"),
    path("imports/example.csv", views.import_example, name="import-example"),
]
