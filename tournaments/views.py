"""Pages for clubs, events (standings, pairings, brackets, director actions) and players.

Views are thin: they read through ``tournaments.selectors`` / ``scoring.selectors``, write only
through the services, and turn an ``ApplicationError`` into a message on the page. Nothing here
computes a score, a ranking or a pairing.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib import messages
from django.contrib.auth import login, password_validation
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView, LogoutView
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from core.errors import ApplicationError
from engine.rules import RULE_PRESETS
from scoring.models import Match
from scoring.permissions import Actor
from scoring.selectors import matches_live_scores, round_live_scores
from scoring.services import match_start
from tournaments.forms import (
    TIEBREAK_NAMES,
    BulkRegisterForm,
    ClubForm,
    EventSettingsForm,
    ForbiddenPairingForm,
    GemDeckMapForm,
    MatchStartForm,
    PlayerAddForm,
    PlayerEditForm,
    PlayerListForm,
    RegisterForm,
    RoleGrantForm,
    SignUpForm,
)
from tournaments.models import (
    Club,
    ClubRole,
    Event,
    Player,
    Rating,
    Registration,
    Round,
)
from tournaments.permissions import (
    user_can_direct_club,
    user_can_manage_club,
    user_can_manage_event,
)
from tournaments.selectors import (
    DEFAULT_TIEBREAKS,
    club_ratings,
    club_role_list,
    event_active_players,
    event_bracket,
    event_forbidden_pairings,
    event_list,
    event_matches,
    event_rounds,
    event_standings,
    event_tiebreak_order,
    player_list,
    player_matches,
    player_ratings,
    registration_list,
    round_matches,
)
from tournaments.selectors import club_list as clubs_selector
from tournaments.services import (
    club_create,
    club_role_grant_named,
    event_create,
    forbidden_pairing_create,
    player_create,
    registration_checkin,
    registration_checkin_by_token,
    registration_create,
    registration_drop,
    round_pair,
    round_repair,
)
from tournaments.services.clubs import user_signup
from tournaments.services.edits import (
    club_gem_deck_map_set,
    club_role_revoke,
    club_update,
    event_has_matches,
    event_update,
    player_update,
    players_create_many,
)
from tournaments.services.events import registrations_checkin_all, registrations_create_many

TIEBREAK_LABELS: dict[str, Any] = {
    "match_points": gettext_lazy("MP"),
    "game_points": gettext_lazy("Game pts"),
    "head_to_head": gettext_lazy("H2H"),
    "buchholz": gettext_lazy("Buchholz"),
    "buchholz_cut1": gettext_lazy("Buch. cut 1"),
    "median_buchholz": gettext_lazy("Median Buch."),
    "sonneborn_berger": gettext_lazy("SB"),
    "hands_won": gettext_lazy("Hands won"),
    "gins": gettext_lazy("Gins"),
    "opponents_match_win": gettext_lazy("Opp. win %"),
    "lots": gettext_lazy("Lots"),
}

SECTION_LABELS: dict[str, Any] = {
    "winners": gettext_lazy("Winners' bracket"),
    "losers": gettext_lazy("Losers' bracket"),
    "third_place": gettext_lazy("Third place"),
    "grand_final": gettext_lazy("Grand final"),
    "grand_final_reset": gettext_lazy("Grand final reset"),
}

BRACKET_STATUS_LABELS: dict[str, Any] = {
    "waiting": gettext_lazy("waiting"),
    "ready": gettext_lazy("ready to play"),
    "played": gettext_lazy("played"),
    "bye": gettext_lazy("bye"),
    "walkover": gettext_lazy("walkover"),
    "not_needed": gettext_lazy("not needed"),
}


# -- sign in ---------------------------------------------------------------------------------


class SignInView(LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True
    next_page = "home"


class SignOutView(LogoutView):
    next_page = "home"


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    """A new account, signed in at once and sent to start a club (a director's first step)."""
    if request.user.is_authenticated:
        return redirect("club-create")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = user_signup(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except ApplicationError as exc:
            form.add_service_error(exc)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                _("Welcome, %(user)s. Start your club next.") % {"user": user.get_username()},
            )
            return redirect("club-create")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "password_help": password_validation.password_validators_help_texts()},
        status=400 if form.errors else 200,
    )


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


# -- events ----------------------------------------------------------------------------------


