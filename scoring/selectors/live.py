"""Live scores of many tables at once (a round's pairings list), in a fixed number of queries.

Pure reads: a page that shows many tables keeps each table's score by its live version
(:func:`matches_live_stamps`, ``Match.live_seq`` bumped by every write that changes the match)
through core.live.by_version, so a page of 50 tables, asked for again after one table changed,
scores that one table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import EngineError
from scoring.models import Match
from scoring.selectors.shapes import match_detail
from scoring.selectors.state import MatchState, match_state, with_state_relations
from scoring.selectors.status import STATUS_LABELS, match_display_status


def _live(state: MatchState) -> dict[str, Any]:
    detail = match_detail(state=state, show_pending=False)
    game = detail["games"][-1] if detail["games"] else None
    # what a spectator reads: "playing" from the first hand on (no entry before it counts)
    status = match_display_status(state=state, show_pending=False)
    totals = None
    if game is not None:
        # a finished game shows the totals it was decided on (game, box and shutout bonuses
        # added), as its score sheet does; a game in play shows the running points
        totals = game.get("final_totals") if game.get("finished") else None
        totals = totals or game.get("totals")
    return {
        "totals": totals,
        "games_won": detail["games_won"],
        "best_of": len(detail["games"]) > 1 or detail["match_format"].get("kind") == "best_of",
        "sides": detail["sides"],
        "winner_name": detail["winner_name"],
        "status": status,
    }


def with_status_labels(scores: dict[int, dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """``scores`` with each one's ``status_label`` (its status in the reader's language, a lazy
    translation), added in place. Kept apart from the scores themselves: they are kept by
    version in a cache that pickles them, and a lazy string unpickled builds its proxy class
    anew each time (it cost a twentieth of the web server's CPU at a 100-table open)."""
    for score in scores.values():
        score["status_label"] = STATUS_LABELS[score["status"]]
    return scores


def matches_live_stamps(*, match_ids: Sequence[int]) -> dict[int, tuple[int, Any]]:
    """Each match's live version and creation time (which tells apart two matches given the
    same id, a database restored), by match id: one query. What a live score is kept under
    (core.live.by_version)."""
    rows = Match.objects.filter(pk__in=list(match_ids)).values_list("pk", "live_seq", "created_at")
    return {pk: (seq, created) for pk, seq, created in rows}


def matches_live_scores(*, match_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Each match's live score (current game's totals, games won, sides, winner, status and
    its label) by match id (:func:`matches_live_states` with :func:`with_status_labels`)."""
    return with_status_labels(matches_live_states(match_ids=match_ids))


def matches_live_states(*, match_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Each match's live score without its status label: plain data, to keep by version.

    The matches are loaded with one set of prefetches (six queries whatever their number) and
    scored by :func:`match_state` in memory, so a pairings list of 512 tables costs what one
    table does. A match whose stored hands the engine rejects is left out.
    """
    out: dict[int, dict[str, Any]] = {}
    if not match_ids:
        return out
    for match in with_state_relations(Match.objects.filter(pk__in=list(match_ids))):
        try:
            out[match.pk] = _live(match_state(match=match))
        except EngineError:
            continue
    return out


def round_played_match_ids(*, rnd: Any) -> list[int]:
    """The ids of a round's played tables (not its byes or forfeits)."""
    ids = Match.objects.filter(round=rnd, decision=Match.Decision.PLAYED).values_list(
        "pk", flat=True
    )
    return list(ids)


def round_live_scores(*, rnd: Any) -> dict[int, dict[str, Any]]:
    """The live score of every played table of a round (see :func:`matches_live_scores`)."""
    return matches_live_scores(match_ids=round_played_match_ids(rnd=rnd))
