"""Brackets: the structure rebuilt from the drawn entrants, the stored results replayed through
it (:class:`BracketSnapshot`), the bracket view and the bracket matches still to be stored.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from clubs.models import Player
from competition.elimination import (
    Bracket,
    BracketError,
    BracketState,
    MatchStatus,
    Vacancy,
    bracket_state,
    double_elimination,
    next_match,
    single_elimination,
)
from core.errors import ApplicationError
from scoring.models import Match
from tournaments.models import ELIMINATION_KINDS, Event, Registration
from tournaments.selectors.options import event_option
from tournaments.selectors.results import MatchRecord, event_match_records

logger = logging.getLogger(__name__)


def event_bracket_structure(*, event: Event) -> Bracket:
    """The event's bracket, rebuilt from the entrants fixed when it started."""
    entrants = (event.draw or {}).get("entrants")
    if not entrants:
        raise ApplicationError(_("The bracket has not been drawn yet."), status=404)
    if event.kind == Event.Kind.DOUBLE_ELIMINATION:
        return double_elimination(
            entrants, reset=bool(event_option(event=event, name="grand_final_reset"))
        )
    return single_elimination(
        entrants, third_place=bool(event_option(event=event, name="third_place"))
    )


@dataclass(frozen=True, slots=True)
class BracketSnapshot:
    """A bracket, its state after the stored results, and the stored match of each bracket slot."""

    bracket: Bracket
    state: BracketState
    matches: dict[int, MatchRecord]
    depth: dict[int, int]


def event_bracket_snapshot(
    *, event: Event, overrides: Mapping[int, int | None] | None = None
) -> BracketSnapshot:
    """Replay the stored results through the bracket.

    Both players forfeiting counts as both having dropped for that match, so nobody advances
    from it. ``overrides`` (bracket id → winner, or None for "no result") replaces stored
    results: what the bracket would look like if a correction went through.
    """
    bracket = event_bracket_structure(event=event)
    records = [r for r in event_match_records(event=event, with_hands=False) if r.bracket_key]
    by_key = {int(r.bracket_key): r for r in records}
    results = {
        k: r.winner
        for k, r in by_key.items()
        if r.finished and r.winner is not None and r.decision != Match.Decision.BYE
    }
    for key, winner in (overrides or {}).items():
        if winner is None:
            results.pop(key, None)
        else:
            results[key] = winner
    dropped = set(
        Registration.objects.filter(event=event, status=Registration.Status.DROPPED).values_list(
            "player_id", flat=True
        )
    )
    forfeited = {
        k: r for k, r in by_key.items() if r.finished and r.decision == Match.Decision.FORFEIT
    }
    dropped.update(p for r in forfeited.values() for p in r.players)
    try:
        state = bracket_state(bracket, results, dropped)
    except BracketError as exc:
        # Stored results the bracket cannot replay (one names a player the bracket no longer
        # puts in that match): worded here by the error's type; its English str() is logged.
        logger.warning("event %s: stored results do not fit the bracket: %s", event.pk, exc)
        raise ApplicationError(
            _(
                "The stored results no longer fit the bracket; correct the later bracket "
                "matches' results first."
            ),
            status=409,
        ) from exc
    depth: dict[int, int] = {}
    for m in bracket.matches:
        sources = [s.ref for s in (m.home, m.away) if s.kind != "seed"]
        depth[m.id] = 1 + max((depth[s] for s in sources), default=0)
    return BracketSnapshot(bracket=bracket, state=state, matches=by_key, depth=depth)


