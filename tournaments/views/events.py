"""An event's page (standings, pairings, bracket, matches), its standings fragment, and its live
regions (what static/js/live.js swaps in when the event's version moved; docs/live.md)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy

from clubs.models import Player
from clubs.selectors import player_list
from core.errors import ApplicationError
from core.live import DRAWER, by_version, keep_drawing, kept_drawing, live_subscribe_url
from scoring.models import Match
from scoring.selectors import (
    event_free_table,
    event_open_seats,
    matches_live_stamps,
    matches_live_states,
    round_played_match_ids,
    with_status_labels,
)
from tournaments.forms import (
    BulkRegisterForm,
    ForbiddenPairingForm,
    MatchStartForm,
    PasteRegisterForm,
    RegisterForm,
)
from tournaments.models import (
    ELIMINATION_KINDS,
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
    event_present_players,
    event_round,
    event_rounds,
    event_standings,
    event_takes_entries,
    event_tiebreak_order,
    league_table,
    registration_list,
    round_has_results,
    round_matches,
)
from tournaments.selectors.clock import round_clock_state
from tournaments.selectors.live import event_version
from tournaments.signals import event_page_extras_for
from tournaments.standings_labels import TIEBREAK_LABELS as TIEBREAK_LABELS
from tournaments.standings_labels import TIEBREAK_LEGENDS
from tournaments.views.bracket_view import SECTION_LABELS as SECTION_LABELS
from tournaments.views.bracket_view import bracket_sections
from tournaments.views.common import event_or_404

BRACKET_STATUS_LABELS: dict[str, Any] = {
    "waiting": gettext_lazy("waiting"),
    "ready": gettext_lazy("ready to play"),
    "played": gettext_lazy("played"),
    "bye": gettext_lazy("bye"),
    "walkover": gettext_lazy("walkover"),
    "not_needed": gettext_lazy("not needed"),
}


def standings_context(event: Event) -> dict[str, Any]:
    standings = event_standings(event=event)
    order = [tb.value for tb in event_tiebreak_order(event=event)]
    columns = [
        (key, TIEBREAK_LABELS.get(key, key), TIEBREAK_LEGENDS.get(key, ""))
        for key in order
        if key != "lots"
    ]
    # A league stores no standings: its table is aggregated from its events' results on the
    # fly (as the API does), so the page shows what the nights played, never "No results yet".
    lines: list[Any] = list(standings.rows)
    if event.kind == Event.Kind.LEAGUE:
        table = league_table(league=event)
        players = Player.objects.in_bulk([line.player for line in table])
        lines = [
            SimpleNamespace(rank=line.rank, player=players[line.player], values=line.values)
            for line in table
        ]
    rows = [
        {
            "rank": s.rank,
            "player": s.player,
            "match_points": s.values.get("match_points"),
            "record": s.values,
            "tiebreaks": [s.values.get(key) for key, _label, _legend in columns],
            "dropped": s.values.get("dropped", False),
            "group": s.values.get("group"),
        }
        for s in lines
    ]
    for row in rows:
        # Everything tournaments/_standing_row.html reads (core.drawn keeps its HTML by it).
        record = row["record"]
        row["key"] = (
            row["rank"],
            row["player"].pk,
            row["player"].name,
            row["match_points"],
            record.get("won"),
            record.get("drawn"),
            record.get("lost"),
            tuple(row["tiebreaks"]),
            row["dropped"],
            row["group"],
        )
    fixed = [
        ("match_points", TIEBREAK_LABELS["match_points"], TIEBREAK_LEGENDS["match_points"]),
        ("record", gettext_lazy("W-D-L"), TIEBREAK_LEGENDS["record"]),
    ]
    legend = fixed + [c for c in columns if c[0] != "match_points" and c[2]]
    return {
        "event": event,
        "standings": standings,
        "columns": columns,
        "legend": legend,
        "rows": rows,
    }


def live_scores(*, match_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The tables' live scores, each scored once per version by this process
    (core.live.by_version over the pure selectors); the status labels, lazy translations,
    added after (kept, they would be unpickled at every read)."""
    kept = by_version(
        kind="match-live-score",
        versions=matches_live_stamps(match_ids=match_ids),
        compute=lambda stale: matches_live_states(match_ids=stale),
    )
    return with_status_labels(kept)


def round_scores(*, rnd: Any) -> dict[int, dict[str, Any]]:
    """The live score of every played table of a round (:func:`live_scores`)."""
    return live_scores(match_ids=round_played_match_ids(rnd=rnd))


