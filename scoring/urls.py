"""API routes of this app (mounted under /api/)."""

from django.urls import URLPattern, URLResolver, path

from scoring import apis
from scoring.apis.live import MatchVersionApi

urlpatterns: list[URLPattern | URLResolver] = [
    path("matches/", apis.MatchListApi.as_view(), name="match-list"),
    path("matches/<int:match_id>/", apis.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<int:match_id>/version/", MatchVersionApi.as_view(), name="match-version"),
    path("matches/<int:match_id>/links/", apis.MatchLinksApi.as_view(), name="match-links"),
    path(
        "matches/<int:match_id>/links/reissue/",
        apis.MatchLinksReissueApi.as_view(),
        name="match-links-reissue",
    ),
    path("matches/<int:match_id>/hands/", apis.MatchHandsApi.as_view(), name="match-hands"),
    path(
        "matches/<int:match_id>/hands/preview/",
        apis.MatchHandPreviewApi.as_view(),
        name="match-hands-preview",
    ),
    path(
        "matches/<int:match_id>/scoresheet/",
        apis.MatchScoresheetApi.as_view(),
        name="match-scoresheet",
    ),
    path("hands/<int:submission_id>/confirm/", apis.HandConfirmApi.as_view(), name="hand-confirm"),
    path(
        "hands/<int:submission_id>/withdraw/",
        apis.HandWithdrawApi.as_view(),
        name="hand-withdraw",
    ),
    path("hands/<int:submission_id>/dispute/", apis.HandDisputeApi.as_view(), name="hand-dispute"),
    path(
        "hands/<int:submission_id>/override/",
        apis.HandOverrideApi.as_view(),
        name="hand-override",
    ),
    path("hands/<int:submission_id>/history/", apis.HandHistoryApi.as_view(), name="hand-history"),
    path("events/<int:event_id>/disputes/", apis.EventDisputesApi.as_view(), name="event-disputes"),
    path("imports/", apis.ImportApi.as_view(), name="imports"),
]