def _event(pk: int) -> Event:
    return get_object_or_404(Event.objects.select_related("club", "league"), pk=pk)


def _standings_context(event: Event) -> dict[str, Any]:
    standings = event_standings(event=event)
    order = [tb.value for tb in event_tiebreak_order(event=event)]
    columns = [(key, TIEBREAK_LABELS.get(key, key)) for key in order if key != "lots"]
    rows = [
        {
            "rank": s.rank,
            "player": s.player,
            "match_points": s.values.get("match_points"),
            "record": s.values,
            "tiebreaks": [s.values.get(key) for key, _label in columns],
            "dropped": s.values.get("dropped", False),
            "group": s.values.get("group"),
        }
        for s in standings.rows
    ]
    return {"event": event, "standings": standings, "columns": columns, "rows": rows}


def _pairing_rows(
    matches: list[Match],
    scores: dict[int, dict[str, Any]] | None = None,
    floats: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Tables with their live scores (``scores`` by match id; read for all tables at once) and
    each seated player's float this round (``floats``, a Swiss round's ``Round.floats``)."""
    if scores is None:
        played = [m.pk for m in matches if m.decision == Match.Decision.PLAYED]
        scores = matches_live_scores(match_ids=played)
    rows = []
    for m in matches:
        seats = sorted(m.seats.all(), key=lambda s: s.position)
        live = scores.get(m.pk, {}) if m.decision == Match.Decision.PLAYED else {}
        ways = [(s, (floats or {}).get(str(s.player_id), "")) for s in seats]
        rows.append({"match": m, "seats": seats, "live": live, "floats": ways})
    return rows


def _bracket_context(event: Event) -> dict[str, Any] | None:
    if event.kind not in (Event.Kind.SINGLE_ELIMINATION, Event.Kind.DOUBLE_ELIMINATION):
        return None
    try:
        bracket = event_bracket(event=event)
    except ApplicationError:
        return None
    sections: dict[str, dict[int, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for m in bracket["matches"]:
        m["status_label"] = BRACKET_STATUS_LABELS.get(m["status"], m["status"])
        sections[m["section"]][m["round"]].append(m)
    out = []
    for key in ("winners", "losers", "third_place", "grand_final", "grand_final_reset"):
        if key not in sections:
            continue
        rounds = sections[key]
        last = max(rounds)
        columns = [
            {
                "round": number,
                "final": key == "winners" and number == last,
                "matches": rounds[number],
            }
            for number in sorted(rounds)
        ]
        out.append({"key": key, "label": SECTION_LABELS[key], "columns": columns})
    return {"sections": out, "champion": bracket["champion"]}


def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk)
    director = user_can_manage_event(user=request.user, event=event)
    rounds = list(event_rounds(event=event))
    current = rounds[-1] if rounds else None
    pairings = (
        _pairing_rows(
            round_matches(rnd=current), round_live_scores(rnd=current), current.floats or {}
        )
        if current is not None
        else []
    )
    context: dict[str, Any] = {
        **_standings_context(event),
        "director": director,
        "rounds": rounds,
        "current_round": current,
        "pairings": pairings,
        "bracket": _bracket_context(event),
        "uses_rounds": event.kind in (Event.Kind.SWISS, Event.Kind.ROUND_ROBIN),
        "elimination": event.kind in (Event.Kind.SINGLE_ELIMINATION, Event.Kind.DOUBLE_ELIMINATION),
        "open_play": event.kind in (Event.Kind.CLUB_NIGHT, Event.Kind.LEAGUE),
        "league_events": list(event.league_events.all()) if event.kind == Event.Kind.LEAGUE else [],
    }
    if context["open_play"]:
        context["table_matches"] = _pairing_rows(_open_matches(event))
    if director:
        registrations = list(registration_list(event=event))
        club_players = player_list(club_id=event.club_id)
        unregistered = club_players.exclude(pk__in={r.player_id for r in registrations})
        active = event_active_players(event=event)
        context.update(
            registrations=registrations,
            register_form=RegisterForm(players=unregistered),
            bulk_form=BulkRegisterForm(prefix="bulk", players=unregistered),
            waiting_checkin=sum(r.status == Registration.Status.REGISTERED for r in registrations),
            start_form=MatchStartForm(players=active),
            forbidden=list(event_forbidden_pairings(event=event)),
            forbidden_form=ForbiddenPairingForm(players=active),
        )
    return render(request, "tournaments/event_detail.html", context)


def _open_matches(event: Event) -> list[Match]:
    """A club night's tables: the ones being played first, then newest first."""
    return list(event_matches(event=event)[:60])


