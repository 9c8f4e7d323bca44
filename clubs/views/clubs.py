"""A club's create, edit and Gem Rummy deck pages (the club list and a club's page list its
events: they are ``tournaments.views.clubs``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.forms import ClubForm, GemDeckMapForm
from clubs.models import Club
from clubs.permissions import user_can_manage_club
from clubs.services import club_create, club_gem_deck_map_set, club_update
from clubs.views.common import club_get
from core.errors import ApplicationError


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
        "clubs/club_form.html",
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
        "clubs/club_form.html",
        {"form": form, "deck_form": deck_form, "club": club},
        status=400 if (form.errors or deck_form.errors) else 200,
    )


@login_required
def club_edit(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_get(slug)
    if not user_can_manage_club(user=request.user, club=club):
        raise PermissionDenied(_("Only the club's admins may change the club."))
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
    club = club_get(slug)
    if not user_can_manage_club(user=request.user, club=club):
        raise PermissionDenied(_("Only the club's admins may change the club."))
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