def pairing_rows(
    matches: list[Match],
    scores: dict[int, dict[str, Any]] | None = None,
    floats: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Tables with their live scores (``scores`` by match id; read for all tables at once) and
    each seated player's float this round (``floats``, a Swiss round's ``Round.floats``)."""
    if scores is None:
        played = [m.pk for m in matches if m.decision == Match.Decision.PLAYED]
        scores = live_scores(match_ids=played)
    rows = []
    for m in matches:
        seats = sorted(m.seats.all(), key=lambda s: s.position)
        live = scores.get(m.pk, {}) if m.decision == Match.Decision.PLAYED else {}
        ways = [(s, (floats or {}).get(str(s.player_id), "")) for s in seats]
        sides = _sides(m, ways)
        rows.append(
            {
                "match": m,
                "seats": seats,
                "live": live,
                "sides": sides,
                "key": _row_key(m, seats, sides, live),
            }
        )
    return rows


def _row_key(
    m: Match, seats: list[Any], sides: list[list[tuple[Any, str]]], live: dict[str, Any]
) -> tuple[Any, ...]:
    """Everything a table's row reads (tournaments/_pairing_row.html, the projector's
    _projector_row.html; core.drawn keeps their HTML by it): the match's own fields, the seats
    in order, each side's seats with their names and floats, and the live score (its status
    label follows from its status and the language, which core.drawn adds)."""
    score = {k: v for k, v in live.items() if k != "status_label"}
    return (
        m.pk,
        m.table_number,
        m.decision,
        m.status,
        m.winner_id,
        tuple(s.player_id for s in seats),
        tuple(tuple((s.player_id, s.player.name, way) for s, way in side) for side in sides),
        json.dumps(score, sort_keys=True, default=str),
    )


def _sides(m: Match, ways: list[tuple[Any, str]]) -> list[list[tuple[Any, str]]]:
    """The sides of a table, each its seats with their floats: one seat a side, or the two
    teams of a partnership ("Zeke & Elif v Cleo & Gus", never four names in a row)."""
    if (m.rules or {}).get("table") != "partnership":
        return [[way] for way in ways]
    teams: dict[int, list[tuple[Any, str]]] = {}
    for seat, way in ways:
        team = seat.team if seat.team is not None else seat.position % 2
        teams.setdefault(team, []).append((seat, way))
    return [teams[team] for team in sorted(teams)]


def bracket_context(event: Event) -> dict[str, Any] | None:
    if event.kind not in ELIMINATION_KINDS:
        return None
    try:
        bracket = event_bracket(event=event)
    except ApplicationError:
        return None
    double = event.kind == Event.Kind.DOUBLE_ELIMINATION
    for m in bracket["matches"]:
        m["status_label"] = BRACKET_STATUS_LABELS.get(m["status"], m["status"])
    return {
        "sections": bracket_sections(bracket, double=double),
        "champion": bracket["champion"],
        "podium": bracket_podium(bracket["matches"], bracket["champion"]),
    }


def bracket_podium(
    matches: list[dict[str, Any]], champion: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """A decided bracket's places: the champion, the other finalist, the third-place winner."""
    if not champion or champion.get("player") is None:
        return []
    places = [{"place": 1, "player_id": champion["player"], "name": champion["name"]}]
    finals = [m for m in matches if m["section"] in ("grand_final_reset", "grand_final")]
    if not finals:
        last = max((m["round"] for m in matches if m["section"] == "winners"), default=0)
        finals = [m for m in matches if m["section"] == "winners" and m["round"] == last]
    final = next((m for m in finals if m["status"] == "played"), None)
    if final is not None:
        for side in (final["home"], final["away"]):
            if side.get("player") not in (None, champion["player"]):
                places.append({"place": 2, "player_id": side["player"], "name": side["name"]})
    third = next((m for m in matches if m["section"] == "third_place"), None)
    if third is not None and third["winner"] and third["winner"].get("player") is not None:
        winner = third["winner"]
        places.append({"place": 3, "player_id": winner["player"], "name": winner["name"]})
    return places


