"""Live scores of many tables at once (a round's pairings list), in a fixed number of queries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import EngineError
from scoring.models import Match
from scoring.selectors.shapes import match_detail
from scoring.selectors.state import MatchState, _with_state_relations, match_state


def _live(state: MatchState) -> dict[str, Any]:
    detail = match_detail(state=state, show_pending=False)
    game = detail["games"][-1] if detail["games"] else None
    return {
        "totals": game["totals"] if game is not None and "totals" in game else None,
        "games_won": detail["games_won"],
        "best_of": len(detail["games"]) > 1 or detail["match_format"].get("kind") == "best_of",
        "sides": detail["sides"],
        "winner_name": detail["winner_name"],
    }


def matches_live_scores(*, match_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Each match's live score (current game's totals, games won, sides, winner) by match id.

    Every match is loaded with one set of prefetches (six queries whatever their number) and
    scored by :func:`match_state` in memory, so a pairings list of 512 tables costs what one
    table does. A match whose stored hands the engine rejects is left out.
    """
    out: dict[int, dict[str, Any]] = {}
    if not match_ids:
        return out
    for match in _with_state_relations(Match.objects.filter(pk__in=list(match_ids))):
        try:
            out[match.pk] = _live(match_state(match=match))
        except EngineError:
            continue
    return out


def round_live_scores(*, rnd: Any) -> dict[int, dict[str, Any]]:
    """The live score of every played table of a round (see :func:`matches_live_scores`)."""
    ids = Match.objects.filter(round=rnd, decision=Match.Decision.PLAYED).values_list(
        "pk", flat=True
    )
    return matches_live_scores(match_ids=list(ids))
