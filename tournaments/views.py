"""Pages for clubs, events (standings, pairings, brackets, director actions) and players.

Views are thin: they read through ``tournaments.selectors`` / ``scoring.selectors``, write only
through the services, and turn an ``ApplicationError`` into a message on the page. Nothing here
computes a score, a ranking or a pairing.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import LoginView, LogoutView
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core.errors import ApplicationError
from engine.errors import EngineError
from scoring.models import Match, Seat
from scoring.permissions import Actor
from scoring.selectors import match_detail, match_prefetched, match_state
from scoring.services import match_start
from tournaments.forms import ForbiddenPairingForm, MatchStartForm, RegisterForm
from tournaments.models import Club, Event, ForbiddenPairing, Player, Rating, Registration, Round
from tournaments.permissions import (
    user_can_direct_club,
    user_can_manage_club,
    user_can_manage_event,
)
from tournaments.selectors import club_list as clubs_selector
from tournaments.selectors import (
    event_bracket,
    event_list,
    event_rounds,
    event_standings,
    event_tiebreak_order,
    player_list,
    player_ratings,
    registration_list,
    round_matches,
)
from tournaments.services import (
    forbidden_pairing_create,
    registration_checkin,
    registration_checkin_by_token,
    registration_create,
    registration_drop,
    round_pair,
    round_repair,
)

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
    ratings = _club_ratings(club)
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


def _club_ratings(club: Club) -> dict[int, Rating]:
    """Current two-player ratings of the club's players (a read the selectors do not offer yet)."""
    return {r.player_id: r for r in Rating.objects.filter(club=club, kind=Rating.Kind.GLICKO2)}


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


def _scores(match: Match) -> dict[str, Any]:
    """A match's live score for a pairings list, from the scoring selectors."""
    try:
        detail = match_detail(
            state=match_state(match=match_prefetched(match_id=match.pk)), show_pending=False
        )
    except (EngineError, Match.DoesNotExist):
        return {}
    game = detail["games"][-1] if detail["games"] else None
    totals = None
    if game is not None and "totals" in game:
        totals = game["totals"]
    return {
        "totals": totals,
        "games_won": detail["games_won"],
        "best_of": len(detail["games"]) > 1 or detail["match_format"].get("kind") == "best_of",
        "sides": detail["sides"],
        "winner_name": detail["winner_name"],
    }


def _pairing_rows(matches: list[Match]) -> list[dict[str, Any]]:
    rows = []
    for m in matches:
        seats = sorted(m.seats.all(), key=lambda s: s.position)
        live = _scores(m) if m.decision == Match.Decision.PLAYED else {}
        rows.append({"match": m, "seats": seats, "live": live})
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
    pairings = _pairing_rows(round_matches(rnd=current)) if current is not None else []
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
        registered = {r.player_id for r in registrations}
        context.update(
            registrations=registrations,
            register_form=RegisterForm(players=club_players.exclude(pk__in=registered)),
            start_form=MatchStartForm(players=_event_players(event)),
            forbidden=list(
                ForbiddenPairing.objects.filter(event=event).select_related("player_a", "player_b")
            ),
            forbidden_form=ForbiddenPairingForm(players=_event_players(event)),
        )
    return render(request, "tournaments/event_detail.html", context)


def _open_matches(event: Event) -> list[Match]:
    """A club night's tables, newest first (a read the selectors do not offer yet)."""
    return list(
        Match.objects.filter(event=event, round__isnull=True)
        .prefetch_related("seats__player")
        .order_by("status", "-created_at")[:60]
    )


def _event_players(event: Event) -> Any:
    registered = Registration.objects.filter(event=event).exclude(
        status=Registration.Status.DROPPED
    )
    players = Player.objects.filter(pk__in=registered.values("player_id")).order_by("name")
    if event.kind == Event.Kind.CLUB_NIGHT and not registered.exists():
        return player_list(club_id=event.club_id)
    return players


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
    seats = list(
        Seat.objects.filter(player=player)
        .select_related("match__event", "match__winner", "match__round")
        .prefetch_related("match__seats__player")
        .order_by("-match__created_at")[:100]
    )
    rows = []
    for seat in seats:
        m = seat.match
        opponents = [s.player for s in m.seats.all() if s.player_id != player.pk]
        if m.status != Match.Status.FINISHED:
            result = "playing"
        elif m.winner_id is None:
            result = "forfeit" if m.decision == Match.Decision.FORFEIT else "draw"
        else:
            result = "won" if m.winner_id == player.pk else "lost"
        rows.append({"match": m, "opponents": opponents, "result": result})
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
