"""The home feed, the club list and a club's page: the club pages that list events (a club's
create, edit, players and roles pages are ``clubs.views``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from clubs.models import Club, Player
from clubs.permissions import user_can_direct_club, user_can_manage_club
from clubs.selectors import player_list
from ratings.models import Rating
from ratings.selectors import club_ratings
from tournaments.models import Event
from tournaments.selectors import club_feed_list, event_list

# -- home, clubs -----------------------------------------------------------------------------


def _current_events() -> dict[str, list[Event]]:
    events = event_list().exclude(kind=Event.Kind.LEAGUE)
    return {
        "running": list(events.filter(status=Event.Status.RUNNING)[:20]),
        "upcoming": list(events.filter(status=Event.Status.REGISTRATION)[:10]),
        "recent": list(events.filter(status=Event.Status.FINISHED)[:10]),
    }


def home_feed(request: HttpRequest) -> HttpResponse:
    """The clubs and current events block the home page loads (htmx, on load)."""
    return render(
        request,
        "tournaments/_home_feed.html",
        {"clubs": club_list_for_page(), **_current_events()},
    )


def club_list_for_page() -> list[Club]:
    return list(club_feed_list())


def club_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/club_list.html",
        {"clubs": club_list_for_page(), **_current_events()},
    )


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    events = list(event_list(club_id=club.pk))
    players = list(player_list(club_id=club.pk))
    ratings = club_ratings(club=club)
    ordered = sorted(players, key=lambda p: _rating_order(p, ratings.get(p.pk)))
    rows = [{"player": p, "rating": ratings.get(p.pk)} for p in ordered]
    return render(
        request,
        "tournaments/club_detail.html",
        {
            "club": club,
            "running": [e for e in events if e.status == Event.Status.RUNNING],
            "upcoming": [e for e in events if e.status == Event.Status.REGISTRATION],
            "finished": [e for e in events if e.status == Event.Status.FINISHED],
            "players": rows,
            "can_manage": user_can_manage_club(user=request.user, club=club),
            "can_direct": user_can_direct_club(user=request.user, club=club),
        },
    )


def _rating_order(player: Player, rating: Rating | None) -> tuple[bool, float, str]:
    return (rating is None, -(rating.rating if rating else 0.0), player.name)
