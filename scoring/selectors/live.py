"""Live scores of many tables at once (a round's pairings list), in a fixed number of queries.

Each table's live score is remembered by this process under the match's live version
(``Match.live_seq``, bumped by every write that changes the match): a page of 50 tables, asked
for again after one table changed, scores that one table and reads the other 49 from memory.
A version never comes back, so nothing remembered can be stale.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import EngineError
from scoring.models import Match
from scoring.selectors.shapes import match_detail
from scoring.selectors.state import MatchState, _with_state_relations, match_state
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
        "status_label": STATUS_LABELS[status],
    }


# match id -> ((live version, created at), live score or None when the engine rejected its
# hands); the creation time tells apart two matches given the same id (a database restored).
_REMEMBERED: dict[int, tuple[tuple[int, Any], dict[str, Any] | None]] = {}
_REMEMBER_AT_MOST = 5000


def matches_live_scores(*, match_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Each match's live score (current game's totals, games won, sides, winner) by match id.

    One query reads the matches' live versions; the matches whose score this process does not
    hold at that version are loaded with one set of prefetches (six queries whatever their
    number) and scored by :func:`match_state` in memory, so a pairings list of 512 tables costs
    what one table does. A match whose stored hands the engine rejects is left out.
    """
    out: dict[int, dict[str, Any]] = {}
    if not match_ids:
        return out
    versions = {
        pk: (seq, created)
        for pk, seq, created in Match.objects.filter(pk__in=list(match_ids)).values_list(
            "pk", "live_seq", "created_at"
        )
    }
    stale = [pk for pk, key in versions.items() if _REMEMBERED.get(pk, (None, None))[0] != key]
    if stale:
        if len(_REMEMBERED) > _REMEMBER_AT_MOST:
            _REMEMBERED.clear()
        for match in _with_state_relations(Match.objects.filter(pk__in=stale)):
            try:
                score: dict[str, Any] | None = _live(match_state(match=match))
            except EngineError:
                score = None
            # The version read first: a write landing meanwhile is scored again next time.
            _REMEMBERED[match.pk] = (versions[match.pk], score)
    for pk in versions:
        remembered = _REMEMBERED.get(pk)
        if remembered is not None and remembered[1] is not None:
            out[pk] = remembered[1]
    return out


def round_live_scores(*, rnd: Any) -> dict[int, dict[str, Any]]:
    """The live score of every played table of a round (see :func:`matches_live_scores`)."""
    ids = Match.objects.filter(round=rnd, decision=Match.Decision.PLAYED).values_list(
        "pk", flat=True
    )
    return matches_live_scores(match_ids=list(ids))
