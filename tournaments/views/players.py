"""A player's page: their story. The rating after each match that moved it (a chart and the
same numbers in a table), and their matches with opponents and margins."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from clubs.models import Player
from ratings.charts import line_chart
from ratings.models import Rating
from ratings.selectors import player_ratings
from tournaments.selectors import player_matches

CHART_POINTS = 60
"""How many of the latest ratings the chart draws (the table lists the latest 50 rows)."""


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    ratings = player_ratings(player=player)
    rows = player_matches(player=player)
    points = [p for p in ratings["points"] if p.kind == Rating.Kind.GLICKO2]
    recent = points[-CHART_POINTS:]
    chart = line_chart([p.rating for p in recent], [p.deviation for p in recent])
    return render(
        request,
        "tournaments/player_detail.html",
        {
            "player": player,
            "ratings": ratings["current"],
            "points": list(reversed(ratings["points"]))[:50],
            "chart": chart,
            "chart_points": list(zip(chart.dots, recent, strict=True)) if chart else [],
            "rows": rows,
        },
    )
