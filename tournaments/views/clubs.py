"""The home feed, the club list and a club's page, and a club's create, edit and Gem-deck pages."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Club, Player
from clubs.permissions import user_can_direct_club, user_can_manage_club
from core.errors import ApplicationError
from tournaments.forms import (
    ClubForm,
    GemDeckMapForm,
)
from tournaments.models import Event, Rating
from tournaments.selectors import club_list as clubs_selector
from tournaments.selectors import (
    club_ratings,
    event_list,
    player_list,
)
from tournaments.services import (
    club_create,
)
from tournaments.services.edits import (
    club_gem_deck_map_set,
    club_update,
)
from tournaments.views._common import _club, _forbidden

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
    return list(clubs_selector())


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


@login_required
def club_create_view(request: HttpRequest) -> HttpResponse:
    """Any signed-in user may start a club; they become its first admin."""
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = club_create(user=request.user, **form.cleaned_data)  # type: ignore[arg-type]
        except ApplicationError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("%(club)s is open. Add its players next.") % {"club": club})
            return redirect("club-players", slug=club.slug)
    return render(
        request,
        "tournaments/club_form.html",
        {"form": form, "club": None},
        status=400 if form.errors else 200,
    )


def _club_edit_page(
    request: HttpRequest,
    club: Club,
    form: ClubForm | None = None,
    deck_form: GemDeckMapForm | None = None,
) -> HttpResponse:
    form = form or ClubForm(
        initial={
            "name": club.name,
            "slug": club.slug,
            "description": club.description,
            "rating_period_days": club.rating_period_days,
        }
    )
    deck_form = deck_form or GemDeckMapForm(
        initial={"deck_map": GemDeckMapForm.as_text(club.gem_deck_map or {})}
    )
    return render(
        request,
        "tournaments/club_form.html",
        {"form": form, "deck_form": deck_form, "club": club},
        status=400 if (form.errors or deck_form.errors) else 200,
    )


@login_required
def club_edit(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    if not user_can_manage_club(user=request.user, club=club):
        return _forbidden(request, _("Only the club's admins may change the club."))
    if request.method != "POST":
        return _club_edit_page(request, club)
    form = ClubForm(request.POST)
    if form.is_valid():
        try:
            club = club_update(club=club, **form.cleaned_data)
        except ApplicationError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("The club is saved."))
            return redirect("club-detail", slug=club.slug)
    return _club_edit_page(request, club, form=form)


@login_required
@require_POST
def club_gem_deck(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    if not user_can_manage_club(user=request.user, club=club):
        return _forbidden(request, _("Only the club's admins may change the club."))
    form = GemDeckMapForm(request.POST)
    if form.is_valid():
        try:
            club_gem_deck_map_set(club=club, mapping=form.cleaned_data["deck_map"])
        except ApplicationError as exc:
            form.add_service_error(exc)
        else:
            if form.cleaned_data["deck_map"]:
                messages.success(request, _("The Gem Rummy deck map is saved."))
            else:
                messages.success(request, _("The Gem Rummy deck map is removed."))
            return redirect("club-edit", slug=club.slug)
    return _club_edit_page(request, club, deck_form=form)