def event_standings_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings block alone: polled by htmx while the standings are being updated."""
    event = _event(pk)
    return render(request, "tournaments/_standings.html", _standings_context(event))


# -- director actions ------------------------------------------------------------------------


def _managed(request: HttpRequest, pk: int) -> Event:
    event = _event(pk)
    if not user_can_manage_event(user=request.user, event=event):
        raise Http404
    return event


def _back(event: Event, anchor: str = "") -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("event-detail", args=[event.pk]) + anchor)


@require_POST
def event_pair(request: HttpRequest, pk: int) -> HttpResponse:
    event = _managed(request, pk)
    try:
        rnd = round_pair(event=event, user=request.user)  # type: ignore[arg-type]
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        if rnd.status == Round.Status.QUEUED:
            messages.info(request, _("Round %(n)s is queued for pairing.") % {"n": rnd.number})
        else:
            messages.success(request, _("Round %(n)s is paired.") % {"n": rnd.number})
    return _back(event, "#pairings")


@require_POST
def round_repair_view(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = _managed(request, pk)
    rnd = get_object_or_404(Round, event=event, number=number)
    try:
        round_repair(rnd=rnd, user=request.user)  # type: ignore[arg-type]
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Round %(n)s is paired again.") % {"n": number})
    return _back(event, "#pairings")


def _registration(event: Event, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("event", "player"), pk=registration_id, event=event
    )


@require_POST
def registration_checkin_view(request: HttpRequest, pk: int, registration_id: int) -> HttpResponse:
    event = _managed(request, pk)
    try:
        registration_checkin(registration=_registration(event, registration_id))
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return _back(event, "#registrations")


@require_POST
def registration_drop_view(request: HttpRequest, pk: int, registration_id: int) -> HttpResponse:
    event = _managed(request, pk)
    try:
        registration_drop(registration=_registration(event, registration_id))
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return _back(event, "#registrations")


@require_POST
def registration_add(request: HttpRequest, pk: int) -> HttpResponse:
    event = _managed(request, pk)
    form = RegisterForm(request.POST, players=player_list(club_id=event.club_id))
    if form.is_valid():
        try:
            registration_create(
                event=event,
                player=form.cleaned_data["player"],
                checked_in=form.cleaned_data["checked_in"],
            )
        except ApplicationError as exc:
            messages.error(request, exc.message)
    else:
        messages.error(request, _("Choose a player of the club."))
    return _back(event, "#registrations")


@require_POST
def registration_bulk(request: HttpRequest, pk: int) -> HttpResponse:
    """Register the ticked players at once (all or none), checking them in if asked."""
    event = _managed(request, pk)
    form = BulkRegisterForm(request.POST, prefix="bulk", players=player_list(club_id=event.club_id))
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return _back(event, "#registrations")
    try:
        done = registrations_create_many(
            event=event,
            players=form.cleaned_data["players"],
            checked_in=form.cleaned_data["checked_in"],
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        if form.cleaned_data["checked_in"]:
            text = ngettext(
                "%(n)s player registered and checked in.",
                "%(n)s players registered and checked in.",
                len(done),
            )
        else:
            text = ngettext("%(n)s player registered.", "%(n)s players registered.", len(done))
        messages.success(request, text % {"n": len(done)})
    return _back(event, "#registrations")


@require_POST
def registration_checkin_all_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Check in everyone registered who has not checked in yet."""
    event = _managed(request, pk)
    try:
        done = registrations_checkin_all(event=event)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        if done:
            messages.success(
                request,
                ngettext("%(n)s player checked in.", "%(n)s players checked in.", len(done))
                % {"n": len(done)},
            )
        else:
            messages.info(request, _("Everyone registered is already checked in."))
    return _back(event, "#registrations")