def event_bracket(*, event: Event) -> dict[str, Any]:
    """The bracket view: every bracket match with its slots, status, winner and stored match."""
    snap = event_bracket_snapshot(event=event)
    names = dict(Player.objects.filter(pk__in=snap.bracket.entrants).values_list("pk", "name"))

    def slot(value: int | Vacancy) -> dict[str, Any]:
        if isinstance(value, Vacancy):
            return {"player": None, "name": None, "vacancy": value.value}
        return {"player": value, "name": names.get(value), "vacancy": None}

    out = []
    for ms in snap.state.matches:
        stored = snap.matches.get(ms.match.id)
        out.append(
            {
                "key": ms.match.id,
                "section": ms.match.section.value,
                "round": ms.match.round,
                "home": slot(ms.home),
                "away": slot(ms.away),
                "status": ms.status.value,
                "winner": slot(ms.winner),
                "match": stored.id if stored else None,
                "table_number": None,
                "scores": _slot_scores(stored, ms.home, ms.away),
                "feeders": [s.ref for s in (ms.match.home, ms.match.away) if s.kind != "seed"],
            }
        )
    tables = dict(
        Match.objects.filter(pk__in=[o["match"] for o in out if o["match"]]).values_list(
            "pk", "table_number"
        )
    )
    for o in out:
        if isinstance(o["match"], int):
            o["table_number"] = tables.get(o["match"])
    return {
        "kind": event.kind,
        "entrants": [slot(p) for p in snap.bracket.entrants],
        "matches": out,
        "champion": slot(snap.state.champion) if snap.state.champion else None,
        "ready": [ms.match.id for ms in snap.state.ready],
    }


def _slot_scores(
    stored: MatchRecord | None, home: int | Vacancy, away: int | Vacancy
) -> list[int | None]:
    """The score beside each slot of a finished bracket match: games won when more than one game
    was played, else the points the winner won by (the loser 0); None where there is nothing."""
    if stored is None or not stored.finished or stored.decision != Match.Decision.PLAYED:
        return [None, None]
    summary = stored.summary or {}
    games_won = summary.get("games_won") or []
    by_player: dict[int, int] = {}
    if len(summary.get("margins") or []) > 1 and len(games_won) == len(stored.players):
        by_player = {p: int(g) for p, g in zip(stored.players, games_won, strict=True)}
    elif stored.winner is not None and len(stored.game_points) == len(stored.players):
        # Net game points: the winner's margin, the loser's the same negated.
        by_player = {p: max(0, g) for p, g in zip(stored.players, stored.game_points, strict=True)}
    return [by_player.get(slot) if isinstance(slot, int) else None for slot in (home, away)]


@dataclass(frozen=True, slots=True)
class BracketNext:
    """Who a player meets next in a bracket before that match is made (the bracket is public:
    only names it shows anyway). ``opponent`` once known; else the ``winner`` (or ``loser``) of
    the match of ``feeder_players`` (none, one or both known so far)."""

    opponent: str | None
    source: str | None
    feeder_players: tuple[str, ...]


def bracket_next(*, event: Event, player_id: int) -> BracketNext | None:
    """``player_id``'s next bracket match while it is not made yet, or None: not a drawn
    bracket, out of it, or nothing to wait for (a stored match shows itself)."""
    if event.kind not in ELIMINATION_KINDS:
        return None
    if not (event.draw or {}).get("entrants") or event.status == Event.Status.FINISHED:
        return None
    try:
        snap = event_bracket_snapshot(event=event)
    except ApplicationError:
        return None
    found = next_match(snap.state, player_id)
    if found is None or found.match in snap.matches:
        return None
    wanted = [p for p in (found.opponent, *found.feeder_players) if p is not None]
    names = dict(Player.objects.filter(pk__in=wanted).values_list("pk", "name"))
    return BracketNext(
        opponent=names.get(found.opponent) if found.opponent is not None else None,
        source=found.source,
        feeder_players=tuple(names[p] for p in found.feeder_players if p in names),
    )


def bracket_pending(snapshot: BracketSnapshot) -> list[int]:
    """Bracket matches that can be played or were decided by walkover but have no stored match."""
    return [
        ms.match.id
        for ms in snapshot.state.matches
        if ms.status in (MatchStatus.READY, MatchStatus.WALKOVER)
        and ms.match.id not in snapshot.matches
    ]
