"""An event's page (standings, pairings, bracket, matches) and its live standings fragment."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy

from core.errors import ApplicationError
from scoring.models import Match
from scoring.selectors import matches_live_scores, round_live_scores
from tournaments.forms import (
    BulkRegisterForm,
    ForbiddenPairingForm,
    MatchStartForm,
    RegisterForm,
)
from tournaments.models import (
    Event,
    Registration,
)
from tournaments.permissions import (
    user_can_manage_event,
)
from tournaments.selectors import (
    event_active_players,
    event_bracket,
    event_forbidden_pairings,
    event_matches,
    event_rounds,
    event_standings,
    event_tiebreak_order,
    player_list,
    registration_list,
    round_matches,
)
from tournaments.views._common import _event
from tournaments.views.bracket_view import SECTION_LABELS as SECTION_LABELS
from tournaments.views.bracket_view import bracket_sections

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

BRACKET_STATUS_LABELS: dict[str, Any] = {
    "waiting": gettext_lazy("waiting"),
    "ready": gettext_lazy("ready to play"),
    "played": gettext_lazy("played"),
    "bye": gettext_lazy("bye"),
    "walkover": gettext_lazy("walkover"),
    "not_needed": gettext_lazy("not needed"),
}


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
    double = event.kind == Event.Kind.DOUBLE_ELIMINATION
    for m in bracket["matches"]:
        m["status_label"] = BRACKET_STATUS_LABELS.get(m["status"], m["status"])
    return {"sections": bracket_sections(bracket, double=double), "champion": bracket["champion"]}


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
