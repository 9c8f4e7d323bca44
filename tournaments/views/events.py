"""An event's page (standings, pairings, bracket, matches), its standings fragment, and its live
regions (what static/js/live.js swaps in when the event's version moved; docs/live.md)."""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy

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
from tournaments.selectors.live import event_version
from tournaments.views._common import _event

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


def _live_context(event: Event, version: int) -> dict[str, Any]:
    """Everything the live regions show (standings, pairings, tables, bracket): the same for
    every visitor, so one rendering serves them all until the version moves."""
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
        "rounds": rounds,
        "current_round": current,
        "pairings": pairings,
        "bracket": _bracket_context(event),
        "uses_rounds": event.kind in (Event.Kind.SWISS, Event.Kind.ROUND_ROBIN),
        "elimination": event.kind in (Event.Kind.SINGLE_ELIMINATION, Event.Kind.DOUBLE_ELIMINATION),
        "open_play": event.kind in (Event.Kind.CLUB_NIGHT, Event.Kind.LEAGUE),
        "league_events": list(event.league_events.all()) if event.kind == Event.Kind.LEAGUE else [],
        "live": {
            "version": version,
            "version_url": reverse("event-version", args=[event.pk]),
            "fragment_url": reverse("event-live", args=[event.pk]),
            "poll_ms": settings.KNOCK_LIVE_POLL_MS,
        },
    }
    if context["open_play"]:
        context["table_matches"] = _pairing_rows(_open_matches(event))
    return context


def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk)
    director = user_can_manage_event(user=request.user, event=event)
    # Read before the page's rows: a result landing meanwhile makes the next poll fetch again.
    version = event_version(event_id=event.pk) or 0
    context = {**_live_context(event, version), "director": director}
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


# The live regions last rendered by this process, by (event, language): (version, when, html).
# Every spectator polling an event asks for the same regions after the same change; they are
# drawn once per version and process, and at most every RENDER_EVERY seconds: on a busy night
# the version moves faster than that, and a spectator served the regions drawn just before a
# change still holds the older version, so their next poll fetches again (docs/live.md: at most
# RENDER_EVERY + one poll late).
_LIVE_RENDERED: dict[tuple[int, Any, str], tuple[int, float, bytes]] = {}
RENDER_EVERY = 0.5


def event_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The event page's live regions alone: standings, pairings, tables and bracket."""
    event = _event(pk)
    version = event_version(event_id=event.pk) or 0
    # The creation time tells apart two events given the same id (a database restored).
    key = (event.pk, event.created_at, get_language() or "")
    cached = _LIVE_RENDERED.get(key)
    now = time.monotonic()
    if cached is not None and (cached[0] == version or now - cached[1] < RENDER_EVERY):
        content = cached[2]
    else:
        response = render(request, "tournaments/_event_live.html", _live_context(event, version))
        content = response.content
        if len(_LIVE_RENDERED) > 1000:
            _LIVE_RENDERED.clear()
        _LIVE_RENDERED[key] = (version, now, content)
    out = HttpResponse(content)
    out["Cache-Control"] = "no-store"
    return out
