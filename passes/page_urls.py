"""Page routes of the passes (server-rendered, mounted at the site root)."""

from django.urls import URLPattern, URLResolver, path

from passes import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("p/", views.pass_open_page, name="pass-open"),
    path("p/<str:secret>/", views.pass_visit, name="pass-visit"),
    path("events/<int:pk>/pass/", views.pass_page, name="pass-page"),
    path("events/<int:pk>/pass/live/", views.pass_live, name="pass-live"),
    path("events/<int:pk>/pass/checkin/", views.pass_checkin_view, name="pass-checkin"),
    path("events/<int:pk>/pass/withdraw/", views.pass_withdraw_view, name="pass-withdraw"),
    path("events/<int:pk>/pass/seat/", views.pass_seat_view, name="pass-seat"),
    path("events/<int:pk>/passes/", views.event_passes_page, name="event-passes"),
]