def _podium(event: Event, standings: Any, bracket: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Who a finished event celebrates, best first: a bracket's finalists, else the standings'
    top three places (ties share a place)."""
    if event.status != Event.Status.FINISHED:
        return []
    if bracket is not None and bracket["podium"]:
        return list(bracket["podium"])
    return [
        {"place": s.rank, "player_id": s.player_id, "name": s.player.name}
        for s in standings.podium()
    ]


def _live_urls(event: Event, version: int) -> dict[str, Any]:
    """Where a page following the event's live regions asks (templates/_live_poll.html)."""
    return {
        "version": version,
        "version_url": reverse("event-version", args=[event.pk]),
        "fragment_url": reverse("event-live", args=[event.pk]),
        "subscribe_url": live_subscribe_url(page="event", pk=event.pk),
        "poll_ms": settings.KNOCK_LIVE_POLL_MS,
    }


def _live_context(event: Event, version: int) -> dict[str, Any]:
    """Everything the live regions show (standings, pairings, tables, bracket): the same for
    every visitor, so one rendering serves them all until the version moves."""
    rounds = list(event_rounds(event=event))
    current = rounds[-1] if rounds else None
    pairings = (
        pairing_rows(round_matches(rnd=current), round_scores(rnd=current), current.floats or {})
        if current is not None
        else []
    )
    standings = standings_context(event)
    bracket = bracket_context(event)
    context: dict[str, Any] = {
        **standings,
        "podium": _podium(event, standings["standings"], bracket),
        "rounds": rounds,
        "current_round": current,
        # "Re-pair" is offered only while the service would allow it: no result in the round.
        "repairable": current is not None and not round_has_results(rnd=current),
        "pairings": pairings,
        "bracket": bracket,
        "uses_rounds": event.kind in (Event.Kind.SWISS, Event.Kind.ROUND_ROBIN),
        "elimination": event.kind in ELIMINATION_KINDS,
        "open_play": event.kind in (Event.Kind.CLUB_NIGHT, Event.Kind.LEAGUE),
        # "Pair next round" is offered once the current round has every result (the console
        # can force it earlier, with a reason).
        "pair_ready": current is None
        or (
            event.kind in (Event.Kind.SWISS, Event.Kind.ROUND_ROBIN)
            and not Match.objects.filter(round=current)
            .exclude(status=Match.Status.FINISHED)
            .exists()
        ),
        "league_events": list(event.league_events.all()) if event.kind == Event.Kind.LEAGUE else [],
        "live": _live_urls(event, version),
        # The current round's clock (the page's script counts it down; None: no clock).
        "clock": round_clock_state(rnd=current) if current is not None else None,
    }
    if context["open_play"]:
        context["table_matches"] = pairing_rows(_open_matches(event))
    return context


def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_or_404(pk)
    director = user_can_manage_event(user=request.user, event=event)
    # Read before the page's rows: a result landing meanwhile makes the next poll fetch again.
    version = event_version(event_id=event.pk) or 0
    context = {
        **_live_context(event, version),
        "director": director,
        "entries_open": False,  # the entries app says True when the event takes entries
        **event_page_extras_for(event=event, page="event-detail"),
    }
    if director:
        registrations = list(registration_list(event=event))
        club_players = player_list(club_id=event.club_id)
        unregistered = club_players.exclude(pk__in={r.player_id for r in registrations})
        active = event_active_players(event=event)
        playing = event_open_seats(event_id=event.pk)
        context.update(
            registrations=registrations,
            takes_entries=event_takes_entries(event=event),
            register_form=RegisterForm(players=unregistered),
            bulk_form=BulkRegisterForm(prefix="bulk", players=unregistered),
            waiting_checkin=sum(r.status == Registration.Status.REGISTERED for r in registrations),
            paste_form=PasteRegisterForm(prefix="paste"),
            start_form=MatchStartForm(
                players=event_present_players(event=event),
                playing=playing,
                initial={"table_number": event_free_table(event_id=event.pk)},
            ),
            forbidden=list(event_forbidden_pairings(event=event)),
            forbidden_form=ForbiddenPairingForm(players=active),
        )
    return render(request, "tournaments/event_detail.html", context)


def round_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One round's tables and results, for any round of a Swiss or round robin (or a bracket's
    stored rounds): what a spectator opens after the next round was paired."""
    event = event_or_404(pk)
    try:
        rnd = event_round(event=event, number=number)
    except ApplicationError as exc:
        raise Http404(exc.message) from exc
    version = event_version(event_id=event.pk) or 0
    rounds = list(event_rounds(event=event))
    rows = pairing_rows(round_matches(rnd=rnd), round_scores(rnd=rnd), rnd.floats or {})
    context = {
        "event": event,
        "round": rnd,
        "rounds": rounds,
        "pairings": rows,
        "clock": round_clock_state(rnd=rnd),
        # The latest round follows the event's live regions (its pairings and clock are theirs).
        "live": _live_urls(event, version) if rounds and rounds[-1].pk == rnd.pk else None,
    }
    return render(request, "tournaments/round_detail.html", context)


def _open_matches(event: Event) -> list[Match]:
    """A club night's tables: the ones being played first, then newest first."""
    return list(event_matches(event=event)[:60])


def event_standings_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings block alone: polled by htmx while the standings are being updated."""
    event = event_or_404(pk)
    return render(request, "tournaments/_standings.html", standings_context(event))


# The live regions are drawn once per version and process (core.live.kept_drawing), and at most
# every RENDER_EVERY seconds: on a busy night the version moves faster than that, and a spectator
# served the regions drawn just before a change still holds the older version, so their next
# poll fetches again (docs/live.md: at most RENDER_EVERY + one poll late). Not when core.live
# draws the spectators' regions for every process (DRAWER): what it draws is kept for all of
# them, so it is the current version, and core.live paces those drawings itself (DRAW_EVERY).
RENDER_EVERY = 0.5


def event_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The event page's live regions alone: standings, pairings, tables and bracket."""
    event = event_or_404(pk)
    version = event_version(event_id=event.pk) or 0
    # The creation time tells apart two events given the same id (a database restored).
    key = f"event-live:{event.pk}:{event.created_at.timestamp()}:{get_language() or ''}"
    within = 0.0 if DRAWER in request.META else RENDER_EVERY
    content = kept_drawing(key=key, version=version, within=within)
    if content is None:
        response = render(request, "tournaments/_event_live.html", _live_context(event, version))
        content = response.content
        keep_drawing(key=key, version=version, content=content)
    out = HttpResponse(content)
    out["Cache-Control"] = "no-store"
    return out
