"""A club's player list: add one, paste many, edit one (club directors)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs.forms import PlayerAddForm, PlayerEditForm, PlayerListForm
from clubs.models import Club, Player
from clubs.permissions import user_can_manage_club
from clubs.selectors import player_list
from clubs.services import player_create, player_update, players_create_many
from clubs.views.common import directed_club
from core.errors import ApplicationError

# -- club players ----------------------------------------------------------------------------


def _players_page(
    request: HttpRequest,
    club: Club,
    *,
    add_form: PlayerAddForm | None = None,
    list_form: PlayerListForm | None = None,
    failed: PlayerEditForm | None = None,
    failed_id: int | None = None,
) -> HttpResponse:
    rows = []
    for player in player_list(club_id=club.pk):
        if player.pk == failed_id and failed is not None:
            form = failed
        else:
            form = PlayerEditForm(
                prefix=f"p{player.pk}",
                initial={"name": player.name, "is_guest": player.is_guest, "family": player.family},
            )
        rows.append({"player": player, "form": form, "open": player.pk == failed_id})
    forms_ = [f for f in (add_form, list_form, failed) if f is not None]
    return render(
        request,
        "clubs/club_players.html",
        {
            "club": club,
            "rows": rows,
            "add_form": add_form or PlayerAddForm(prefix="add"),
            "list_form": list_form or PlayerListForm(prefix="list"),
            "can_manage": user_can_manage_club(user=request.user, club=club),
        },
        status=400 if any(f.errors for f in forms_) else 200,
    )


@login_required
def club_players(request: HttpRequest, slug: str) -> HttpResponse:
    return _players_page(request, directed_club(request, slug))


@login_required
@require_POST
def club_player_add(request: HttpRequest, slug: str) -> HttpResponse:
    club = directed_club(request, slug)
    form = PlayerAddForm(request.POST, prefix="add")
    if form.is_valid():
        try:
            player = player_create(club=club, **form.cleaned_data)
        except ApplicationError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("%(name)s is on the list.") % {"name": player.name})
            return redirect("club-players", slug=club.slug)
    return _players_page(request, club, add_form=form)


@login_required
@require_POST
def club_player_paste(request: HttpRequest, slug: str) -> HttpResponse:
    club = directed_club(request, slug)
    form = PlayerListForm(request.POST, prefix="list")
    if form.is_valid():
        try:
            created, skipped = players_create_many(
                club=club, names=form.name_list(), is_guest=form.cleaned_data["is_guest"]
            )
        except ApplicationError as exc:
            form.add_service_error(exc)
        else:
            if created:
                messages.success(
                    request,
                    ngettext("%(n)s player added.", "%(n)s players added.", len(created))
                    % {"n": len(created)},
                )
            if skipped:
                messages.info(
                    request,
                    _("Already on the list: %(names)s") % {"names": ", ".join(skipped)},
                )
            return redirect("club-players", slug=club.slug)
    return _players_page(request, club, list_form=form)


@login_required
@require_POST
def club_player_edit(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    club = directed_club(request, slug)
    player = get_object_or_404(Player, pk=player_id, club=club)
    form = PlayerEditForm(request.POST, prefix=f"p{player.pk}")
    if form.is_valid():
        try:
            player_update(player=player, **form.cleaned_data)
        except ApplicationError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("%(name)s is saved.") % {"name": player.name})
            return redirect("club-players", slug=club.slug)
    return _players_page(request, club, failed=form, failed_id=player.pk)