@require_POST
def forbidden_pairing_add(request: HttpRequest, pk: int) -> HttpResponse:
    event = _managed(request, pk)
    form = ForbiddenPairingForm(request.POST, players=player_list(club_id=event.club_id))
    if form.is_valid():
        try:
            forbidden_pairing_create(
                event=event,
                player_a=form.cleaned_data["player_a"],
                player_b=form.cleaned_data["player_b"],
                hard=form.cleaned_data["hard"],
            )
        except ApplicationError as exc:
            messages.error(request, exc.message)
    else:
        messages.error(request, _("Choose two players."))
    return _back(event, "#forbidden")


@require_POST
def event_match_start(request: HttpRequest, pk: int) -> HttpResponse:
    """A director (or a player at the table) starts a club-night match."""
    event = _event(pk)
    if not request.user.is_authenticated:
        raise Http404
    form = MatchStartForm(request.POST, players=player_list(club_id=event.club_id))
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            text = " ".join(str(e) for e in errors)
            messages.error(request, f"{label}: {text}" if label else text)
        return _back(event, "#start")
    try:
        match = match_start(
            actor=Actor.from_request(request),
            event=event,
            players=form.player_ids(),
            table_number=form.cleaned_data.get("table_number"),
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return _back(event, "#start")
    return redirect("match-detail", pk=match.pk)


def checkin_by_link(request: HttpRequest, token: str) -> HttpResponse:
    """A player's own check-in link: the token is the credential (no account needed)."""
    registration = get_object_or_404(
        Registration.objects.select_related("event", "player"), checkin_token=token
    )
    error = None
    if request.method == "POST":
        try:
            registration = registration_checkin_by_token(token=token)
        except ApplicationError as exc:
            error = exc.message
    return render(
        request,
        "tournaments/checkin.html",
        {"registration": registration, "event": registration.event, "error": error},
        status=409 if error else 200,
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


# -- director pages: clubs, players, roles, event settings ----------------------------------------
#
# Signed-out visitors are sent to sign in; signed-in users without the role get a 403 page.
# Every write goes through a service; an ``ApplicationError`` lands at the form field it names.


def _forbidden(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "tournaments/forbidden.html", {"message": message}, status=403)


def _club(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


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
        "tournaments/club_players.html",
        {
            "club": club,
            "rows": rows,
            "add_form": add_form or PlayerAddForm(prefix="add"),
            "list_form": list_form or PlayerListForm(prefix="list"),
            "can_manage": user_can_manage_club(user=request.user, club=club),
        },
        status=400 if any(f.errors for f in forms_) else 200,
    )


def _directed_club(request: HttpRequest, slug: str) -> tuple[Club, HttpResponse | None]:
    club = _club(slug)
    if not user_can_direct_club(user=request.user, club=club):
        return club, _forbidden(request, _("Only the club's admins and directors may do this."))
    return club, None


@login_required
def club_players(request: HttpRequest, slug: str) -> HttpResponse:
    club, refused = _directed_club(request, slug)
    return refused or _players_page(request, club)


@login_required
@require_POST
def club_player_add(request: HttpRequest, slug: str) -> HttpResponse:
    club, refused = _directed_club(request, slug)
    if refused:
        return refused
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
    club, refused = _directed_club(request, slug)
    if refused:
        return refused
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
    club, refused = _directed_club(request, slug)
    if refused:
        return refused
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


# -- club roles ------------------------------------------------------------------------------


def _roles_page(
    request: HttpRequest, club: Club, form: RoleGrantForm | None = None
) -> HttpResponse:
    return render(
        request,
        "tournaments/club_roles.html",
        {"club": club, "roles": list(club_role_list(club=club)), "form": form or RoleGrantForm()},
        status=400 if form is not None and form.errors else 200,
    )


@login_required
def club_roles(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    if not user_can_manage_club(user=request.user, club=club):
        return _forbidden(request, _("Only the club's admins may grant roles."))
    if request.method != "POST":
        return _roles_page(request, club)
    form = RoleGrantForm(request.POST)
    if form.is_valid():
        try:
            club_role_grant_named(
                club=club, username=form.cleaned_data["username"], role=form.cleaned_data["role"]
            )
        except ApplicationError as exc:
            form.add_service_error(exc)
        else:
            messages.success(
                request,
                _("%(user)s is now %(role)s of the club.")
                % {
                    "user": form.cleaned_data["username"],
                    "role": ClubRole.Role(form.cleaned_data["role"]).label,
                },
            )
            return redirect("club-roles", slug=club.slug)
    return _roles_page(request, club, form)


@login_required
@require_POST
def club_role_revoke_view(request: HttpRequest, slug: str, role_id: int) -> HttpResponse:
    club = _club(slug)
    if not user_can_manage_club(user=request.user, club=club):
        return _forbidden(request, _("Only the club's admins may grant roles."))
    role = get_object_or_404(ClubRole.objects.select_related("user"), pk=role_id, club=club)
    try:
        club_role_revoke(club=club, user=role.user, role=role.role)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("%(user)s is no longer %(role)s of the club.")
            % {"user": role.user.get_username(), "role": role.get_role_display()},
        )
    return redirect("club-roles", slug=club.slug)


# -- event settings --------------------------------------------------------------------------


def _event_form_page(
    request: HttpRequest, form: EventSettingsForm, club: Club, event: Event | None
) -> HttpResponse:
    return render(
        request,
        "tournaments/event_form.html",
        {
            "form": form,
            "club": club,
            "event": event,
            "usual_tiebreaks": _usual_tiebreaks(event.kind if event else None),
        },
        status=400 if form.errors else 200,
    )


def _usual_tiebreaks(kind: str | None) -> list[dict[str, Any]]:
    kinds = [kind] if kind else [k for k in Event.Kind.values if k != Event.Kind.LEAGUE]
    return [
        {
            "kind": Event.Kind(k).label,
            "order": ", ".join(
                str(TIEBREAK_NAMES[n]) if n in TIEBREAK_NAMES else _("lots")
                for n in DEFAULT_TIEBREAKS[k]
            ),
        }
        for k in kinds
    ]


def _preset_reloaded(form: EventSettingsForm, **kwargs: Any) -> EventSettingsForm:
    """The form redrawn with the chosen preset's values (the no-script "load preset" button)."""
    preset = form.data.get("preset") or "standard"
    if preset not in RULE_PRESETS:
        preset = "standard"
    initial = {**form.initial_from_data(), **EventSettingsForm.preset_initial(preset)}
    return EventSettingsForm(initial=initial, **kwargs)


@login_required
def event_create_view(request: HttpRequest, slug: str) -> HttpResponse:
    club, refused = _directed_club(request, slug)
    if refused:
        return refused
    form = EventSettingsForm(request.POST or None, club=club)
    if request.method == "POST" and "load_preset" in request.POST:
        form = _preset_reloaded(form, club=club)
    elif request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event = event_create(
                club_id=club.pk,
                name=data["name"],
                kind=data["kind"],
                rules=data["rules"].to_dict(),
                match_format=data["match_format"],
                confirmation=data["confirmation"],
                rounds_planned=data["rounds_planned"],
                options=data["options"],
                tiebreaks=data["tiebreaks"],
                league=data["league"],
                starts_on=data["starts_on"],
                user=request.user,  # type: ignore[arg-type]
            )
        except ApplicationError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("%(event)s is created.") % {"event": event.name})
            return redirect("event-detail", pk=event.pk)
    return _event_form_page(request, form, club, None)


@login_required
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk)
    if not user_can_manage_event(user=request.user, event=event):
        return _forbidden(request, _("Only the event's directors may change its settings."))
    lock = event_has_matches(event=event)
    form = EventSettingsForm(request.POST or None, club=event.club, event=event, lock_rules=lock)
    if request.method == "POST" and "load_preset" in request.POST and not lock:
        form = _preset_reloaded(form, club=event.club, event=event)
    elif request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event_update(
                event=event,
                name=data["name"],
                starts_on=data["starts_on"],
                rules=data["rules"].to_dict(),
                match_format=data["match_format"],
                confirmation=data["confirmation"],
                rounds_planned=data["rounds_planned"],
                tiebreaks=data["tiebreaks"],
                options=data["options"],
            )
        except ApplicationError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("The settings are saved."))
            return redirect("event-detail", pk=event.pk)
    return _event_form_page(request, form, event.club, event)


def event_rules_fields(request: HttpRequest) -> HttpResponse:
    """The rule and match-format fields filled from one preset (htmx swaps them in)."""
    preset = request.GET.get("preset", "standard")
    if preset not in RULE_PRESETS:
        raise Http404
    form = EventSettingsForm(club=None, initial=EventSettingsForm.preset_initial(preset))
    return render(request, "tournaments/_rule_fields.html", {"form": form})
