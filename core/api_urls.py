"""The REST API's routes, gathered from the apps."""

from django.urls import include, path

urlpatterns: list[object] = [
    path("", include("core.health_api")),
    path("", include("core.token_api")),
    path("", include("clubs.urls")),
    path("", include("entries.urls")),
    path("", include("tournaments.urls")),
    path("", include("ratings.urls")),
    path("", include("printing.urls")),
    path("", include("passes.urls")),
    path("", include("scoring.urls")),
]
