"""Where signing in lands: a director's clubs and events (each with its console), a player's
matches."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.selectors.dashboard import user_dashboard


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    board = user_dashboard(user=request.user)  # type: ignore[arg-type]
    return render(request, "tournaments/dashboard.html", {"board": board})
