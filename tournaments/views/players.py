"""A player's page: matches, ratings and the rating sparkline."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from clubs.models import Player
from tournaments.models import Rating
from tournaments.selectors import (
    player_matches,
    player_ratings,
)

# -- players ---------------------------------------------------------------------------------


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    ratings = player_ratings(player=player)
    rows = player_matches(player=player)
    history = ratings["history"]
    glicko = [h for h in history if h.kind == Rating.Kind.GLICKO2]
    return render(
        request,
        "tournaments/player_detail.html",
        {
            "player": player,
            "ratings": ratings["current"],
            "history": list(reversed(history))[:50],
            "spark": _sparkline([h.rating for h in glicko]),
            "rows": rows,
        },
    )


def _sparkline(values: list[float], width: int = 240, height: int = 48) -> str:
    """Points of an SVG polyline for ``values`` (drawing only: the values come from a selector)."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / (len(values) - 1)
    return " ".join(
        f"{i * step:.1f},{height - 4 - (v - low) / span * (height - 8):.1f}"
        for i, v in enumerate(values)
    )
