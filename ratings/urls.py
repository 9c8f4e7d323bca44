"""The ratings API's routes (under ``/api/``, gathered by ``core.api_urls``)."""

from django.urls import path

from ratings.apis import PlayerRatingsApi

urlpatterns = [
    path(
        "players/<int:player_id>/ratings/",
        PlayerRatingsApi.as_view(),
        name="player-ratings",
    ),
]
